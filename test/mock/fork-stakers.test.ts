/**
 * A fork's stakers against a second mock as the source: each validator's delegators with their reward owners and
 * periods, a local delegation counted against a forked validator's capacity with them, and a forked staker's stake
 * returned to its owner when its period ends locally, with its reward, as the source returns it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Wallet } from '../../mock/package/wallet.ts';

const AVAX = 1_000_000_000n;
const DAY = 86_400n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
const nodeID = `NodeID-${cb58Encode(Buffer.alloc(20, 7))}`;
const untraced = `NodeID-${cb58Encode(Buffer.alloc(20, 8))}`;
const stakeOf = async (url: string, address: string) =>
  await new PChainClient({ baseUrl: url }).getStake({ addresses: [address], encoding: 'hex' } as never);
const utxosOf = async (url: string, address: string) =>
  (await new PChainClient({ baseUrl: url }).getUTXOs({ addresses: [address], encoding: 'hex' })).utxos.sort();
let end: bigint;

beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'stakers source' });
  end = source.world.time.get() + 20n * DAY;
  await source.wallet(1).addValidator(nodeID, 2_000n * AVAX, { end });
  await source.wallet(2).delegate(nodeID, 30n * AVAX, end - DAY);
  // A staker no transaction made: the source's own dev controls staked it for keys[0].
  source.dev.addStaker({
    nodeID: untraced,
    weight: String(2_000n * AVAX),
    endTime: String(end),
    rewardAddresses: [source.keys[0]!.p],
  });
  fork = await startMockNode({ accounts: 1, seed: 'stakers fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's stakers", () => {
  it("lists every validator's delegators as the source does", async () => {
    const p = new PChainClient({ baseUrl: fork.url });
    const s = new PChainClient({ baseUrl: source.url });
    expect(await p.getCurrentValidators({})).toEqual(await s.getCurrentValidators({}));
    const one = { nodeIDs: [nodeID] } as never;
    const forked = await p.getCurrentValidators(one);
    expect(forked).toEqual(await s.getCurrentValidators(one));
    expect((forked.validators[0] as { delegators?: unknown[] }).delegators).toHaveLength(1);
  });

  it("counts the forked delegation against the validator's capacity", async () => {
    // Capacity: 5 × the validator's 2,000 AVAX; 30 are delegated at the source, so 7,970 more fit and 7,971 do not.
    const { snapshotID } = await fork.devClient.snapshot();
    const delegator = new Wallet(fork.url, fork.keys[0]!.privateKey, fork.world.network.hrp);
    await fork.devClient.fund({ address: fork.keys[0]!.p, amount: String(20_000n * AVAX) });
    await expect(delegator.delegate(nodeID, 7_971n * AVAX, end - DAY)).rejects.toThrow(/over delegated/);
    await delegator.delegate(nodeID, 7_970n * AVAX, end - DAY);
    await fork.devClient.revert({ snapshotID });
  });

  it('gives a staker the source has no transaction for the stake its getStake lists', async () => {
    const forked = await stakeOf(fork.url, source.keys[0]!.p);
    expect(forked.staked).toBe(String(2_000n * AVAX));
    expect(forked).toEqual(await stakeOf(source.url, source.keys[0]!.p));
  });

  it("returns a forked staker's stake at the end of its period, with its reward, as the source does", async () => {
    const owners = [source.keys[1]!.p, source.keys[2]!.p];
    const balances = (url: string) =>
      Promise.all(
        owners.map(async (a) =>
          BigInt((await new PChainClient({ baseUrl: url }).getBalance({ addresses: [a] })).balance),
        ),
      );
    const staked = async (url: string) =>
      (await new PChainClient({ baseUrl: url }).getStake({ addresses: owners } as never)).staked;
    expect(await staked(fork.url)).toBe(String(2_030n * AVAX));
    expect(await staked(fork.url)).toEqual(await staked(source.url));
    const before = await balances(fork.url);
    await source.devClient.setTime({ timestamp: String(end) });
    await fork.devClient.setTime({ timestamp: String(end) });
    const after = await balances(fork.url);
    expect(after).toEqual(await balances(source.url));
    expect(after[0]).toBeGreaterThanOrEqual(before[0]! + 2_000n * AVAX);
    expect(after[1]).toBeGreaterThanOrEqual(before[1]! + 30n * AVAX);
    const p = new PChainClient({ baseUrl: fork.url });
    expect((await p.getUTXOs({ addresses: owners, encoding: 'hex' })).utxos.sort()).toEqual(
      (await new PChainClient({ baseUrl: source.url }).getUTXOs({ addresses: owners, encoding: 'hex' })).utxos.sort(),
    );
  });

  it('returns the stake of a staker the source has no transaction for at its end, as the source does', async () => {
    // The end of the period was passed by the test above, on both.
    expect(await utxosOf(fork.url, source.keys[0]!.p)).toEqual(await utxosOf(source.url, source.keys[0]!.p));
    expect((await stakeOf(fork.url, source.keys[0]!.p)).staked).toBe('0');
  });

  it('leaves out the stake the source returned after the fork point, for an owner first read after it', async () => {
    const owner = source.keys[0]!;
    const sourceEnd = source.world.time.get() + 15n * DAY;
    const late = `NodeID-${cb58Encode(Buffer.alloc(20, 9))}`;
    await source.wallet(0).addValidator(late, 2_000n * AVAX, { end: sourceEnd });
    const p = new PChainClient({ baseUrl: source.url });
    const atForkPoint = (await p.getUTXOs({ addresses: [owner.p], encoding: 'hex' })).utxos;
    const again = await startMockNode({
      accounts: 1,
      seed: 'stakers fork 2',
      fork: { url: source.url, cacheDir: false },
    });
    try {
      await source.devClient.setTime({ timestamp: String(sourceEnd) });
      const now = (await p.getUTXOs({ addresses: [owner.p], encoding: 'hex' })).utxos;
      expect(now.length).toBeGreaterThan(atForkPoint.length);
      const forked = (
        await new PChainClient({ baseUrl: again.url }).getUTXOs({ addresses: [owner.p], encoding: 'hex' })
      ).utxos;
      expect(forked.sort()).toEqual([...atForkPoint].sort());
    } finally {
      await again.close();
    }
  });
});
