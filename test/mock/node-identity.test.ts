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
import { callRpc } from '../server/raw-http.ts';

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
      expect((await rpc('/ext/info', 'info.peers', { nodeIDs: [one] })).peers.map((p: { ip: string }) => p.ip)).toEqual(
        ['127.0.0.1:9655'],
      );
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
    expect(Object.keys(health.checks).sort()).toEqual([
      'P',
      'X',
      'bls',
      'bootstrapped',
      'database',
      'diskspace',
      'network',
      'router',
    ]);
    const world = node!.world;
    for (const chain of ['P', 'X'] as const) {
      expect(health.checks[chain].message.engine.consensus).toMatchObject({
        lastAcceptedHeight: world.tip(chain).height,
        lastAcceptedID: world.tip(chain).id,
      });
    }
    expect(health.checks.P.timestamp).toBe(
      new Date(Number(world.time.get()) * 1000).toISOString().replace('.000Z', 'Z'),
    );
    expect(health.healthy).toBe(true);
    const readiness = await rpc('/ext/health', 'health.readiness');
    expect(Object.keys(readiness.checks)).toEqual(['bootstrapped']);
  });
});
