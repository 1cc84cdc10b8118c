/**
 * A C-Chain block's coinbase and uncles as coreth v1.14.2 has them: every block it builds names its etherbase, the
 * blackhole address plugin/evm/vm.go sets (miner/worker.go header.Coinbase = w.coinbase), which the COINBASE opcode
 * pushes (core/evm.go NewEVMBlockContext: the header's author) and which the fees are paid to; and the uncle reads of
 * internal/ethapi's BlockChainAPI, which find no uncle in any block (mock/cchain/uncles.ts).
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const BLACKHOLE: Hex = '0x0100000000000000000000000000000000000000';
const TO: Hex = '0x00000000000000000000000000000000000000bb';
/** Init code returning COINBASE as one word, run by an eth_call without `to`: `41 6000 52 6020 6000 f3`. */
const RETURNS_COINBASE: Hex = '0x4160005260206000f3';
const UNKNOWN_HASH = `0x${'11'.repeat(32)}`;
const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);

describe('the C-Chain coinbase', () => {
  it('is every built block’s miner, what COINBASE pushes, and the fees’ recipient', async () => {
    const { pub, wallet } = cClients(node.url);
    const before = await pub.getBalance({ address: BLACKHOLE });
    const tip = 2_000_000_000n;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, maxPriorityFeePerGas: tip });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.miner).toBe(BLACKHOLE);
    // The genesis names the genesis file's coinbase, the zero address, as coreth's does.
    expect((await pub.getBlock({ blockNumber: 0n })).miner).toBe(`0x${'0'.repeat(40)}`);
    const { data } = await pub.call({ data: RETURNS_COINBASE });
    expect(`0x${data!.slice(-40)}`).toBe(BLACKHOLE);
    // coreth pays it the whole fee (core/state_transition.go: gas used times the effective gas price), base fee too.
    const paid = (await pub.getBalance({ address: BLACKHOLE })) - before;
    expect(paid).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas! + tip);
    expect((await c('eth_coinbase', [])).result).toBe(BLACKHOLE);
    // The access list leaves out the coinbase the engine loads to pay, the one of the block the call runs on.
    const { account } = cClients(node.url);
    expect((await pub.createAccessList({ account: account.address, to: TO, data: '0x' })).accessList).toEqual([]);
  });

  it('holds each block’s whole fees at that block’s height, automined or mined from the pool', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const paidAt = (blockNumber: bigint) => pub.getBalance({ address: BLACKHOLE, blockNumber });
    const feesOf = async (blockNumber: bigint) => {
      const { transactions } = await pub.getBlock({ blockNumber });
      let fees = 0n;
      for (const hash of transactions) {
        const receipt = await pub.getTransactionReceipt({ hash });
        fees += receipt.gasUsed * receipt.effectiveGasPrice;
      }
      return fees;
    };
    const first = await pub.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: TO, value: 1n, maxPriorityFeePerGas: 3n }),
    });
    await c('evm_setAutomine', [false]);
    const nonce = await pub.getTransactionCount({ address: account.address });
    for (const [i, tip] of [5n, 7n].entries())
      await wallet.sendTransaction({ to: TO, value: 1n, nonce: nonce + i, gas: 21_000n, maxPriorityFeePerGas: tip });
    await c('evm_mine', []);
    await c('evm_mine', []);
    await c('evm_setAutomine', [true]);
    const latest = await pub.getBlockNumber();
    expect((await pub.getBlock({ blockNumber: latest - 1n })).transactions).toHaveLength(2);
    for (let height = first.blockNumber; height <= latest; height++)
      expect(await paidAt(height)).toBe((await paidAt(height - 1n)) + (await feesOf(height)));
  });

  it('pays the fees again when a saved world replays, into the same blocks', async () => {
    const { pub, wallet } = cClients(node.url);
    for (const value of [1n, 2n])
      await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value }) });
    const latest = await pub.getBlock();
    const paid = await pub.getBalance({ address: BLACKHOLE });
    const { state } = node.state.dev.dumpState();
    const second = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
    try {
      await (await second.state.cChain.load()).chain.request('eth_blockNumber');
      second.state.dev.loadState({ state });
      const again = cClients(second.url).pub;
      expect((await again.getBlock()).hash).toBe(latest.hash);
      expect(await again.getBalance({ address: BLACKHOLE })).toBe(paid);
    } finally {
      await second.close();
    }
  });
});

describe('the uncle reads', () => {
  it('count no uncles in a block of the chain, and answer null for none', async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    expect(await c('eth_getUncleCountByBlockNumber', ['0x0'])).toEqual({ result: '0x0' });
    expect(await c('eth_getUncleCountByBlockNumber', ['latest'])).toEqual({ result: '0x0' });
    expect(await c('eth_getUncleCountByBlockHash', [latest.hash])).toEqual({ result: '0x0' });
    expect(await c('eth_getUncleCountByBlockHash', [UNKNOWN_HASH])).toEqual({ result: null });
    const past = `0x${(latest.number + 5n).toString(16)}`;
    expect(await c('eth_getUncleCountByBlockNumber', [past])).toEqual({ result: null });
    // viem's getBlock({ includeTransactions }) reads `uncles`, which agrees.
    expect(latest.uncles).toEqual([]);
  });

  it('find no uncle at any index, and refuse a block past the last accepted one', async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    expect(await c('eth_getUncleByBlockNumberAndIndex', ['0x0', '0x0'])).toEqual({ result: null });
    expect(await c('eth_getUncleByBlockHashAndIndex', [latest.hash, '0x0'])).toEqual({ result: null });
    expect(await c('eth_getUncleByBlockHashAndIndex', [UNKNOWN_HASH, '0x1'])).toEqual({ result: null });
    const past = `0x${(latest.number + 5n).toString(16)}`;
    expect(await c('eth_getUncleByBlockNumberAndIndex', [past, '0x0'])).toEqual({
      error: { code: -32000, message: 'cannot query unfinalized data' },
    });
    // A param the spec refuses is refused as geth refuses it.
    expect((await c('eth_getUncleCountByBlockHash', ['0x12'])).error?.code).toBe(-32602);
    expect(await c('eth_getUncleByBlockNumberAndIndex', ['0x0', 7])).toEqual({
      error: {
        code: -32602,
        message: 'invalid argument 1: json: cannot unmarshal non-string into Go value of type hexutil.Uint',
      },
    });
  });
});
