/**
 * Quantities in the dev methods' params, read as anvil reads them: its U256 params are alloy's (ruint's) `Uint`,
 * whose serde visitor (ruint src/support/serde.rs HrVisitor) takes a JSON number or a string that `Uint::from_str`
 * parses (src/string.rs: `0x`/`0X` hex, `0o` octal, `0b` binary, else decimal; `_` skipped), and refuses one past
 * 2^256 - 1 or with a digit outside its base. The C-Chain's own methods keep coreth's reading: hexutil's quantities
 * take only `0x` hex ("hex string without 0x prefix").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const WHALE = '0x00000000000000000000000000000000000A11CE';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const balance = async () => BigInt((await c('eth_getBalance', [WHALE, 'latest'])).result as string);

describe('dev methods take what anvil’s U256 takes', () => {
  it.each([
    ['1000', 1000n],
    ['1_000_000', 1_000_000n],
    ['0X1f', 31n],
    ['0o17', 15n],
    ['0b101', 5n],
    [(2n ** 256n - 1n).toString(), 2n ** 256n - 1n],
  ])('anvil_setBalance %s', async (text, wei) => {
    const { error, result } = await c('anvil_setBalance', [WHALE, text]);
    expect([error, result]).toEqual([undefined, null]);
    expect(await balance()).toBe(wei);
  });

  it('hardhat_mine "2" and hardhat_setNonce "7"', async () => {
    const height = BigInt((await c('eth_blockNumber', [])).result as string);
    expect((await c('hardhat_mine', ['2', '1'])).result).toBe(true);
    expect(BigInt((await c('eth_blockNumber', [])).result as string)).toBe(height + 2n);
    expect((await c('hardhat_setNonce', [WHALE, '7'])).result).toBe(true);
    expect((await c('eth_getTransactionCount', [WHALE, 'latest'])).result).toBe('0x7');
  });

  // A digit outside its base fails the document's pattern; a value past 2^256 - 1, ruint's range, in its words.
  it.each([
    ['12a', /^Invalid params: \/balance must match pattern/],
    ['0o8', /^Invalid params: \/balance must match pattern/],
    [(2n ** 256n).toString(), /^invalid value: string "1157\d+", expected a 32 byte hex string$/],
    [`0x1${'0'.repeat(64)}`, /^invalid value: string "0x10+", expected a 32 byte hex string$/],
  ])('refuses %s and changes nothing', async (text, message) => {
    await c('anvil_setBalance', [WHALE, '0x5']);
    const { error } = await c('anvil_setBalance', [WHALE, text]);
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
    expect(await balance()).toBe(5n);
  });
});

describe('the C-Chain’s own methods keep coreth’s reading', () => {
  it('eth_getBalance at block "5" is refused as hexutil refuses it', async () => {
    expect((await c('eth_getBalance', [WHALE, '5'])).error).toEqual({
      code: -32602,
      message: 'invalid argument 1: hex string without 0x prefix',
    });
  });
});
