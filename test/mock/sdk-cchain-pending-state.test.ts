/**
 * State reads at `pending` while the pool holds a transaction (automine off), as viem sends them. coreth has no
 * pending block: StateAndHeaderByNumberOrHash reads `pending` through HeaderByNumber, which answers the last accepted
 * block for every accepted tag (graft/coreth/eth/api_backend.go), so eth_getBalance, eth_getCode, eth_getStorageAt and
 * eth_getProof at `pending` read the last accepted state; eth_getTransactionCount at `pending` alone asks the pool
 * (internal/ethapi/api.go GetTransactionCount: GetPoolNonce).
 */
import { http, type Hex, createTestClient, encodeFunctionData, getContractAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let contract: Hex;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  const hash = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await pub.waitForTransactionReceipt({ hash })).contractAddress as Hex;
});
afterAll(() => node?.close());

const TO: Hex = '0x00000000000000000000000000000000000000b0';

describe('state reads at pending with a pooled transaction', () => {
  it('read the last accepted state; the pending nonce counts the pool', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const test = createTestClient({ mode: 'anvil', transport: http(`${node.url}/ext/bc/C/rpc`) });
    await test.setAutomine(false);
    try {
      const nonce = await pub.getTransactionCount({ address: account.address });
      await wallet.sendTransaction({ to: TO, value: 5n });
      await wallet.sendTransaction({
        to: contract,
        data: encodeFunctionData({ abi: ABI, functionName: 'set', args: [9n] }),
        nonce: nonce + 1,
      });
      await wallet.deployContract({ abi: ABI, bytecode: BYTECODE, nonce: nonce + 2 });
      for (const address of [TO, account.address])
        expect(await pub.getBalance({ address, blockTag: 'pending' })).toBe(await pub.getBalance({ address }));
      expect(await pub.getStorageAt({ address: contract, slot: '0x0', blockTag: 'pending' })).toBe(
        await pub.getStorageAt({ address: contract, slot: '0x0' }),
      );
      const future = getContractAddress({ from: account.address, nonce: BigInt(nonce + 2) });
      expect(await pub.getCode({ address: future, blockTag: 'pending' })).toBeUndefined();
      const proof = await pub.getProof({ address: TO, storageKeys: [], blockTag: 'pending' });
      expect(proof.balance).toBe(await pub.getBalance({ address: TO }));
      expect(await pub.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(nonce + 3);
      expect(await pub.getTransactionCount({ address: account.address })).toBe(nonce);
    } finally {
      await test.setAutomine(true);
      await test.mine({ blocks: 1 });
    }
    expect(await pub.getBalance({ address: TO })).toBe(5n);
  });

  it("eth_call at pending and eth_estimateGas run on the last accepted state, the pool's transactions left out", async () => {
    const { pub, wallet, account } = cClients(node.url);
    const test = createTestClient({ mode: 'anvil', transport: http(`${node.url}/ext/bc/C/rpc`) });
    await pub.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [7n] }),
    });
    const setSeven = encodeFunctionData({ abi: ABI, functionName: 'set', args: [7n] });
    // Storing the value the slot holds costs less than changing it: the estimate tells which state it ran on.
    const unchanged = await pub.estimateGas({ account: account.address, to: contract, data: setSeven });
    await test.setAutomine(false);
    try {
      await wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [9n], gas: 100_000n });
      const read = (blockTag: 'pending' | 'latest') =>
        pub.readContract({ address: contract, abi: ABI, functionName: 'get', blockTag });
      expect(await read('pending')).toBe(7n);
      expect(await read('latest')).toBe(7n);
      expect(await pub.estimateGas({ account: account.address, to: contract, data: setSeven })).toBe(unchanged);
      // A call paying a fee (priced at the pending block's base fee) too.
      const priced = await pub.call({
        account: account.address,
        to: contract,
        data: encodeFunctionData({ abi: ABI, functionName: 'get' }),
        blockTag: 'pending',
        maxFeePerGas: 10n ** 12n,
        maxPriorityFeePerGas: 1n,
      });
      expect(BigInt(priced.data ?? '0x')).toBe(7n);
    } finally {
      await test.setAutomine(true);
      await test.mine({ blocks: 1 });
    }
    // The pool was kept: its transaction is mined.
    expect(await pub.readContract({ address: contract, abi: ABI, functionName: 'get' })).toBe(9n);
  });
});
