/**
 * Fork mode against a second mock as the live node: its validators, subnets and a funded address's UTXOs appear in
 * the fork, a forked UTXO is spent locally (signed by avalanchejs through the package's wallet), reads below the fork
 * point go to the source once and then come from the disk cache, and the source's later changes stay out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { forkOf } from '../../mock/fork/lazy.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Wallet } from '../../mock/package/wallet.ts';
import { EMPTY_ID } from '../../mock/world/networks.ts';
import { setConnection } from '../../mock/world/uptime.ts';
import { proxy } from '../support/rpc.ts';

const AVAX = 1_000_000_000n;
const cacheDir = mkdtempSync(join(tmpdir(), 'fork-cache-'));
let source: MockNodeHandle;
let counted: { url: string; calls: string[]; close(): Promise<void> };
let fork: MockNodeHandle<ForkedDevControls>;
let subnetID: string;
let l1SubnetID: string;
/** The UTXOs of the source's key 0 on X at the fork point, read from the source before it moved on. */
let forkPointUtxos: string[];

/** A counting proxy in front of the source: each JSON-RPC call's method, in order. */
async function countingProxy(target: string): Promise<typeof counted> {
  const calls: string[] = [];
  const front = await proxy(target, (body) => {
    calls.push(String((JSON.parse(body.toString()) as { method?: string }).method));
    return undefined;
  });
  return { url: front.url, calls, close: front.close };
}

beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'fork source' });
  subnetID = await source.wallet(0).createSubnet();
  await source.wallet(0).send('X', source.keys[2]!.x, 7n * AVAX);
  l1SubnetID = await source.wallet(0).createSubnet();
  // The source's state edited in place (as a converted subnet and a node gone quiet would leave it).
  const conversion = { chainID: source.world.chainIDs.X, address: '0x0102', conversionID: EMPTY_ID.replace(/^1/, '2') };
  source.world.subnets.set(l1SubnetID, { ...source.world.subnets.get(l1SubnetID)!, conversion });
  source.world.l1Validators.set(EMPTY_ID.replace(/^1/, '3'), {
    validationID: EMPTY_ID.replace(/^1/, '3'),
    subnetID: l1SubnetID,
    nodeID: 'NodeID-111111111111111111116DBWJs',
    publicKey: `0x${'ab'.repeat(48)}`,
    remainingBalanceOwner: { locktime: 0n, threshold: 1, addresses: ['11'.repeat(20)] },
    deactivationOwner: { locktime: 0n, threshold: 1, addresses: ['22'.repeat(20)] },
    startTime: source.world.time.get(),
    weight: 20n,
    minNonce: 0n,
    balance: 5n * AVAX,
  });
  source.dev.increaseTime({ seconds: 3600 });
  const quiet = [...source.world.stakers.values()][1]!;
  setConnection(source.world, quiet.nodeID, { connected: false, uptime: 0.5, start: quiet.startTime });
  forkPointUtxos = (
    await new XChainClient({ baseUrl: source.url }).getUTXOs({ addresses: [source.keys[0]!.x], encoding: 'hex' })
  ).utxos;
  counted = await countingProxy(source.url);
  fork = await startMockNode({ accounts: 1, seed: 'fork local', fork: { url: counted.url, cacheDir } });
});
afterAll(async () => {
  await fork?.close();
  await counted?.close();
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork of another mock', () => {
  it('starts at the source tip with its network, validators, subnets and fees', async () => {
    const p = new PChainClient({ baseUrl: fork.url });
    const s = new PChainClient({ baseUrl: source.url });
    expect(await p.getHeight()).toEqual(await s.getHeight());
    expect(fork.world.network.networkID).toBe(source.world.network.networkID);
    const validators = (await p.getCurrentValidators({})).validators.map((v) => v.nodeID).sort();
    const sourceValidators = (await s.getCurrentValidators({})).validators.map((v) => v.nodeID).sort();
    expect(validators).toEqual(sourceValidators);
    expect((await p.getSubnet({ subnetID })).controlKeys).toEqual((await s.getSubnet({ subnetID })).controlKeys);
    expect(await p.getFeeConfig()).toEqual(await s.getFeeConfig());
    expect(await p.getFeeState()).toEqual(await s.getFeeState());
    expect(await p.getTimestamp()).toEqual(await s.getTimestamp());
    expect(await new XChainClient({ baseUrl: fork.url }).getHeight()).toEqual(
      await new XChainClient({ baseUrl: source.url }).getHeight(),
    );
  });

  it('has the source validators with their connections and uptimes, and its L1 with its validators', async () => {
    const p = new PChainClient({ baseUrl: fork.url });
    const s = new PChainClient({ baseUrl: source.url });
    const view = (list: { validators: unknown[] }) =>
      (list.validators as { nodeID: string; connected?: boolean; uptime?: string }[]).map((v) => ({
        nodeID: v.nodeID,
        connected: v.connected,
        uptime: Math.round(Number(v.uptime)),
      }));
    const forked = view(await p.getCurrentValidators({}));
    expect(forked).toEqual(view(await s.getCurrentValidators({})));
    expect(forked.filter((v) => !v.connected).map((v) => v.uptime)).toEqual([50]);
    expect(await p.getSubnet({ subnetID: l1SubnetID })).toEqual(await s.getSubnet({ subnetID: l1SubnetID }));
    expect(await p.getCurrentValidators({ subnetID: l1SubnetID })).toEqual(
      await s.getCurrentValidators({ subnetID: l1SubnetID }),
    );
  });

  it("shows a funded address's UTXOs and balance as the source has them", async () => {
    const address = source.keys[2]!.x;
    const x = new XChainClient({ baseUrl: fork.url });
    const s = new XChainClient({ baseUrl: source.url });
    expect(await x.getBalance({ address, assetID: 'AVAX' })).toEqual(await s.getBalance({ address, assetID: 'AVAX' }));
    const utxos = (await x.getUTXOs({ addresses: [address], encoding: 'hex' })).utxos;
    expect(utxos).toEqual((await s.getUTXOs({ addresses: [address], encoding: 'hex' })).utxos);
    expect(utxos.length).toBe(2);
  });

  it('spends a forked UTXO locally: signed by avalanchejs, accepted in a block above the fork point', async () => {
    const key = source.keys[1]!;
    const sender = new Wallet(fork.url, key.privateKey, fork.world.network.hrp);
    const receiver = fork.keys[0]!.p;
    const before = await new Wallet(fork.url, fork.keys[0]!.privateKey, fork.world.network.hrp).balance('P');
    const forkHeight = fork.world.fork!.heights.P;
    const txID = await sender.send('P', receiver, 3n * AVAX);
    const p = new PChainClient({ baseUrl: fork.url });
    expect((await p.getTxStatus({ txID })).status).toBe('Committed');
    expect(Number((await p.getHeight()).height)).toBe(forkHeight + 1);
    expect(await new Wallet(fork.url, fork.keys[0]!.privateKey, fork.world.network.hrp).balance('P')).toBe(
      before + 3n * AVAX,
    );
    // The source never saw it.
    expect((await new PChainClient({ baseUrl: source.url }).getTxStatus({ txID })).status).toBe('Unknown');
  });

  it('keeps what it loaded through a revert and a reset, which go back to the fork point at most', async () => {
    const x = new XChainClient({ baseUrl: fork.url });
    const { snapshotID } = await fork.devClient.snapshot();
    const address = source.keys[1]!.x;
    const loaded = (await x.getUTXOs({ addresses: [address], encoding: 'hex' })).utxos;
    expect(loaded.length).toBeGreaterThan(0);
    await fork.devClient.mine({ chain: 'X', blocks: 2 });
    await fork.devClient.revert({ snapshotID });
    expect((await x.getUTXOs({ addresses: [address], encoding: 'hex' })).utxos).toEqual(loaded);
    await fork.devClient.reset();
    expect(Number((await new PChainClient({ baseUrl: fork.url }).getHeight()).height)).toBe(fork.world.fork!.heights.P);
    expect((await x.getUTXOs({ addresses: [address], encoding: 'hex' })).utxos).toEqual(loaded);
  });

  it('reads a block below the fork point from the source once, then from its cache', async () => {
    const x = new XChainClient({ baseUrl: fork.url });
    const count = () => counted.calls.filter((m) => m === 'avm.getBlockByHeight').length;
    const before = count();
    const first = await x.getBlockByHeight({ height: '1', encoding: 'hex' } as never);
    expect(count()).toBe(before + 1);
    expect(await x.getBlockByHeight({ height: '1', encoding: 'hex' } as never)).toEqual(first);
    expect(count()).toBe(before + 1);
    expect(first).toEqual(
      await new XChainClient({ baseUrl: source.url }).getBlockByHeight({ height: '1', encoding: 'hex' } as never),
    );
    expect(forkOf(fork.world)!.source.stats.cached).toBeGreaterThan(0);
    // A validator set below the fork point is the source's too.
    const at = { height: '1' };
    expect(await new PChainClient({ baseUrl: fork.url }).getValidatorsAt(at)).toEqual(
      await new PChainClient({ baseUrl: source.url }).getValidatorsAt(at),
    );
  });

  it("keeps the source's later changes out", async () => {
    const late = source.keys[0]!;
    const sourceTx = await source.wallet(0).send('X', source.keys[2]!.x, 1n * AVAX);
    const x = new XChainClient({ baseUrl: fork.url });
    await expect(x.getTx({ txID: sourceTx, encoding: 'hex' })).rejects.toThrow(/not found/);
    expect((await x.getTxStatus({ txID: sourceTx })).status).toBe('Unknown');
    // An address first read after the source moved gets its UTXOs as of the fork point: the later transaction's
    // change left out, the output it spent put back.
    const atFork = (await x.getUTXOs({ addresses: [late.x], encoding: 'hex' })).utxos;
    const now = (await new XChainClient({ baseUrl: source.url }).getUTXOs({ addresses: [late.x], encoding: 'hex' }))
      .utxos;
    expect(atFork).toEqual(forkPointUtxos);
    expect(now).not.toEqual(forkPointUtxos);
    // Already loaded, never read again: the source's new output for keys[2] does not appear.
    expect((await x.getUTXOs({ addresses: [source.keys[2]!.x], encoding: 'hex' })).utxos.length).toBe(2);
  });
});
