/**
 * anvil's and Hardhat's controls of the next block's header at /ext/bc/C/rpc, driven by viem's test client: the base
 * fee (anvil's api.rs anvil_set_next_block_base_fee_per_gas, EDR's hardhat_setNextBlockBaseFeePerGas: the next block
 * only) and the coinbase (anvil_set_coinbase, EDR's hardhat_setCoinbase: every block after). coreth's own rules
 * would refuse such a block (consensus/dummy/consensus.go verifyHeaderGasFields: "expected base fee"; wrapped_block.go
 * syntacticVerify: the coinbase must be BlackholeAddr), so they are dev overrides: the blocks after follow coreth's
 * fee rules again, and a saved state replays them as built.
 */
import { http, type Hex, createTestClient, parseGwei } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpcResult } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

const BLACKHOLE = '0x0100000000000000000000000000000000000000';
const MINER: Hex = '0x00000000000000000000000000000000000c0ffe';
const TO: Hex = '0x00000000000000000000000000000000000000b1';

let node: RunningMockNode;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterEach(() => node?.close());

const c = (method: string, params: unknown[] = []) => rpcResult(`${node.url}/ext/bc/C/rpc`, method, params);
const block = (tag: string) =>
  c('eth_getBlockByNumber', [tag, false]) as Promise<{ hash: string; baseFeePerGas: string; miner: string }>;
const test = (mode: 'anvil' | 'hardhat') => {
  const { chain } = cClients(node.url);
  return createTestClient({ mode, chain, transport: http(`${node.url}/ext/bc/C/rpc`) });
};

describe.each<'anvil' | 'hardhat'>(['anvil', 'hardhat'])('%s_setNextBlockBaseFeePerGas', (mode) => {
  it('gives the next block that base fee, and the block after it coreth’s again', async () => {
    await c('evm_mine');
    const before = (await block('latest')).baseFeePerGas;
    expect(await c(`${mode}_setNextBlockBaseFeePerGas`, ['0x7'])).toBe(mode === 'anvil' ? null : true);
    await c('evm_mine');
    expect((await block('latest')).baseFeePerGas).toBe('0x7');
    await c('evm_mine');
    expect((await block('latest')).baseFeePerGas).toBe(before);
  });

  it('prices the next transaction at the set base fee', async () => {
    await test(mode).setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') });
    const { pub, wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({
      to: TO,
      value: 1n,
      maxFeePerGas: parseGwei('2'),
      maxPriorityFeePerGas: 1n,
    });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.effectiveGasPrice).toBe(parseGwei('1') + 1n);
    expect((await block(`0x${receipt.blockNumber.toString(16)}`)).baseFeePerGas).toBe('0x3b9aca00');
  });
});

describe.each<'anvil' | 'hardhat'>(['anvil', 'hardhat'])('%s_setCoinbase', (mode) => {
  it('makes every later block’s miner the address, which eth_coinbase names and the fees pay', async () => {
    await c('evm_mine');
    expect([(await block('latest')).miner, await c('eth_coinbase')]).toEqual([BLACKHOLE, BLACKHOLE]);
    expect(await c(`${mode}_setCoinbase`, [MINER])).toBe(mode === 'anvil' ? null : true);
    expect(await c('eth_coinbase')).toBe(MINER);
    const { pub, wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, maxPriorityFeePerGas: parseGwei('1') });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    // coreth pays the coinbase the whole fee, base fee included (core/state_transition.go), which the engine burns.
    expect(await pub.getBalance({ address: MINER })).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect((await block('latest')).miner).toBe(MINER);
    await c('evm_mine');
    expect((await block('latest')).miner).toBe(MINER);
    expect(await pub.getBalance({ address: BLACKHOLE })).toBe(0n);
  });
});

describe('a saved state with a set base fee and coinbase', () => {
  it('replays every block as built, and a reset brings back coreth’s coinbase', async () => {
    await c('anvil_setNextBlockBaseFeePerGas', ['0x5']);
    await c('anvil_setCoinbase', [MINER]);
    const { pub, wallet } = cClients(node.url);
    await pub.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: TO, value: 1n, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n }),
    });
    await c('evm_mine');
    const [one, two] = [await block('0x1'), await block('0x2')];
    const paid = await pub.getBalance({ address: MINER });
    const state = await c('anvil_dumpState');
    await c('anvil_reset');
    expect(await c('eth_coinbase')).toBe(BLACKHOLE);
    await c('anvil_loadState', [state]);
    expect([await block('0x1'), await block('0x2')]).toEqual([one, two]);
    expect(await pub.getBalance({ address: MINER })).toBe(paid);
  });
});
