/**
 * eth_sendTransaction from an impersonated account (viem's test client, anvil's names) as coreth's SendTransaction
 * sends one from an account it holds (internal/ethapi/api.go): setDefaults fills the nonce, the fees (the oracle's
 * tip, twice the head's base fee on top) and the gas (DoEstimateGas, whose refusal is the send's), under the
 * account's nonce lock; then SubmitTransaction's checkTxFee refuses a fee over RPCTxFeeCap (100 AVAX). A refused send
 * changes nothing.
 */
import { http, type Hex, createPublicClient, createTestClient, createWalletClient, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let contract: Hex;
const WHALE: Hex = '0x00000000000000000000000000000000000a11ce';
const TO: Hex = '0x00000000000000000000000000000000000000b0';

const rpc = () => `${node.url}/ext/bc/C/rpc`;
const pub = () => createPublicClient({ transport: http(rpc()), cacheTime: 0 });
const whale = () => createWalletClient({ transport: http(rpc()), account: WHALE });

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { wallet, pub: reader } = cClients(node.url);
  const hash = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await reader.waitForTransactionReceipt({ hash })).contractAddress as Hex;
  const test = createTestClient({ mode: 'anvil', transport: http(rpc()) });
  await test.impersonateAccount({ address: WHALE });
  await test.setBalance({ address: WHALE, value: 10n ** 24n });
});
afterAll(() => node?.close());

async function unchanged<T>(send: () => Promise<T>) {
  const [nonce, balance, height] = await Promise.all([
    pub().getTransactionCount({ address: WHALE }),
    pub().getBalance({ address: WHALE }),
    pub().getBlockNumber(),
  ]);
  const error = await send().then(
    () => undefined,
    (e: Error) => e,
  );
  expect(await pub().getTransactionCount({ address: WHALE })).toBe(nonce);
  expect(await pub().getBalance({ address: WHALE })).toBe(balance);
  expect(await pub().getBlockNumber()).toBe(height);
  return error;
}

describe('eth_sendTransaction from an impersonated account', () => {
  it('refuses a fee over the 100 AVAX RPCTxFeeCap, as SubmitTransaction does', async () => {
    const error = await unchanged(() =>
      whale().sendTransaction({
        chain: null,
        to: TO,
        gas: 21_000n,
        maxFeePerGas: 10n ** 16n,
        maxPriorityFeePerGas: 1n,
      }),
    );
    expect(error?.message).toContain('tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
    const legacy = await unchanged(() =>
      whale().sendTransaction({ chain: null, to: TO, gas: 21_000n, gasPrice: 5n * 10n ** 15n }),
    );
    expect(legacy?.message).toContain('tx fee (105.00 ether) exceeds the configured cap (100.00 ether)');
  });

  it('refuses a filled gas whose fee passes the cap', async () => {
    // 21,000 gas estimated, at a fee cap of 0.01 AVAX: 210 AVAX.
    const error = await unchanged(() =>
      whale().sendTransaction({ chain: null, to: TO, maxFeePerGas: 10n ** 16n, maxPriorityFeePerGas: 1n }),
    );
    expect(error?.message).toContain('tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
  });

  it("refuses a call that reverts at setDefaults' estimate, mining nothing", async () => {
    // The contract reverts on a call without a selector it knows.
    const error = await unchanged(() => whale().sendTransaction({ chain: null, to: contract, data: '0xdeadbeef' }));
    expect(error?.message).toContain('execution reverted');
  });

  it("fills coreth's defaults: the estimate's gas, the oracle's tip, twice the head's base fee on top", async () => {
    const data = encodeFunctionData({ abi: ABI, functionName: 'set', args: [5n] });
    const [gas, tip, head] = await Promise.all([
      pub().estimateGas({ account: WHALE, to: contract, data }),
      pub().estimateMaxPriorityFeePerGas(),
      pub().getBlock(),
    ]);
    const hash = await whale().sendTransaction({ chain: null, to: contract, data });
    const tx = await pub().getTransaction({ hash });
    expect(tx.type).toBe('eip1559');
    expect(tx.gas).toBe(gas);
    expect(tx.maxPriorityFeePerGas).toBe(tip);
    expect(tx.maxFeePerGas).toBe(tip + 2n * (head.baseFeePerGas as bigint));
    expect((await pub().getTransactionReceipt({ hash })).status).toBe('success');
  });

  it('gives sends without a nonce one after the other (the nonce lock), all mined', async () => {
    const nonce = await pub().getTransactionCount({ address: WHALE });
    const hashes = await Promise.all(
      [1n, 2n, 3n].map((value) => whale().sendTransaction({ chain: null, to: TO, value })),
    );
    const txs = await Promise.all(hashes.map((hash) => pub().getTransactionReceipt({ hash })));
    expect(txs.map((tx) => tx.status)).toEqual(['success', 'success', 'success']);
    expect(await pub().getTransactionCount({ address: WHALE })).toBe(nonce + 3);
  });

  it('sends a legacy transaction when given a gas price, an access-list one with a list', async () => {
    const legacy = await whale().sendTransaction({ chain: null, to: TO, gasPrice: 10n ** 9n });
    expect((await pub().getTransaction({ hash: legacy })).type).toBe('legacy');
    const listed = await whale().sendTransaction({
      chain: null,
      to: TO,
      gasPrice: 10n ** 9n,
      accessList: [{ address: TO, storageKeys: [] }],
    });
    expect((await pub().getTransaction({ hash: listed })).type).toBe('eip2930');
  });
});
