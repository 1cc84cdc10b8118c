/**
 * The C-Chain's block building follows the node's mining mode as X's and P's does: under interval mining its
 * transactions wait in the pool and a tick builds one block from it, never an empty one (coreth's builder waits for
 * pending txs); switching modes at run time (/ext/dev, evm_*, anvil_*) switches C too. Its blocks carry the world's
 * time, so blocks built while the world's clock stands still share it, however much time passes on the machine.
 * Driven with viem over HTTP; waits poll, with generous deadlines.
 */
import { TransferableOutput, Utxo, addTxSignatures, avm, utils } from '@avalabs/avalanchejs';
import { http, type Hex, createTestClient } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { XChainClient } from '../../generated/client/dist/index.js';
import { type MockNodeOptions, type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const TO: Hex = '0x00000000000000000000000000000000000000d1';
const DEADLINE = { timeout: 60_000, interval: 20 };
let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

const start = async (options: MockNodeOptions = {}) => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, ...options });
  return { node, ...cClients(node.url) };
};
const rpc = (n: RunningMockNode, method: string, params: unknown[]) =>
  callRpc(`${n.url}/ext/bc/C/rpc`, method, params).then(({ result, error }) => {
    if (error) throw new Error(error.message);
    return result;
  });
const mined = (n: RunningMockNode, hash: Hex) =>
  rpc(n, 'eth_getTransactionReceipt', [hash]).then((receipt) => (receipt as { blockNumber: Hex } | null)?.blockNumber);

/** An X-Chain transfer from ewoq, issued and waited for: once it is Accepted, a tick has passed since it was issued. */
async function xTick(n: RunningMockNode): Promise<void> {
  const world = n.world;
  const manager = utils.getManagerForVM('AVM');
  const utxos = world.utxosOf('X', Buffer.from(ewoq).toString('hex')).map((u) => manager.unpack(u.bytes, Utxo));
  const outputs = [TransferableOutput.fromNative(world.network.avaxAssetID, 1_000n, [new Uint8Array(20).fill(7)])];
  const unsigned = avm.newBaseTx(sdkContext(world), [ewoq], utxos, outputs);
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  const x = new XChainClient({ baseUrl: n.url });
  const tx = utils.bufferToHex(utils.addChecksum(unsigned.getSignedTx().toBytes()));
  const { txID } = await x.issueTx({ tx, encoding: 'hex' });
  await expect.poll(async () => (await x.getTxStatus({ txID })).status, DEADLINE).toBe('Accepted');
}

describe('interval mining on the C-Chain', () => {
  it('builds a block from the pool on a tick (mining: interval, as --block-time), and no empty ones', async () => {
    const { node, pub, wallet } = await start({ mining: { mode: 'interval', blockTimeMs: 20 } });
    expect(await rpc(node, 'hardhat_getAutomine', [])).toBe(false);
    const first = await wallet.sendTransaction({ to: TO, value: 1n });
    const second = await wallet.sendTransaction({ to: TO, value: 2n });
    await expect.poll(() => mined(node, second), DEADLINE).toBeTypeOf('string');
    expect(await pub.getBalance({ address: TO })).toBe(3n);
    // Ticks pass (an X tx is built by one) while the pool is empty: the C-Chain builds nothing on them.
    const height = await pub.getBlockNumber();
    await xTick(node);
    await xTick(node);
    expect(await pub.getBlockNumber()).toBe(height);
    for (let n = 1n; n <= height; n++)
      expect((await pub.getBlock({ blockNumber: n })).transactions.length).toBeGreaterThan(0);
    expect(await mined(node, first)).toBeTypeOf('string');
    const third = await wallet.sendTransaction({ to: TO, value: 4n });
    await expect.poll(() => mined(node, third), DEADLINE).toBe(`0x${(height + 1n).toString(16)}`);
  });

  it('holds C txs in the pool until a tick or dev.mine, and switches with the dev controls and evm_/anvil_ methods', async () => {
    // An hour's interval: no tick comes while the test runs, so the pool holds what is sent.
    const { node, pub, wallet } = await start({ mining: { mode: 'interval', blockTimeMs: 3_600_000 } });
    const held = await wallet.sendTransaction({ to: TO, value: 1n });
    expect(await mined(node, held)).toBeUndefined();
    expect(await pub.getBlockNumber()).toBe(0n);
    await node.dev.mine({ chain: 'C' });
    expect(await mined(node, held)).toBe('0x1');

    const hardhat = createTestClient({ mode: 'hardhat', transport: http(`${node.url}/ext/bc/C/rpc`) });
    await hardhat.setIntervalMining({ interval: 0 });
    const waiting = await wallet.sendTransaction({ to: TO, value: 2n });
    expect(await mined(node, waiting)).toBeUndefined();
    // Hardhat's interval is in ms (viem sends seconds × 1000): 20 ms.
    await hardhat.setIntervalMining({ interval: 0.02 });
    await expect.poll(() => mined(node, waiting), DEADLINE).toBe('0x2');

    // Automine back on: the interval stays, and a tx gets its block at once.
    await hardhat.setAutomine(true);
    const at = await wallet.sendTransaction({ to: TO, value: 3n });
    expect(await mined(node, at)).toBe('0x3');

    // anvil's interval (seconds) is a mining mode of its own: automine goes off, and a tick builds the block.
    expect(await rpc(node, 'anvil_setIntervalMining', [1])).toBeNull();
    expect(await rpc(node, 'anvil_getAutomine', [])).toBe(false);
    const ticked = await wallet.sendTransaction({ to: TO, value: 4n });
    await expect.poll(() => mined(node, ticked), DEADLINE).toBe('0x4');
    // anvil's 0 is no mining at all (MiningMode::None), not automine back.
    expect(await rpc(node, 'anvil_setAutomine', [true])).toBeNull();
    expect(await rpc(node, 'anvil_setIntervalMining', [0])).toBeNull();
    expect(await rpc(node, 'anvil_getAutomine', [])).toBe(false);

    await node.dev.setIntervalMining({ interval: 0 });
    const manual = await wallet.sendTransaction({ to: TO, value: 5n });
    expect(await mined(node, manual)).toBeUndefined();
    await node.dev.mine({ chain: 'C' });
    expect(await mined(node, manual)).toBe('0x5');
    expect(await pub.getBalance({ address: TO })).toBe(15n);
  });
});

describe('C-Chain block times', () => {
  /** Polls until the machine's clock is past the second it reads now: the engine's own clock would have moved. */
  const nextSecond = async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect.poll(() => Math.floor(Date.now() / 1000), DEADLINE).toBeGreaterThan(now);
  };

  it("carry the world's time: equal while its clock stands still, moved as it moves", async () => {
    const { node, pub, wallet } = await start();
    const worldTime = node.world.time.get();
    await wallet.sendTransaction({ to: TO, value: 1n });
    await nextSecond();
    await wallet.sendTransaction({ to: TO, value: 2n });
    await nextSecond();
    await node.dev.mine({ chain: 'C', blocks: 2 });
    const times: bigint[] = [];
    for (let n = 1n; n <= 4n; n++) times.push((await pub.getBlock({ blockNumber: n })).timestamp);
    expect(times).toEqual([worldTime, worldTime, worldTime, worldTime]);

    // The clock moves without a block: the next C block, like the next P block, is at its new time.
    const later = worldTime + 3_600n;
    await node.dev.setTime({ timestamp: String(later), mine: false });
    await wallet.sendTransaction({ to: TO, value: 3n });
    await nextSecond();
    await node.dev.mine({ chain: 'C' });
    await node.dev.mine({ chain: 'P' });
    expect((await pub.getBlock({ blockNumber: 5n })).timestamp).toBe(later);
    expect((await pub.getBlock({ blockNumber: 6n })).timestamp).toBe(later);
    expect(node.world.tip('P').timestamp).toBe(later);
  });

  it("price the next block at the world's time: eth_baseFee falls as the clock moves, and the block gets it", async () => {
    // v1.12.2's windowed base fee (before Fortuna) falls with the seconds since the parent.
    const { node, pub } = await start({ nodeVersion: 'v1.12.2' });
    const baseFee = async () => BigInt((await pub.request({ method: 'eth_baseFee' as never })) as Hex);
    await node.dev.mine({ chain: 'C' });
    const atOnce = await baseFee();
    expect(atOnce).toBeLessThan(225n * 1_000_000_000n);
    await node.dev.increaseTime({ seconds: 60, mine: false });
    const later = await baseFee();
    expect(later).toBeLessThan(atOnce);
    await node.dev.mine({ chain: 'C' });
    const block = await pub.getBlock({ blockNumber: 2n });
    expect(block.baseFeePerGas).toBe(later);
    expect(block.timestamp).toBe(node.world.time.get());
  });

  it('keep the time of a block built under interval mining', async () => {
    const { node, pub, wallet } = await start({ mining: { mode: 'interval', blockTimeMs: 20 } });
    // The engine exists (made on the first call) before the machine's clock moves on.
    expect(await pub.getBlockNumber()).toBe(0n);
    await nextSecond();
    const hash = await wallet.sendTransaction({ to: TO, value: 1n });
    await expect.poll(() => mined(node, hash), DEADLINE).toBe('0x1');
    expect((await pub.getBlock({ blockNumber: 1n })).timestamp).toBe(node.world.time.get());
  });
});
