/**
 * eth_getBlockReceipts, which coreth serves and the engine does not: viem's getBlockReceipts of a block of two
 * transactions, by number, hash and tag, agrees with eth_getTransactionReceipt of each; a block the chain does not have
 * is null, as is one of a fork source's that is not this chain's (coreth's lookups by hash are canonical-only, whatever
 * EIP-1898's `requireCanonical` says); bad params get geth's texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { startMockNode as startPackagedNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const raw = (params: unknown, url = node.url) => callRpc(`${url}/ext/bc/C/rpc`, 'eth_getBlockReceipts', params);

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
    for (const requireCanonical of [true, false])
      expect((await raw([{ blockHash: block.hash, requireCanonical }])).result, `${requireCanonical}`).toEqual(
        (await raw([block.hash])).result,
      );
    expect((await raw([{ blockNumber: '0x0', requireCanonical: true }])).result).toEqual([]);
  });

  it('answers null for a block the chain does not have', async () => {
    expect(await raw(['0xffffff'])).toMatchObject({ result: null });
    expect(await raw([`0x${'ab'.repeat(32)}`])).toMatchObject({ result: null });
    expect(await raw([{ blockHash: `0x${'ab'.repeat(32)}`, requireCanonical: true }])).toMatchObject({ result: null });
    // BlockByNumberOrHash's "neither block nor hash specified", which GetBlockReceipts answers as null.
    expect(await raw([{}])).toMatchObject({ result: null });
    expect(await raw([{ requireCanonical: true }])).toMatchObject({ result: null });
  });

  it("answers null for a fork source's block above the fork point, whose hash is not this chain's", async () => {
    const source = await startPackagedNode({ accounts: 2, seed: 'receipts source' });
    const fork = await startPackagedNode({
      accounts: 1,
      seed: 'receipts fork',
      fork: { url: source.url, cacheDir: false },
    });
    try {
      // The fork's engine starts at its first call, from the source's tip then.
      const forkRpc = (method: string, params: unknown[]) => callRpc(`${fork.url}/ext/bc/C/rpc`, method, params);
      const forkPoint = (await forkRpc('eth_blockNumber', [])).result;
      const sent = await source.wallet(1).send('C', `0x${'5a'.repeat(20)}`, 1_000n);
      const { result } = await callRpc(`${source.url}/ext/bc/C/rpc`, 'eth_getTransactionReceipt', [sent]);
      const { blockHash, blockNumber } = result as { blockHash: string; blockNumber: string };
      expect(BigInt(blockNumber)).toBeGreaterThan(BigInt(forkPoint as string));
      expect((await raw([blockHash], source.url)).result).toHaveLength(1);
      const notOurs = async () => {
        for (const params of [[blockHash], [{ blockHash }], [{ blockHash, requireCanonical: true }]])
          expect(await raw(params, fork.url), JSON.stringify(params)).toMatchObject({ result: null });
        expect((await forkRpc('eth_getBlockByHash', [blockHash, false])).result).toBeNull();
        expect((await forkRpc('eth_getHeaderByHash', [blockHash])).result).toBeNull();
      };
      await notOurs();
      // Once the fork has a block of its own at that height, the source's is a side block there.
      await fork.wallet(0).send('C', `0x${'6b'.repeat(20)}`, 1_000n);
      const own = (await forkRpc('eth_getBlockByNumber', [blockNumber, false])).result as { hash: string };
      expect(own.hash).not.toBe(blockHash);
      expect((await raw([{ blockHash: own.hash, requireCanonical: true }], fork.url)).result).toHaveLength(1);
      await notOurs();
    } finally {
      await fork.close();
      await source.close();
    }
  });

  it("refuses bad params with geth's texts", async () => {
    expect((await raw(['0xzz'])).error).toEqual({ code: -32602, message: 'invalid argument 0: invalid hex string' });
    expect((await raw([])).error).toEqual({ code: -32602, message: 'missing value for required argument 0' });
    // rpc.BlockNumberOrHash decodes an object as the struct, then as a string: a flag not a bool fails both.
    expect((await raw([{ blockNumber: '0x0', requireCanonical: 'yes' }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal object into Go value of type string',
    });
    expect((await raw([{ blockNumber: '0x0', blockHash: `0x${'ab'.repeat(32)}` }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: cannot specify both BlockHash and BlockNumber, choose one or the other',
    });
    expect((await raw(['latest', true])).error).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 1',
    });
  });
});
