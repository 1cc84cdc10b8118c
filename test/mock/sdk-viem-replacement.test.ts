/**
 * A wallet's "speed up": the same nonce sent again with higher fees while the first is pooled. coreth's pool
 * (core/txpool/legacypool list.Add, PriceBump 10) takes it when both caps are above the old ones and at least the old
 * ones × 110 / 100, rounded down; on a local C-Chain, whose base fee falls to 1 wei, caps are a few wei, where the
 * rounding decides (19 → 20 is enough). A replacement refused for another reason leaves the pooled one in place.
 */
import { type Hex, TransactionNotFoundError } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

const TO: Hex = '0x000000000000000000000000000000000000dEaD';
let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  // Two blocks bring the base fee down to its minimum (1 wei), where caps of a few wei are valid.
  for (let i = 0; i < 2; i++) await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO }) });
  node.state.dev.setAutomine({ enabled: false });
});
afterAll(() => node?.close());

const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => 'sent',
    (error: { details?: string }) => error.details,
  );

/** The pool's transaction of the ewoq key at `nonce`, by hash: whether it is still there. */
const pooled = async (hash: Hex) => {
  const { pub } = cClients(node.url);
  return pub.getTransaction({ hash }).then(
    (tx) => tx.blockNumber === null,
    (error) => (error instanceof TransactionNotFoundError ? false : Promise.reject(error)),
  );
};

describe('replacing a pooled transaction', () => {
  it('takes fee caps raised by 10% rounded down, and mines the replacement alone', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const send = (value: bigint, maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
      wallet.sendTransaction({ to: TO, value, nonce, gas: 21_000n, maxFeePerGas, maxPriorityFeePerGas });
    const first = await send(1n, 19n, 9n);
    // Each cap must rise: the tip alone, or the fee cap alone, is not enough.
    expect(await refusal(() => send(2n, 20n, 9n))).toBe('replacement transaction underpriced');
    expect(await refusal(() => send(2n, 19n, 10n))).toBe('replacement transaction underpriced');
    // 19 × 110 / 100 = 20 and 9 × 110 / 100 = 9, rounded down: 20 and 10 replace it.
    const second = await send(2n, 20n, 10n);
    expect(await pooled(first)).toBe(false);
    expect(await pooled(second)).toBe(true);
    // 20 × 1.1 = 22: 21 is short.
    expect(await refusal(() => send(3n, 21n, 11n))).toBe('replacement transaction underpriced');
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const block = await pub.getBlock({ includeTransactions: true });
    expect(block.transactions.map((tx) => [tx.hash, tx.value])).toEqual([[second, 2n]]);
  });

  it('takes a legacy price raised by 10% rounded down', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const send = (value: bigint, gasPrice: bigint) =>
      wallet.sendTransaction({ to: TO, value, nonce, gas: 21_000n, gasPrice, type: 'legacy' });
    const first = await send(1n, 19n);
    expect(await refusal(() => send(2n, 19n))).toBe('replacement transaction underpriced');
    const second = await send(2n, 20n);
    expect([await pooled(first), await pooled(second)]).toEqual([false, true]);
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    expect((await pub.getTransactionReceipt({ hash: second })).status).toBe('success');
  });

  it('keeps the pooled one when the replacement is refused for what it spends', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const send = (value: bigint, maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
      wallet.sendTransaction({ to: TO, value, nonce, gas: 21_000n, maxFeePerGas, maxPriorityFeePerGas });
    const first = await send(1n, 19n, 9n);
    const balance = await pub.getBalance({ address: account.address });
    expect(await refusal(() => send(balance, 20n, 10n))).toMatch(/^insufficient funds for gas \* price \+ value/);
    expect(await pooled(first)).toBe(true);
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    expect((await pub.getTransactionReceipt({ hash: first })).status).toBe('success');
  });
});
