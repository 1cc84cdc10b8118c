/**
 * A "speed up" sent with eth_sendTransaction from an impersonated account (viem's test client, anvil's names) or
 * under auto-impersonation: coreth's pool (core/txpool/legacypool list.Add, PriceBump 10) takes the replacement
 * when both caps are above the old ones and at least the old ones × 110 / 100 rounded down, as for a signed one
 * (./sdk-viem-replacement.test.ts): 19 → 20 is enough, where the engine would ask for 21.
 */
import {
  http,
  type Hex,
  TransactionNotFoundError,
  createPublicClient,
  createTestClient,
  createWalletClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

const TO: Hex = '0x000000000000000000000000000000000000dEaD';
const WHALE: Hex = '0x00000000000000000000000000000000000a11ce';
const ANYONE: Hex = '0x00000000000000000000000000000000000b0b00';
let node: RunningMockNode;

const rpc = () => `${node.url}/ext/bc/C/rpc`;
const pub = () => createPublicClient({ transport: http(rpc()), cacheTime: 0 });
const test = () => createTestClient({ mode: 'anvil', transport: http(rpc()) });
const from = (account: Hex) => createWalletClient({ transport: http(rpc()), account });

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub: reader, wallet } = cClients(node.url);
  // Two blocks bring the base fee down to its minimum (1 wei), where caps of a few wei are valid.
  for (let i = 0; i < 2; i++)
    await reader.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO }) });
  for (const address of [WHALE, ANYONE]) await test().setBalance({ address, value: 10n ** 21n });
  await test().impersonateAccount({ address: WHALE });
  await test().setAutomine(false);
});
afterAll(() => node?.close());

const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => 'sent',
    (error: { details?: string }) => error.details,
  );

const pooled = (hash: Hex) =>
  pub()
    .getTransaction({ hash })
    .then(
      (tx) => tx.blockNumber === null,
      (error) => (error instanceof TransactionNotFoundError ? false : Promise.reject(error)),
    );

async function speedsUp(account: Hex) {
  const nonce = await pub().getTransactionCount({ address: account });
  const send = (value: bigint, maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
    from(account).sendTransaction({
      chain: null,
      to: TO,
      value,
      nonce,
      gas: 21_000n,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
  const first = await send(1n, 19n, 9n);
  expect(await refusal(() => send(2n, 20n, 9n))).toBe('replacement transaction underpriced');
  expect(await refusal(() => send(2n, 19n, 10n))).toBe('replacement transaction underpriced');
  const second = await send(2n, 20n, 10n);
  expect([await pooled(first), await pooled(second)]).toEqual([false, true]);
  expect(await refusal(() => send(3n, 21n, 11n))).toBe('replacement transaction underpriced');
  // Refused for what it spends: the pooled one stays, and is mined.
  const balance = await pub().getBalance({ address: account });
  expect(await refusal(() => send(balance, 22n, 11n))).toMatch(/^insufficient funds for gas \* price \+ value/);
  expect(await pooled(second)).toBe(true);
  await test().mine({ blocks: 1 });
  const block = await pub().getBlock({ includeTransactions: true });
  expect(block.transactions.map((tx) => [tx.hash, tx.from.toLowerCase(), tx.value])).toEqual([[second, account, 2n]]);
}

describe('replacing a pooled transaction sent with eth_sendTransaction', () => {
  it('takes fee caps raised by 10% rounded down from an impersonated account', () => speedsUp(WHALE));

  it('takes them under auto-impersonation', async () => {
    await createTestClient({ mode: 'anvil', transport: http(rpc()) }).request({
      method: 'anvil_autoImpersonateAccount' as never,
      params: [true] as never,
    });
    await speedsUp(ANYONE);
  });

  it('takes a legacy price raised by 10% rounded down', async () => {
    const nonce = await pub().getTransactionCount({ address: WHALE });
    const send = (value: bigint, gasPrice: bigint) =>
      from(WHALE).sendTransaction({ chain: null, to: TO, value, nonce, gas: 21_000n, gasPrice });
    const first = await send(1n, 19n);
    expect(await refusal(() => send(2n, 19n))).toBe('replacement transaction underpriced');
    const second = await send(2n, 20n);
    expect([await pooled(first), await pooled(second)]).toEqual([false, true]);
    await test().mine({ blocks: 1 });
    expect((await pub().getTransactionReceipt({ hash: second })).status).toBe('success');
  });

  it("is what viem's waitForTransactionReceipt reports for the first hash: repriced", async () => {
    const nonce = await pub().getTransactionCount({ address: WHALE });
    const send = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
      from(WHALE).sendTransaction({
        chain: null,
        to: TO,
        value: 1n,
        nonce,
        gas: 21_000n,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
    const first = await send(19n, 9n);
    // viem reads the pending transaction on its first block, then, when its hash never gets a receipt, looks in each
    // new block for the sender's transaction of that nonce: the replacement is sent once it has read the first.
    let readFirst: () => void = () => undefined;
    const firstRead = new Promise<void>((resolve) => (readFirst = resolve));
    const transport = http(rpc(), {
      onFetchResponse: async (response) => {
        if ((await response.clone().text()).includes(`"hash":"${first}"`)) readFirst();
      },
    });
    const watcher = createPublicClient({ transport, cacheTime: 0, pollingInterval: 20 });
    let replaced: { reason: string; hash: Hex } | undefined;
    const waited = watcher.waitForTransactionReceipt({
      hash: first,
      onReplaced: ({ reason, transaction }) => {
        replaced = { reason, hash: transaction.hash };
      },
    });
    await firstRead;
    const second = await send(20n, 10n);
    await test().mine({ blocks: 1 });
    const receipt = await waited;
    expect(receipt.transactionHash).toBe(second);
    expect(replaced).toEqual({ reason: 'repriced', hash: second });
  });

  it('replaces a signed pooled transaction by an impersonated send of its sender', async () => {
    const { wallet, account } = cClients(node.url);
    const nonce = await pub().getTransactionCount({ address: account.address });
    const first = await wallet.sendTransaction({
      to: TO,
      value: 1n,
      nonce,
      gas: 21_000n,
      maxFeePerGas: 19n,
      maxPriorityFeePerGas: 9n,
    });
    await test().impersonateAccount({ address: account.address });
    const second = await from(account.address).sendTransaction({
      chain: null,
      to: TO,
      value: 2n,
      nonce,
      gas: 21_000n,
      maxFeePerGas: 20n,
      maxPriorityFeePerGas: 10n,
    });
    expect([await pooled(first), await pooled(second)]).toEqual([false, true]);
    await test().mine({ blocks: 1 });
    expect((await pub().getTransactionReceipt({ hash: second })).status).toBe('success');
  });
});
