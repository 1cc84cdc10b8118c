/**
 * A heavy read through viem, as a multicall is: coreth runs eth_call without `gas` at its RPC gas cap, 50,000,000
 * (TransactionArgs.ToMessage, plugin/evm/config/default_config.go:41), well above a C-Chain block's gas limit, and
 * caps a larger `gas` to it. A call whose calldata alone costs more than a block's gas is answered, not refused; one
 * that cannot start is refused in DoCall's words.
 */
import { type Hex, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const DEAD = '0x000000000000000000000000000000000000dEaD';
/** 700,000 non-zero bytes: 11,221,000 gas of intrinsic cost, past the block's gas limit, under the cap. */
const HEAVY: Hex = `0x${'5b'.repeat(700_000)}`;
/**
 * Init code that answers the gas left (GAS, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN), run as a creation in
 * eth_call: what it answers is the call's gas less the creation's intrinsic cost and the few opcodes before GAS.
 */
const GAS_LEFT: Hex = '0x5a60005260206000f3';

describe('eth_call’s gas', () => {
  it('runs a call without gas at coreth’s cap, past the block’s gas limit', async () => {
    const { pub } = cClients(node.url);
    // The genesis block has its own gas limit; the chain's blocks after it have the rules'.
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const block = await pub.getBlock();
    expect(block.gasLimit).toBeLessThan(11_221_000n);
    expect((await pub.call({ to: DEAD, data: HEAVY })).data).toBeUndefined();
    const left = BigInt((await pub.call({ data: GAS_LEFT })).data!);
    expect(left).toBeGreaterThan(49_000_000n);
    expect(left).toBeLessThan(50_000_000n);
  });

  it('caps a larger gas to the cap, and keeps a smaller one', async () => {
    const url = `${node.url}/ext/bc/C/rpc`;
    const left = async (gas: bigint) =>
      BigInt((await callRpc(url, 'eth_call', [{ data: GAS_LEFT, gas: toHex(gas) }, 'latest'])).result);
    const capped = await left(80_000_000n);
    expect(capped).toBe(BigInt((await callRpc(url, 'eth_call', [{ data: GAS_LEFT }, 'latest'])).result));
    expect(capped).toBeLessThan(50_000_000n);
    expect(50_000_000n - capped).toBe(1_000_000n - (await left(1_000_000n)));
  });

  it('refuses a call that cannot start in DoCall’s words: too little gas, init code over the limit', async () => {
    const url = `${node.url}/ext/bc/C/rpc`;
    expect((await callRpc(url, 'eth_call', [{ to: DEAD, gas: '0x4e20' }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'err: intrinsic gas too low: have 20000, want 21000 (supplied gas 20000)',
    });
    const initCode = `0x${'00'.repeat(49_153)}`;
    expect((await callRpc(url, 'eth_call', [{ data: initCode }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'err: max initcode size exceeded: code size 49153 limit 49152 (supplied gas 50000000)',
    });
  });
});
