/**
 * Direct state edits on /ext/dev through the generated DevClient, and connections and uptimes as state: a validator
 * whose node never connects ends without a reward, as on a real node.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InfoClient, PChainClient } from '../../generated/client/dist/index.js';
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const AVAX = 1_000_000_000n;
const NODE = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;
let node: RunningMockNode;
let p: PChainClient;
let info: InfoClient;
const address = (fill: number) => `P-${bech32Encode('local', new Uint8Array(20).fill(fill))}`;
const balance = async (addr: string) => BigInt((await p.getBalance({ addresses: [addr] })).balance);

beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { accounts: 0 } });
  p = new PChainClient({ baseUrl: node.url });
  info = new InfoClient({ baseUrl: node.url });
});
afterEach(() => node.close());

describe('UTXO edits', () => {
  it('adds a multisig, stake-locked UTXO that getUTXOs lists, and removes it again', async () => {
    const now = node.world.time.get();
    const added = await node.dev.addUtxo({
      chain: 'P',
      addresses: [address(1), address(2)],
      threshold: 2,
      amount: String(5n * AVAX),
      stakeableLocktime: String(now + 1000n),
    });
    const { utxos } = await p.getUTXOs({ addresses: [address(1)] });
    expect(utxos).toHaveLength(1);
    const answer = await p.getBalance({ addresses: [address(2)] });
    expect(answer.lockedStakeable).toBe(String(5n * AVAX));
    await node.dev.removeUtxo({ chain: 'P', utxoID: added.utxoID });
    expect(await balance(address(2))).toBe(0n);
    await expect(node.dev.removeUtxo({ chain: 'P', utxoID: added.utxoID })).rejects.toThrow(/not found on P/);
  });

  it('refuses an impossible owner or asset and changes nothing', async () => {
    const bad = [
      { chain: 'P', addresses: [address(1)], threshold: 2, amount: '1' },
      { chain: 'X', addresses: [address(1).replace('P-', 'X-')], amount: '1', stakeableLocktime: '5' },
      { chain: 'P', addresses: [address(1)], amount: '0' },
      { chain: 'P', addresses: [address(1)], amount: '1', assetID: 'nope' },
    ];
    for (const params of bad) await expect(node.dev.addUtxo(params as never)).rejects.toThrow();
    expect(node.world.utxosOf('P', Buffer.from(new Uint8Array(20).fill(1)).toString('hex'))).toHaveLength(0);
  });
});

describe('stakers, connections and rewards', () => {
  const stake = async (connected: boolean) => {
    const end = node.world.time.get() + 14n * 24n * 3600n;
    const added = await node.dev.addStaker({
      nodeID: NODE,
      weight: String(2_000n * AVAX),
      endTime: String(end),
      rewardAddresses: [address(7)],
      connected,
    });
    return { ...added, end };
  };

  it('pays the reward of a validator that stayed connected', async () => {
    const { end, potentialReward } = await stake(true);
    const { validators } = await p.getCurrentValidators({ nodeIDs: [NODE] });
    expect(validators[0]).toMatchObject({ connected: true, uptime: '100.0000' });
    expect((await info.peers({})).peers.map((peer) => peer.nodeID)).toContain(NODE);
    await node.dev.setTime({ timestamp: String(end) });
    expect(await balance(address(7))).toBe(2_000n * AVAX + BigInt(potentialReward));
  });

  it('pays no reward to a validator whose node never connected, and the supply gives the promise back', async () => {
    const supply = BigInt((await p.getCurrentSupply({})).supply);
    const { end, potentialReward } = await stake(false);
    expect(BigInt((await p.getCurrentSupply({})).supply)).toBe(supply + BigInt(potentialReward));
    const { validators } = await p.getCurrentValidators({ nodeIDs: [NODE] });
    expect(validators[0]).toMatchObject({ connected: false });
    expect((await info.peers({})).peers.map((peer) => peer.nodeID)).not.toContain(NODE);
    await node.dev.setTime({ timestamp: String(end) });
    expect(await balance(address(7))).toBe(2_000n * AVAX);
    expect(BigInt((await p.getCurrentSupply({})).supply)).toBe(supply);
  });

  it('follows an uptime set below the 80% requirement, for the validator and its delegator', async () => {
    const { end } = await stake(true);
    await node.dev.addStaker({
      nodeID: NODE,
      weight: String(100n * AVAX),
      endTime: String(end),
      rewardAddresses: [address(8)],
      delegate: true,
    });
    await node.dev.increaseTime({ seconds: 7 * 24 * 3600 });
    expect(await node.dev.setConnection({ nodeID: NODE, uptime: 50, connected: false })).toEqual({
      connected: false,
      uptime: '50.0000',
    });
    await node.dev.setTime({ timestamp: String(end) });
    expect(await balance(address(7))).toBe(2_000n * AVAX);
    expect(await balance(address(8))).toBe(100n * AVAX);
  });

  it('refuses a second validator for a node and a delegator without one, changing nothing', async () => {
    await stake(true);
    await expect(stake(true)).rejects.toThrow(/already a Primary Network validator/);
    const other = `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`;
    const end = String(node.world.time.get() + 1000n);
    await expect(
      node.dev.addStaker({ nodeID: other, weight: '1', endTime: end, rewardAddresses: [address(1)], delegate: true }),
    ).rejects.toThrow(/not a Primary Network validator to delegate to/);
    expect((await p.getCurrentValidators({ nodeIDs: [other] })).validators).toHaveLength(0);
  });
  it('takes an end as late as the last second the chain time can reach (9999-12-31T23:59:59Z), and no later', async () => {
    const last = 253_402_300_799n;
    const params = { nodeID: NODE, weight: String(2_000n * AVAX), rewardAddresses: [address(7)] };
    await expect(node.dev.addStaker({ ...params, endTime: String(last + 1n) })).rejects.toThrow(
      `endTime ${last + 1n} is after 9999-12-31T23:59:59Z, the last time the chain can reach`,
    );
    expect((await p.getCurrentValidators({ nodeIDs: [NODE] })).validators).toHaveLength(0);
    await node.dev.addStaker({ ...params, endTime: String(last) });
    const { validators } = await p.getCurrentValidators({ nodeIDs: [NODE] });
    expect(validators[0]).toMatchObject({ endTime: String(last) });
    await node.dev.setTime({ timestamp: String(last) });
    expect((await p.getCurrentValidators({ nodeIDs: [NODE] })).validators).toHaveLength(0);
    expect(await balance(address(7))).toBeGreaterThan(2_000n * AVAX);
  });
});

describe('subnet edits', () => {
  it('makes a subnet with an owner, and changes its owner', async () => {
    const { subnetID } = await node.dev.addSubnet({ addresses: [address(1)] });
    await node.dev.setSubnetOwner({ subnetID, addresses: [address(2), address(3)], threshold: 2 });
    const subnet = await p.getSubnet({ subnetID });
    expect(subnet).toMatchObject({ threshold: '2', controlKeys: [address(2), address(3)].sort() });
  });
});
