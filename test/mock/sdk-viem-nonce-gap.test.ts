/**
 * Transactions of one account arriving out of nonce order, as from a wallet that signs a batch and sends it
 * concurrently. coreth's txpool takes a transaction whose nonce leaves a gap and queues it (legacypool.go:709,
 * `FirstNonceGap: nil // Pool allows arbitrary arrival order`): eth_sendRawTransaction answers its hash, and it is
 * mined once the gap is filled.
 *
 * The mock hands a gapped transaction to the engine with automining paused, which queues it and mines it once the
 * gap fills (mock/cchain/evm.ts `sendTransaction`, mock/cchain/nonce-queue.ts; more in cchain-nonce-queue.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const TO = '0x00000000000000000000000000000000000000aa';

describe('a nonce gap', () => {
  it('is queued, as coreth queues it, and mined once the gap is filled', async () => {
    const { pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const sign = (n: number) =>
      account.signTransaction({
        chainId: 43112,
        type: 'eip1559',
        to: TO,
        value: 1n,
        nonce: n,
        gas: 21_000n,
        maxFeePerGas: 100_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
    const later = await pub.sendRawTransaction({ serializedTransaction: await sign(nonce + 1) });
    const first = await pub.sendRawTransaction({ serializedTransaction: await sign(nonce) });
    for (const hash of [first, later])
      expect((await pub.waitForTransactionReceipt({ hash, timeout: 30_000 })).status).toBe('success');
    expect(await pub.getTransactionCount({ address: account.address })).toBe(nonce + 2);
  });
});
