/**
 * eth_getBlockReceipts, which coreth serves and the engine does not: viem's getBlockReceipts of a block of two
 * transactions, by number, hash and tag, agrees with eth_getTransactionReceipt of each; a block the chain does not have
 * is null; bad params get geth's texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

async function raw(params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(`${node.url}/ext/bc/C/rpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params }),
  });
  return response.json();
}

describe('eth_getBlockReceipts', () => {
  it("answers a block's receipts as eth_getTransactionReceipt does, in order", async () => {
    const { pub, wallet } = cClients(node.url);
    node.state.dev.setAutomine({ enabled: false });
    const nonce = await pub.getTransactionCount({ address: wallet.account.address });
    const hashes = [
      await wallet.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: 1n, nonce }),
      await wallet.sendTransaction({ data: '0x602a60005500', nonce: nonce + 1 }),
    ];
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    node.state.dev.setAutomine({ enabled: true });
    const each = await Promise.all(hashes.map((hash) => pub.getTransactionReceipt({ hash })));
    expect(each[0]!.blockNumber).toBe(each[1]!.blockNumber);
    const block = await pub.getBlock({ blockNumber: each[0]!.blockNumber });

    expect(await pub.getBlockReceipts({ blockNumber: block.number })).toEqual(each);
    expect(await pub.getBlockReceipts({ blockHash: block.hash })).toEqual(each);
    expect(await pub.getBlockReceipts({ blockTag: 'latest' })).toEqual(each);
    expect((await raw([{ blockHash: block.hash }])).result).toEqual((await raw([block.hash])).result);
    expect((await raw(['earliest'])).result).toEqual([]);
  });

  it('answers null for a block the chain does not have', async () => {
    expect(await raw(['0xffffff'])).toMatchObject({ result: null });
    expect(await raw([`0x${'ab'.repeat(32)}`])).toMatchObject({ result: null });
  });

  it("refuses bad params with geth's texts", async () => {
    expect((await raw(['0xzz'])).error).toEqual({ code: -32602, message: 'invalid argument 0: invalid hex string' });
    expect((await raw([])).error).toEqual({ code: -32602, message: 'missing value for required argument 0' });
    expect((await raw(['latest', true])).error).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 1',
    });
  });
});
