/**
 * A typed transaction read back from a v1.14.2 C-Chain carries `yParity`: coreth's newRPCTransaction
 * (graft/coreth/internal/ethapi/api.go) sets `result.YParity = v.Sign()` for access-list (type 1), dynamic-fee
 * (type 2) and blob transactions, beside `v`, `r`, `s` (`json:"yParity,omitempty"`); a legacy one has none.
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const TO = '0x00000000000000000000000000000000000000f2';

interface RawTx {
  hash: string;
  type: string;
  v: string;
  yParity?: string;
}

async function sent(type: 'eip1559' | 'eip2930' | 'legacy') {
  const { pub, wallet } = cClients(node.url);
  const hash =
    type === 'eip1559'
      ? await wallet.sendTransaction({ to: TO, value: parseEther('0.1') })
      : await wallet.sendTransaction({ to: TO, value: parseEther('0.1'), type, gasPrice: 30_000_000_000n });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  const byHash = (await pub.request({ method: 'eth_getTransactionByHash', params: [hash] })) as unknown as RawTx;
  const block = (await pub.request({
    method: 'eth_getBlockByNumber',
    params: [`0x${receipt.blockNumber.toString(16)}`, true],
  })) as unknown as { transactions: RawTx[] };
  return { byHash, inBlock: block.transactions.find((tx) => tx.hash === hash) };
}

describe('yParity of transactions read back', () => {
  for (const type of ['eip1559', 'eip2930'] as const)
    it(`${type}: eth_getTransactionByHash and the full block carry yParity equal to v`, async () => {
      const { byHash, inBlock } = await sent(type);
      expect(['0x0', '0x1']).toContain(byHash.v);
      expect(byHash.yParity).toBe(byHash.v);
      expect(inBlock?.yParity).toBe(byHash.v);
    });

  it('legacy: no yParity', async () => {
    const { byHash, inBlock } = await sent('legacy');
    expect(byHash.type).toBe('0x0');
    expect('yParity' in byHash).toBe(false);
    expect(inBlock && 'yParity' in inBlock).toBe(false);
  });
});
