/**
 * rpc.BlockNumberOrHash's object form as coreth v1.14.2 reads it (graft/evm/rpc/types.go UnmarshalJSON): a tag in
 * `blockNumber` as the bare tag, keys in any case (encoding/json), requireCanonical never read (eth/api_backend.go
 * *ByNumberOrHash), an object naming neither refused in the backend's words; and HeaderByNumber's accepted tags
 * (accepted, safe, finalized) as the last accepted block, for every state read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const call = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TO = '0x00000000000000000000000000000000000000b7';

describe('a block named by an object', () => {
  it('reads a tag in blockNumber, in any key case, as the bare tag, with a transaction pending', async () => {
    const { wallet, account } = cClients(node.url);
    expect((await call('evm_setAutomine', [false])).error).toBeUndefined();
    try {
      await wallet.sendTransaction({ to: TO, value: 8n });
      for (const tag of ['pending', 'latest', 'accepted', 'safe', 'finalized', 'earliest']) {
        const bare = await call('eth_getBalance', [TO, tag]);
        expect(bare).toEqual({ result: '0x0' });
        for (const key of ['blockNumber', 'BlockNumber', 'BLOCKNUMBER'])
          expect(await call('eth_getBalance', [TO, { [key]: tag }])).toEqual(bare);
        const nonce = await call('eth_getTransactionCount', [account.address, tag]);
        expect(nonce.error).toBeUndefined();
        expect(await call('eth_getTransactionCount', [account.address, { blockNumber: tag }])).toEqual(nonce);
        expect(await call('eth_getCode', [TO, { blockNumber: tag }])).toEqual({ result: '0x' });
        const stored = await call('eth_getStorageAt', [TO, '0x0', { blockNumber: tag }]);
        expect(stored).toEqual({ result: `0x${'0'.repeat(64)}` });
        expect(await call('eth_call', [{ to: TO }, { blockNumber: tag }])).toEqual({ result: '0x' });
        expect(await call('eth_estimateGas', [{ to: TO }, { blockNumber: tag }])).toEqual({ result: '0x5208' });
      }
      // GetTransactionCount's pending is the pool's nonce, in either form.
      const pending = await call('eth_getTransactionCount', [account.address, { blockNumber: 'pending' }]);
      const latest = await call('eth_getTransactionCount', [account.address, { blockNumber: 'latest' }]);
      expect(BigInt(pending.result)).toBe(BigInt(latest.result) + 1n);
    } finally {
      await call('evm_setAutomine', [true]);
      await call('evm_mine', []);
    }
  });

  it('reads blockHash in any key case, requireCanonical either way; refuses an object naming neither', async () => {
    const { hash } = (await call('eth_getBlockByNumber', ['latest', false])).result as { hash: string };
    const balance = await call('eth_getBalance', [TO, 'latest']);
    for (const at of [
      { BLOCKHASH: hash, requireCanonical: true },
      { blockHash: hash, RequireCanonical: false },
    ])
      expect(await call('eth_getBalance', [TO, at])).toEqual(balance);
    expect((await call('eth_getBlockReceipts', [{ blockNumber: 'latest' }])).result).toEqual(
      (await call('eth_getBlockReceipts', ['latest'])).result,
    );
    for (const at of [{}, { blockNumber: null }, { requireCanonical: true }])
      expect(await call('eth_getBalance', [TO, at])).toEqual({
        error: { code: -32000, message: 'invalid arguments; neither block nor hash specified' },
      });
  });
});
