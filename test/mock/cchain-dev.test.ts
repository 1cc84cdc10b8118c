/**
 * The development controls on the C-Chain, over HTTP (the DevClient startMockNode hands out) and read back through
 * viem: funding an EVM address, mining C blocks, time, automine, reset.
 */
import { http, type Hex, createPublicClient, createWalletClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { EWOQ } from './sdk-world.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const eth = () => createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`) });
const wallet = () =>
  createWalletClient({
    transport: http(`${node.url}/ext/bc/C/rpc`),
    account: privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`),
  });
const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

describe('dev controls on the C-Chain', () => {
  it('funds an EVM address in nAVAX, answering its balance in wei', async () => {
    const address: Hex = '0x0000000000000000000000000000000000000bEE';
    const { balance, utxoID } = await node.dev.fund({ address, amount: '1500000000' });
    expect(utxoID).toBeUndefined();
    expect(balance).toBe(String(parseEther('1.5')));
    expect(await eth().getBalance({ address })).toBe(parseEther('1.5'));
  });

  it('mines C blocks whose IDs are their hashes', async () => {
    const before = await eth().getBlockNumber();
    const { blockIDs, height } = await node.dev.mine({ chain: 'C', blocks: 3 });
    expect(height).toBe(String(before + 3n));
    const last = await eth().getBlock({ blockNumber: before + 3n });
    expect(blockIDs).toHaveLength(3);
    expect(blockIDs[2]).toBe(cb58Encode(Buffer.from(last.hash.slice(2), 'hex')));
  });

  it('moves the C-Chain to the chain time', async () => {
    const now = node.world.time.get();
    await node.dev.setTime({ timestamp: String(now + 86_400n) });
    expect((await eth().getBlock()).timestamp).toBe(now + 86_400n);
  });

  it('holds transactions in the pool with automine off, until dev.mine builds a C block', async () => {
    await node.dev.setAutomine({ enabled: false });
    const to: Hex = '0x00000000000000000000000000000000000000c1';
    const hash = await wallet().sendTransaction({ to, value: 1n, chain: null });
    expect(await eth().getBalance({ address: to })).toBe(0n);
    await node.dev.mine({ chain: 'C' });
    expect((await eth().getTransactionReceipt({ hash })).status).toBe('success');
    expect(await eth().getBalance({ address: to })).toBe(1n);
    await node.dev.setAutomine({ enabled: true });
  });

  it('resets the C-Chain to its genesis with the rest of the world', async () => {
    await wallet().sendTransaction({ to: '0x00000000000000000000000000000000000000c2', value: 5n, chain: null });
    expect(await eth().getBlockNumber()).toBeGreaterThan(0n);
    await node.dev.reset();
    expect(await eth().getBlockNumber()).toBe(0n);
    expect(await eth().getBalance({ address: EWOQ_EVM })).toBe(50_000_000n * 10n ** 18n);
  });
});

describe('dev controls before the C-Chain is loaded', () => {
  it('hands the snapshots and automine given before over to the chain as it loads on its first call', async () => {
    const fresh = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      const rpc = `${fresh.url}/ext/bc/C/rpc`;
      const { snapshotID } = await fresh.dev.snapshot();
      await fresh.dev.setAutomine({ enabled: false });
      expect(fresh.state.cChain.loaded).toBeUndefined();
      const to: Hex = '0x00000000000000000000000000000000000000c3';
      const account = privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`);
      await createWalletClient({ transport: http(rpc), account }).sendTransaction({ to, value: 1n, chain: null });
      const client = createPublicClient({ transport: http(rpc) });
      expect(await client.getBlockNumber()).toBe(0n);
      await fresh.dev.mine({ chain: 'C' });
      expect(await client.getBalance({ address: to })).toBe(1n);
      await fresh.dev.revert({ snapshotID });
      expect(await client.getBlockNumber()).toBe(0n);
      expect(await client.getBalance({ address: to })).toBe(0n);
    } finally {
      await fresh.close();
    }
  });
});

describe('a node started with mining off (--no-mining)', () => {
  it('holds C transactions in the pool until dev.mine, as it holds X and P ones', async () => {
    const manual = await startMockNode({
      port: 0,
      mining: { mode: 'manual' },
      world: { network: 'local', accounts: 0 },
    });
    try {
      const rpc = `${manual.url}/ext/bc/C/rpc`;
      const account = privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`);
      const to: Hex = '0x00000000000000000000000000000000000000c4';
      await createWalletClient({ transport: http(rpc), account }).sendTransaction({ to, value: 1n, chain: null });
      const client = createPublicClient({ transport: http(rpc) });
      expect(await client.getBlockNumber()).toBe(0n);
      expect(await client.getBalance({ address: to })).toBe(0n);
      await manual.dev.mine({ chain: 'C' });
      expect(await client.getBalance({ address: to })).toBe(1n);
    } finally {
      await manual.close();
    }
  });
});
