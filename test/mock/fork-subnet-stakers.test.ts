/**
 * A permissionless subnet's stakers at a fork, against a second mock as the source: its validators' delegators are
 * forked as the Primary Network's are, with their periods, weights, reward owners and potential rewards. Since Etna no
 * transaction makes a subnet permissionless (TransformSubnetTx is refused), so the source's are put in its state, as
 * Fuji's and Mainnet's subnets transformed before Etna hold them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { bech32Decode, cb58Encode } from '../../generators/formats.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { makeUtxo } from '../../mock/world/codec.ts';
import type { Owner, Staker } from '../../mock/world/types.ts';

const DAY = 86_400n;
const nodeIDs = [3, 4].map((n) => `NodeID-${cb58Encode(Buffer.alloc(20, n))}`);
const txID = (n: number) => cb58Encode(Buffer.alloc(32, n));

/** A source whose subnet has two permissionless validators with delegators, after `others` other subnets. */
async function sourceWith(others: number) {
  const source = await startMockNode({ accounts: 3, seed: 'subnet stakers source' });
  const owner = (i: number): Owner => ({
    locktime: 0n,
    threshold: 1,
    addresses: [Buffer.from(bech32Decode(source.keys[i]!.p.slice(2))!.payload).toString('hex')],
  });
  for (let i = 0; i < others; i++) {
    const id = cb58Encode(Buffer.alloc(32, 100 + i));
    source.world.subnets.set(id, { id, owner: owner(0) });
  }
  const { subnetID } = source.dev.addSubnet({ addresses: [source.keys[0]!.p] });
  const now = source.world.time.get();
  const staker = (n: number, nodeID: string, weight: bigint, i: number, validatorTxID?: string): Staker => ({
    txID: txID(n),
    subnetID,
    nodeID,
    startTime: now - DAY,
    endTime: now + (validatorTxID ? 5n : 10n) * DAY,
    weight,
    stake: [],
    rewardOwner: owner(i),
    potentialReward: 1_000n * BigInt(n),
    ...(validatorTxID ? { validatorTxID } : { delegationRewardOwner: owner(i), delegationFee: 25_000 }),
  });
  // A staker no transaction made holds what its maker gave it: the first a staked output of its weight, the rest none.
  const staked = staker(1, nodeIDs[0]!, 5_000n, 0);
  const stake = makeUtxo({
    txID: staked.txID,
    outputIndex: 0,
    assetID: source.world.network.avaxAssetID,
    amount: staked.weight,
    owner: owner(0),
    stakeableLocktime: 0n,
  });
  for (const s of [
    { ...staked, stake: [stake] },
    staker(2, nodeIDs[0]!, 700n, 1, txID(1)),
    staker(3, nodeIDs[0]!, 300n, 2, txID(1)),
    staker(4, nodeIDs[1]!, 4_000n, 0),
    staker(5, nodeIDs[1]!, 100n, 2, txID(4)),
  ])
    source.world.stakers.set(s.txID, s);
  return { source, subnetID };
}

// With 64 subnets or fewer the fork reads each in full at start; beyond, on the first call naming it.
describe.each([
  { others: 0, when: 'at start' },
  { others: 64, when: 'on the first call naming the subnet' },
])("a fork's permissionless subnet stakers, read $when", ({ others }) => {
  let source: MockNodeHandle;
  let fork: MockNodeHandle<ForkedDevControls>;
  let subnetID: string;

  beforeAll(async () => {
    ({ source, subnetID } = await sourceWith(others));
    fork = await startMockNode({
      accounts: 1,
      seed: 'subnet stakers fork',
      fork: { url: source.url, cacheDir: false },
    });
    const forked = [...fork.world.stakers.values()].filter((s) => s.subnetID === subnetID);
    expect(forked).toHaveLength(others === 0 ? 5 : 0);
  });
  afterAll(async () => {
    await fork?.close();
    await source?.close();
  });

  const validators = async (url: string, nodeID?: string) =>
    (
      await new PChainClient({ baseUrl: url }).getCurrentValidators({
        subnetID,
        ...(nodeID ? { nodeIDs: [nodeID] } : {}),
      } as never)
    ).validators as unknown as Record<string, unknown>[];

  it("lists the subnet's validators with their delegators' count and weight, as the source does", async () => {
    const forked = await validators(fork.url);
    expect(forked).toEqual(await validators(source.url));
    expect(forked.map((v) => [v.nodeID, v.delegatorCount, v.delegatorWeight])).toEqual([
      [nodeIDs[0], '2', '1000'],
      [nodeIDs[1], '1', '100'],
    ]);
  });

  it("lists each validator's delegators with their periods, owners and rewards", async () => {
    for (const nodeID of nodeIDs) {
      const [forked] = await validators(fork.url, nodeID);
      expect(forked).toEqual((await validators(source.url, nodeID))[0]);
      expect((forked!.delegators as unknown[]).length).toBe(nodeID === nodeIDs[0] ? 2 : 1);
    }
    const [v] = await validators(fork.url, nodeIDs[0]);
    expect(v!.delegators).toContainEqual(
      expect.objectContaining({
        txID: txID(3),
        weight: '300',
        potentialReward: '3000',
        rewardOwner: expect.anything(),
      }),
    );
  });

  // Last: it moves both nodes' time past the stakers' ends.
  it('gives stakers without a transaction at the source the stake its getStake lists, returned at their end', async () => {
    const owners = [0, 1, 2].map((i) => source.keys[i]!.p);
    const p = (url: string) => new PChainClient({ baseUrl: url });
    const stake = async (url: string) => await p(url).getStake({ addresses: owners, encoding: 'hex' } as never);
    const forked = await stake(fork.url);
    expect(forked).toEqual(await stake(source.url));
    expect(forked.stakedOutputs).toHaveLength(1);
    const utxos = async (url: string) =>
      (await p(url).getUTXOs({ addresses: owners, encoding: 'hex' } as never)).utxos.sort();
    const end = String(source.world.time.get() + 11n * DAY);
    await fork.dev.setTime({ timestamp: end });
    await source.dev.setTime({ timestamp: end });
    expect(await utxos(fork.url)).toEqual(await utxos(source.url));
    expect(await stake(fork.url)).toEqual(await stake(source.url));
  });
});
