/**
 * eth_sendRawTransaction over `/ext/bc/C/rpc` (mock/cchain/evm.ts `sendTransaction`: the deferred requests, the
 * transaction and the latest block go to the engine in one request): a refused transaction answers coreth's txpool
 * error and builds nothing; an accepted one answers its hash, and its block reaches the C/block index at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, indexEnabled: true });
});
afterAll(() => node?.close());

const rpc = () => `${node.url}/ext/bc/C/rpc`;
const TO = '0x00000000000000000000000000000000000000aa';

async function signed(nonce: number, value = 1n): Promise<`0x${string}`> {
  const { account } = cClients(node.url);
  return account.signTransaction({
    chainId: 43112,
    type: 'eip1559',
    to: TO,
    value,
    nonce,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1n,
  });
}

const lastIndexed = async (): Promise<{ index: string; bytes: string }> =>
  (await callRpc(`${node.url}/ext/index/C/block`, 'index.getLastAccepted', { encoding: 'hex' })).result;
const send = async (raw: string) => callRpc<string>(rpc(), 'eth_sendRawTransaction', [raw]);

describe('eth_sendRawTransaction', () => {
  it('answers a refused transaction with coreth’s txpool error, builds no block, then mines the next one sent', async () => {
    const { pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    expect((await send(await signed(nonce))).result).toMatch(/^0x[0-9a-f]{64}$/);
    const height = await pub.getBlockNumber();
    const before = await lastIndexed();

    // The nonce was just used: refused in coreth's words (core/txpool/validation.go ValidateTransactionWithState).
    const refused = await send(await signed(nonce, 2n));
    expect(refused.result).toBeUndefined();
    expect(refused.error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^nonce too low: next nonce \d+, tx nonce \d+$/),
    });
    expect(await pub.getBlockNumber()).toBe(height);
    expect((await lastIndexed()).index).toBe(before.index);

    const raw = await signed(nonce + 1);
    const { result: hash } = await send(raw);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await pub.getTransactionReceipt({ hash: hash as `0x${string}` });
    expect(receipt.blockNumber).toBe(height + 1n);
    const after = await lastIndexed();
    expect(Number(after.index)).toBe(Number(before.index) + 1);
    // The indexed proposervm block wraps coreth's RLP of that block, which holds the signed transaction as sent.
    expect(after.bytes).toContain(raw.slice(2));
  });
});
