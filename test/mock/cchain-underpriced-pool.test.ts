/**
 * A transaction whose fee cap is below the next block's base fee, sent while automining: coreth's pool takes it, its
 * only fee floor being the pool's minimum fee, acp176.MinGasPrice = 1 wei (plugin/evm/vm.go SetMinFee;
 * core/txpool/validation.go: "gas fee cap (…) < pool minimum fee cap"), and its miner leaves it out of every block
 * whose base fee is above its cap. Hardhat's EDR refuses it while automining ("Transaction maxFeePerGas (5) is too
 * low for the next block, …") and holds it in its pool while not, which the mock uses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterEach(() => node?.close());

const c = (method: string, params: unknown[] = []) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const latest = async () =>
  (await c('eth_getBlockByNumber', ['latest', false])).result as { transactions: string[]; baseFeePerGas: string };

describe('a fee cap below a risen base fee, automining', () => {
  it('is pooled as coreth pools it, and mined once a block’s base fee is at most its cap', async () => {
    // 100 gwei for the next block; the ones after it are at coreth's base fee again (1 wei on a new local chain).
    await c('anvil_setNextBlockBaseFeePerGas', ['0x174876e800']);
    const { wallet } = cClients(node.url);
    const request = await wallet.prepareTransactionRequest({
      to: '0x00000000000000000000000000000000000000b1',
      value: 1n,
      maxFeePerGas: 5n,
      maxPriorityFeePerGas: 1n,
      gas: 21_000n,
    });
    const sent = await c('eth_sendRawTransaction', [await wallet.signTransaction(request)]);
    expect(sent.error).toBeUndefined();
    const hash = sent.result as string;
    expect((await c('eth_getTransactionByHash', [hash])).result).toMatchObject({ hash, blockNumber: null });
    await c('evm_mine');
    expect(await latest()).toMatchObject({ baseFeePerGas: '0x174876e800', transactions: [] });
    await c('evm_mine');
    expect((await latest()).transactions).toEqual([hash]);
    expect((await c('eth_getTransactionReceipt', [hash])).result).toMatchObject({ status: '0x1' });
  });
});
