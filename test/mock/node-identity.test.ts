/**
 * The node's identity per network, from the world: its node ID and BLS proof of possession (verifiable under the
 * node's PoP ciphersuite), its peers (the other current validators), uptime and health checks that follow the chains.
 */
import { bls12_381 } from '@noble/curves/bls12-381';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { NETWORKS } from '../../mock/world/networks.ts';
import { POP_DST } from '../../mock/world/node-identity.ts';
import type { WorldOptions } from '../../mock/world/genesis.ts';
import { callRpc, send } from '../support/rpc.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

const start = async (world: WorldOptions) => {
  node = await startMockNode({ port: 0, validateResults: true, world });
  return node;
};

const rpc = async (path: string, method: string, params: object = {}) =>
  (await callRpc(node!.url + path, method, params)).result;

const verifyPop = (pop: { publicKey: string; proofOfPossession: string }) => {
  const publicKey = Buffer.from(pop.publicKey.slice(2), 'hex');
  const verify = bls12_381.verify as unknown as (s: Uint8Array, m: Uint8Array, p: Uint8Array, o: object) => boolean;
  return verify(Buffer.from(pop.proofOfPossession.slice(2), 'hex'), publicKey, publicKey, { DST: POP_DST });
};

describe('node identity', () => {
  it('is the local node 1 on local, with its genesis BLS key, which verifies under the PoP ciphersuite', async () => {
    await start({ network: 'local', accounts: 0 });
    const id = await rpc('/ext/info', 'info.getNodeID');
    const staker = NETWORKS.local.stakers[0]!;
    expect(id).toEqual({
      nodeID: staker.nodeID,
      nodePOP: { publicKey: staker.publicKey, proofOfPossession: staker.proofOfPossession },
    });
    expect(verifyPop(id.nodePOP)).toBe(true);
    expect(await rpc('/ext/info', 'info.getNodeIP')).toEqual({ ip: '127.0.0.1:9651' });
  });

  it('is a validator of fuji named from the seed, with a BLS key of its own; another seed, another node', async () => {
    await start({ network: 'fuji', accounts: 0, seed: 'one' });
    const one = await rpc('/ext/info', 'info.getNodeID');
    const validators = (await rpc('/ext/bc/P', 'platform.getCurrentValidators')).validators;
    expect(validators.map((v: { nodeID: string }) => v.nodeID)).toContain(one.nodeID);
    expect(one.nodeID).not.toBe(NETWORKS.local.stakers[0]!.nodeID);
    expect(verifyPop(one.nodePOP)).toBe(true);
    expect(verifyPop({ ...one.nodePOP, publicKey: NETWORKS.local.stakers[0]!.publicKey })).toBe(false);
    await node!.close();
    await start({ network: 'fuji', accounts: 0, seed: 'one' });
    expect(await rpc('/ext/info', 'info.getNodeID')).toEqual(one);
    await node!.close();
    await start({ network: 'fuji', accounts: 0, seed: 'two' });
    expect((await rpc('/ext/info', 'info.getNodeID')).nodeID).not.toBe(one.nodeID);
  });

  it('is connected to every other current validator; uptime and the network check agree', async () => {
    for (const network of ['local', 'mainnet'] as const) {
      await start({ network, accounts: 0 });
      const self = (await rpc('/ext/info', 'info.getNodeID')).nodeID;
      const validators = (await rpc('/ext/bc/P', 'platform.getCurrentValidators')).validators.map(
        (v: { nodeID: string }) => v.nodeID,
      );
      const peers = await rpc('/ext/info', 'info.peers');
      expect(peers.numPeers).toBe(String(validators.length - 1));
      expect(peers.peers.map((p: { nodeID: string }) => p.nodeID).sort()).toEqual(
        validators.filter((v: string) => v !== self).sort(),
      );
      const one = peers.peers[1].nodeID;
      const [peer] = (await rpc('/ext/info', 'info.peers', { nodeIDs: [one] })).peers;
      expect(peer.publicIP).toBe('127.0.0.1:9655');
      // The peer dialed this node: the connection's remote port is one of its ephemeral ports.
      const port = Number(peer.ip.split(':')[1]);
      expect(port >= 32768 && port <= 60999 && peer.ip.startsWith('127.0.0.1:')).toBe(true);
      const health = await rpc('/ext/health', 'health.health');
      expect(health.checks.network.message.connectedPeers).toBe(peers.peers.length);
      expect(await rpc('/ext/info', 'info.uptime')).toEqual({
        rewardingStakePercentage: '100.0000',
        weightedAveragePercentage: '100.0000',
      });
      await node!.close();
      node = undefined;
    }
  });

  it("names the node's health checks, the chains' following their tips at the chain's time", async () => {
    await start({ network: 'fuji', accounts: 1 });
    const health = await rpc('/ext/health', 'health.health');
    expect(Object.keys(health.checks)).toEqual([
      'C',
      'P',
      'X',
      'bls',
      'bootstrapped',
      'database',
      'diskspace',
      'futureupgrade',
      'network',
      'router',
    ]);
    // Fuji's C-Chain (not simulated) stays at its real genesis block, the same block as Mainnet's.
    expect(health.checks.C.message.engine.consensus).toMatchObject({
      lastAcceptedHeight: 0,
      lastAcceptedID: 'NwH5W45Ho9TgNwPbsmX8hQqwmshaks3issR1Nza8ULNdyYsGE',
    });
    // Fuji's synthetic genesis stakers registered no BLS key, as the real ones did not.
    expect(health.checks.bls.message).toBe("validator doesn't have a BLS key");
    const world = node!.world;
    for (const chain of ['P', 'X'] as const) {
      expect(health.checks[chain].message.engine.consensus).toMatchObject({
        lastAcceptedHeight: world.tip(chain).height,
        lastAcceptedID: world.tip(chain).id,
      });
    }
    // A check's timestamp is when it ended: the world's time plus its duration in nanoseconds, as Go writes it.
    const ns = String(health.checks.P.duration).padStart(9, '0').replace(/0+$/, '');
    expect(health.checks.P.timestamp).toBe(
      new Date(Number(world.time.get()) * 1000).toISOString().replace('.000Z', `.${ns}Z`),
    );
    expect(health.healthy).toBe(true);
    const readiness = await rpc('/ext/health', 'health.readiness');
    expect(Object.keys(readiness.checks)).toEqual(['bootstrapped']);
  });
});

describe('peers and health checks follow the simulated network', () => {
  const nanos = (time: string) => BigInt(Date.parse(time.replace(/\.\d+Z$/, 'Z'))) * 1_000_000n + fraction(time);
  const fraction = (time: string) => BigInt((/\.(\d+)Z$/.exec(time)?.[1] ?? '').padEnd(9, '0'));
  const nowNanos = () => node!.world.time.get() * 1_000_000_000n;

  it("times the peers' last messages by the world's clock, their handshake's upgrade time by the network", async () => {
    await start({ network: 'local', accounts: 0 });
    const granite = (await rpc('/ext/info', 'info.upgrades')).graniteTime;
    const { version } = await rpc('/ext/info', 'info.getNodeVersion');
    const before = (await rpc('/ext/info', 'info.peers')).peers;
    for (const peer of before) {
      expect(peer.upgradeTime).toBe(Date.parse(granite) / 1000);
      expect(peer.version).toBe(version);
      for (const last of [peer.lastSent, peer.lastReceived]) {
        expect(nowNanos() - nanos(last) >= 0n && nowNanos() - nanos(last) < 1_000_000_000n).toBe(true);
      }
    }
    // The network check's time since the last message is the shortest over the peers.
    const network = (await rpc('/ext/health', 'health.health')).checks.network.message;
    const shortest = before
      .map((p: { lastReceived: string }) => nowNanos() - nanos(p.lastReceived))
      .reduce((a: bigint, b: bigint) => (a < b ? a : b));
    expect(network.timeSinceLastMsgReceived).toBe(`${Number(shortest) / 1e6}ms`);
    expect(network['primary network validator health']).toBeUndefined();

    // Past the 10-minute grace period the node, a validator every peer dialed, reports its inbound connections.
    await node!.dev.increaseTime({ seconds: 700, mine: false });
    const after = (await rpc('/ext/info', 'info.peers')).peers;
    expect(after.map((p: { lastSent: string }) => nanos(p.lastSent) - nanos(before[0].lastSent))[0]).toBe(
      700_000_000_000n,
    );
    const health = await rpc('/ext/health', 'health.health');
    expect(health.checks.network.message['primary network validator health']).toEqual({
      ingressConnectionCount: after.length,
      primaryNetworkValidator: true,
    });
    expect(
      health.checks.bootstrapped.timestamp.startsWith(
        new Date(Number(node!.world.time.get()) * 1000).toISOString().slice(0, 19),
      ),
    ).toBe(true);
  });

  it('draws ports and message phases from the seed: the same seed, the same answers', async () => {
    const peersOf = async (seed: string) => {
      await start({ network: 'local', accounts: 0, seed });
      const peers = (await rpc('/ext/info', 'info.peers')).peers;
      await node!.close();
      node = undefined;
      return peers;
    };
    const one = await peersOf('one');
    expect(await peersOf('one')).toEqual(one);
    const two = await peersOf('two');
    expect(two.map((p: { nodeID: string }) => p.nodeID)).toEqual(one.map((p: { nodeID: string }) => p.nodeID));
    expect(two.map((p: { ip: string }) => p.ip)).not.toEqual(one.map((p: { ip: string }) => p.ip));
  });

  it("weighs the peers' announced upgrade time by stake, and fills the disk with blocks", async () => {
    await start({ network: 'mainnet', accounts: 0 });
    const validators = (await rpc('/ext/bc/P', 'platform.getCurrentValidators')).validators as Array<{
      nodeID: string;
      weight: string;
    }>;
    const total = validators.reduce((sum, v) => sum + Number(v.weight), 0);
    const own = Number(validators.find((v) => v.nodeID === node!.nodeID)!.weight);
    const health = await rpc('/ext/health', 'health.health');
    expect(health.checks.futureupgrade.message).toEqual({
      localUpgradeTime: '2025-11-19T16:00:00Z',
      modeUpgradeTime: '2025-11-19T16:00:00Z',
      modeUpgradeWeightPercentage: 100 * ((total - own) / total),
      numUpgradeTimes: 1,
    });
    // Mainnet's peers run releases of the node's line, none newer than the node's; all announce Granite's time.
    const peers = (await rpc('/ext/info', 'info.peers')).peers as Array<{ version: string; upgradeTime: number }>;
    for (const peer of peers) {
      expect(peer.version).toMatch(/^avalanchego\/1\.14\.[0-2]$/);
      expect(peer.upgradeTime).toBe(Date.parse('2025-11-19T16:00:00Z') / 1000);
    }
    const disk = health.checks.diskspace.message;
    await node!.dev.mine({ chain: 'P', blocks: 200 });
    const fuller = (await rpc('/ext/health', 'health.health')).checks.diskspace.message;
    expect(fuller.availableDiskBytes).toBeLessThan(disk.availableDiskBytes);
    expect(fuller.availableDiskBytes % 4096).toBe(0);
    expect(fuller.availableDiskPercentage).toBe(Math.floor((fuller.availableDiskBytes / 2 ** 40) * 100));
  });

  it('reports the checks and fields of an older release', async () => {
    node = await startMockNode({ port: 0, validateResults: true, nodeVersion: 'v1.12.1', world: { network: 'local' } });
    const health = await rpc('/ext/health', 'health.health');
    expect(Object.keys(health.checks)).not.toContain('bls');
    expect(Object.keys(health.checks)).not.toContain('futureupgrade');
    expect(health.checks.P.message.engine.consensus.avgAcceptanceTime).toBeUndefined();
    expect(health.checks.P.message.networking).toEqual({ disconnectedValidators: [], percentConnected: 1 });
    expect(health.checks.diskspace.message.availableDiskPercentage).toBeUndefined();
    // The local C-Chain genesis block of a release with Etna active at genesis (its header's gas fields).
    expect(health.checks.C.message.engine.consensus.lastAcceptedID).toBe(
      'BRAjXJSZWwhknUQ8Jod3nWre9PtiFdBn2dc9GDZtccvKFg2tW',
    );
  });

  it('turns unhealthy when the last peer leaves, and says why', async () => {
    await start({ network: 'local', accounts: 0 });
    const self = node!.nodeID;
    const stakers = [...node!.world.stakers.values()];
    const ownEnd = stakers.find((s) => s.nodeID === self && !s.validatorTxID)!.endTime;
    const lastPeerEnd = stakers.filter((s) => s.nodeID !== self).reduce((m, s) => (s.endTime > m ? s.endTime : m), 0n);
    expect(lastPeerEnd < ownEnd).toBe(true);
    // Two minutes and a bit after the last peer's staking period ended.
    await node!.dev.setTime({ timestamp: String(lastPeerEnd + 125n) });
    const health = await rpc('/ext/health', 'health.health');
    expect(health.healthy).toBe(false);
    const network = health.checks.network;
    expect(network.message.connectedPeers).toBe(0);
    expect(network.error).toBe(
      'network layer is unhealthy reason: not connected to a minimum of 1 peer(s) only 0, ' +
        'no messages from network received in 2m5s > 1m0s, no messages from network sent in 2m5s > 1m0s, ' +
        'primary network validator has no inbound connections',
    );
    // Every run in the 125 s since the last peer left failed: this one and those 30, 60, 90 and 120 s before it.
    expect(network.contiguousFailures).toBe(5);
    expect(nanos(network.timeOfFirstFailure)).toBe(nanos(network.timestamp) - 120_000_000_000n);
    expect(health.checks.bls.message).toBe('node has the correct BLS key');
    expect(health.checks.router.error).toBeUndefined();
    const get = await send(`${node!.url}/ext/health`, { method: 'GET', contentType: null });
    expect(get.status).toBe(503);

    await node!.dev.setTime({ timestamp: String(ownEnd) });
    const later = await rpc('/ext/health', 'health.health');
    expect(later.checks.bls.message).toBe('node is not a validator');
    expect(later.checks.futureupgrade.error).toBe('no validators in the current validator set');
  });
});
