/**
 * Dev methods at /ext/bc/C/rpc with params past their range. The project's rule: a refused call changes nothing
 * (blocks, balances, the network's clock), and its error is the one the tool it copies (anvil's api.rs, Hardhat's
 * EDR) would send; each test names the source of its expectation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const WHALE = '0x00000000000000000000000000000000000A11CE';
const MAX_U256 = `0x${'f'.repeat(64)}`;
/** 80 bits: past the u64 every mining interval is read into. */
const INTERVAL_PAST_U64 = `0x${'f'.repeat(20)}`;

let node: RunningMockNode;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterEach(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const blockNumber = async () => (await c('eth_blockNumber', [])).result as string;
const pTime = async () =>
  (await callRpc(`${node.url}/ext/bc/P`, 'platform.getTimestamp')).result as { timestamp: string };
const lastBlockTime = async () =>
  BigInt(((await c('eth_getBlockByNumber', ['latest', false])).result as { timestamp: string }).timestamp);

describe('dev methods refused part-way', () => {
  // Hardhat's EDR reads hardhat_mine's params as Option<u64> (crates/edr_provider/src/requests/hardhat/miner.rs,
  // handle_mine(data, number_of_blocks: Option<u64>, interval: Option<u64>)), so an 80-bit interval fails to
  // deserialize with -32602 before any block is mined.
  it('hardhat_mine with an interval past 64 bits is refused and mines nothing', async () => {
    const [blocks, time] = [await blockNumber(), await pTime()];
    const { error } = await c('hardhat_mine', ['0x3', INTERVAL_PAST_U64]);
    expect(error).toMatchObject({ code: -32602 });
    expect([await blockNumber(), await pTime()]).toEqual([blocks, time]);
  });

  // The guide's rule (a refused call changes nothing). evm_mine's {timestamp, blocks} form is Ganache's
  // (ganache's ethereum api.ts, evm_mine(options: MineOptions)): the mock's "at most 1000" check comes before the
  // network's clock moves to `timestamp`.
  it('evm_mine {timestamp, blocks: 1001} is refused and leaves the clock where it was', async () => {
    const before = await pTime();
    const timestamp = Number((await lastBlockTime()) + 5000n);
    const { error } = await c('evm_mine', [{ timestamp, blocks: 1001 }]);
    expect(error).toMatchObject({ code: -32602, message: /at most 1000/ });
    expect([await pTime(), await blockNumber()]).toEqual([before, '0x0']);
  });

  // The guide's rule again: anvil itself refuses nothing here (api.rs anvil_mine moves its clock by `interval` before
  // each block, in u64 seconds), but the mock's clock ends at 9999-12-31. Refused or not, all or nothing.
  it('anvil_mine whose later blocks pass year 9999 builds all of them or none', async () => {
    const [blocks, time] = [await blockNumber(), await pTime()];
    const interval = `0x${(150_000_000_000).toString(16)}`;
    const { error } = await c('anvil_mine', ['0x3', interval]);
    if (error) expect([await blockNumber(), await pTime()]).toEqual([blocks, time]);
    else expect(BigInt(await blockNumber())).toBe(BigInt(blocks) + 3n);
  });

  it('anvil_mine with an interval past 64 bits is refused before its first block', async () => {
    const [blocks, time] = [await blockNumber(), await pTime()];
    const { error } = await c('anvil_mine', ['0x3', INTERVAL_PAST_U64]);
    expect(error).toMatchObject({ code: -32602 });
    expect([await blockNumber(), await pTime()]).toEqual([blocks, time]);
  });
});

describe('anvil_addBalance past 2^256 - 1', () => {
  // anvil adds with saturation (foundry crates/anvil/src/eth/api.rs, anvil_add_balance:
  // `current_balance.saturating_add(balance)`, foundry commit 94d1caab "prevent balance overflow in
  // anvil_addBalance", #13457): the balance stays at 2^256 - 1 and the call answers null.
  it('saturates at 2^256 - 1 and answers null, as anvil does', async () => {
    expect((await c('anvil_setBalance', [WHALE, MAX_U256])).error).toBeUndefined();
    const added = await c('anvil_addBalance', [WHALE, '0x1']);
    expect([added.error, added.result]).toEqual([undefined, null]);
    expect((await c('eth_getBalance', [WHALE, 'latest'])).result).toBe(MAX_U256);
  });
});
