/**
 * viem's test client end to end, in both its modes (anvil's and Hardhat's method names), as a user reaches for it
 * first: storage edits and Hardhat's refusal of a value of the wrong size (EDR's deserialize_storage_value, -32000),
 * snapshots consumed by their revert, blocks mined at an interval, the clock moved forward, a contract funded and
 * impersonated to send from.
 */
import { http, type Hex, createPublicClient, createTestClient, createWalletClient, pad } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let contract: Hex;
const TO: Hex = '0x00000000000000000000000000000000000000b0';

const rpc = () => `${node.url}/ext/bc/C/rpc`;
const pub = () => createPublicClient({ transport: http(rpc()), cacheTime: 0 });
const testClient = (mode: 'anvil' | 'hardhat') => createTestClient({ mode, transport: http(rpc()) });

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { wallet, pub: reader } = cClients(node.url);
  const hash = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await reader.waitForTransactionReceipt({ hash })).contractAddress as Hex;
});
afterAll(() => node?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: number; details?: string }) => ({ code: error.code, details: error.details }),
  );

describe.each(['anvil', 'hardhat'] as const)("viem's test client in %s mode", (mode) => {
  it('sets a storage slot to a 32-byte value, read by the contract', async () => {
    await testClient(mode).setStorageAt({ address: contract, index: 0, value: pad('0x2a') });
    expect(await pub().readContract({ address: contract, abi: ABI, functionName: 'get' })).toBe(42n);
  });

  it('takes a snapshot that its revert uses up, and forgets the later ones', async () => {
    const test = testClient(mode);
    const first = await test.snapshot();
    const second = await test.snapshot();
    await test.setStorageAt({ address: contract, index: 0, value: pad('0x07') });
    await test.mine({ blocks: 2 });
    const height = await pub().getBlockNumber();
    await test.revert({ id: first });
    expect(await pub().getBlockNumber()).toBe(height - 2n);
    expect(await pub().readContract({ address: contract, abi: ABI, functionName: 'get' })).toBe(42n);
    // evm_revert answers false for a used or forgotten id; viem passes it on without throwing.
    for (const id of [first, second])
      expect(await test.request({ method: 'evm_revert', params: [id] } as never)).toBe(false);
  });

  it('mines blocks an interval apart, and moves the clock forward', async () => {
    const test = testClient(mode);
    const start = await pub().getBlock();
    await test.mine({ blocks: 3, interval: 7 });
    const mined = await Promise.all([1n, 2n, 3n].map((i) => pub().getBlock({ blockNumber: start.number + i })));
    expect(mined[2]!.timestamp - mined[1]!.timestamp).toBe(7n);
    expect(mined[1]!.timestamp - mined[0]!.timestamp).toBe(7n);
    await test.increaseTime({ seconds: 3600 });
    await test.mine({ blocks: 1 });
    expect((await pub().getBlock()).timestamp - mined[2]!.timestamp).toBeGreaterThanOrEqual(3600n);
  });

  it('funds a contract and sends from it while it is impersonated', async () => {
    const test = testClient(mode);
    await test.setBalance({ address: contract, value: 10n ** 20n });
    expect(await pub().getBalance({ address: contract })).toBe(10n ** 20n);
    await test.impersonateAccount({ address: contract });
    const before = await pub().getBalance({ address: TO });
    const wallet = createWalletClient({ transport: http(rpc()), account: contract });
    const hash = await wallet.sendTransaction({ chain: null, to: TO, value: 5n });
    const receipt = await pub().waitForTransactionReceipt({ hash });
    expect([receipt.status, receipt.from]).toEqual(['success', contract.toLowerCase()]);
    expect(await pub().getBalance({ address: TO })).toBe(before + 5n);
    await test.stopImpersonatingAccount({ address: contract });
    const refused = await failure(wallet.sendTransaction({ chain: null, to: TO, value: 5n }));
    expect(refused?.details).toBe('unknown account');
  });
});

describe("anvil's eth_sendUnsignedTransaction (viem's sendUnsignedTransaction)", () => {
  const SENDER: Hex = '0x00000000000000000000000000000000000005e0';

  it('sends from its `from` for that transaction alone, impersonated or not', async () => {
    const test = testClient('anvil');
    await test.setBalance({ address: SENDER, value: 10n ** 20n });
    const hash = await test.sendUnsignedTransaction({ from: SENDER, to: TO, value: 3n });
    const receipt = await pub().waitForTransactionReceipt({ hash });
    expect([receipt.status, receipt.from]).toEqual(['success', SENDER]);
    expect(await pub().getTransactionCount({ address: SENDER })).toBe(1);
    const wallet = createWalletClient({ transport: http(rpc()), account: SENDER });
    expect((await failure(wallet.sendTransaction({ chain: null, to: TO, value: 1n })))?.details).toBe(
      'unknown account',
    );
  });

  it('refuses a transaction without `from` as anvil does (NoSignerAvailable), and one it cannot pay', async () => {
    const request = testClient('anvil').request as (args: unknown) => Promise<unknown>;
    expect(await failure(request({ method: 'eth_sendUnsignedTransaction', params: [{ to: TO }] }))).toEqual({
      code: -32602,
      details: 'No Signer available',
    });
    const poor: Hex = '0x00000000000000000000000000000000000005e1';
    const refused = await failure(testClient('anvil').sendUnsignedTransaction({ from: poor, to: TO, value: 1n }));
    // setDefaults' estimate refuses it first, as it refuses eth_sendTransaction's (./sdk-cchain-impersonated-send).
    expect(refused?.details).toBe('insufficient funds for transfer');
    expect(await pub().getTransactionCount({ address: poor })).toBe(0);
  });

  it('is no method of a node without dev controls', async () => {
    const bare = await startMockNode({ port: 0, devControls: false, world: { network: 'local', accounts: 0 } });
    try {
      const test = createTestClient({ mode: 'anvil', transport: http(`${bare.url}/ext/bc/C/rpc`) });
      expect(await failure(test.sendUnsignedTransaction({ from: SENDER, to: TO, value: 1n }))).toEqual({
        code: -32601,
        details: 'the method eth_sendUnsignedTransaction does not exist/is not available',
      });
    } finally {
      await bare.close();
    }
  });
});

describe("Hardhat's storage refusals", () => {
  it('refuses a value of other than 32 bytes, and a slot past 2^256, changing nothing', async () => {
    const test = testClient('hardhat');
    const before = await pub().getStorageAt({ address: contract, slot: '0x0' });
    expect(await failure(test.setStorageAt({ address: contract, index: 0, value: '0x01' }))).toEqual({
      code: -32000,
      details: 'Storage value must be exactly 32 bytes long. Received 0x01, which is 1 bytes long.',
    });
    const long = `0x${'ff'.repeat(33)}` as Hex;
    expect(await failure(test.setStorageAt({ address: contract, index: 0, value: long }))).toEqual({
      code: -32000,
      details: `Storage value must be exactly 32 bytes long. Received ${long}, which is 33 bytes long.`,
    });
    expect(await failure(test.setStorageAt({ address: contract, index: long, value: pad('0x1') }))).toEqual({
      code: -32000,
      details: `Storage key must not be greater than or equal to 2^256. Received ${long}.`,
    });
    expect(await pub().getStorageAt({ address: contract, slot: '0x0' })).toBe(before);
  });
});
