/**
 * The node-level answers of the Info API (api/info/service.go), from the simulated network: the node's identity and
 * peers (./node-identity.ts), its uptime (every validator is connected, so 100% of the stake sees it up), its VMs
 * and fxs, and the ACPs its peers vote for (none). Its health checks are in ./health-checks.ts.
 *
 * A peer reports what its handshake and connection say: the release it runs (the node's on a local network, whose
 * nodes run one build; on Fuji and Mainnet a patch of the node's line drawn from the seed), the upgrade time that
 * release announces (Granite's on v1.14), and when a message last went each way, which follows the world's clock.
 */
import { SECOND, goTime } from './go-time.ts';
import { lastAt, nodeIdentity, peersOf } from './node-identity.ts';
import { EMPTY_ID, FX_IDS, VM_IDS } from './networks.ts';
import { upgradeTime } from './reads-info.ts';
import type { Params } from './reads.ts';
import type { World } from './world.ts';

/** The peer's release: the node's, or on a live network a patch of its line at most the node's. */
function peerVersion(world: World, version: string, draw: number): string {
  const match = /^(.*\.)(\d+)$/.exec(version);
  if (world.network.name === 'local' || !match) return version;
  return `${match[1]}${draw % (Number(match[2]) + 1)}`;
}

export function nodeReads(world: World, version: () => string) {
  const peers = (p: Params<'nodeIDs'>) => {
    const wanted = Array.isArray(p.nodeIDs) && p.nodeIDs.length > 0 ? new Set(p.nodeIDs as string[]) : undefined;
    const now = world.time.get() * SECOND;
    const announced = Date.parse(upgradeTime(world, 'granite')) / 1000;
    const list = peersOf(world)
      .filter((peer) => !wanted || wanted.has(peer.nodeID))
      .map((peer) => ({
        ip: peer.ip,
        publicIP: peer.publicIP,
        nodeID: peer.nodeID,
        version: peerVersion(world, version(), peer.draw),
        upgradeTime: announced,
        lastSent: goTime(lastAt(now, peer.sentPhase)),
        lastReceived: goTime(lastAt(now, peer.receivedPhase)),
        observedUptime: '100',
        trackedSubnets: [],
        supportedACPs: [],
        objectedACPs: [],
        benched: [],
      }));
    return { numPeers: String(list.length), peers: list };
  };
  return {
    getNodeID: () => {
      const id = nodeIdentity(world);
      return { nodeID: id.nodeID, nodePOP: { publicKey: id.publicKey, proofOfPossession: id.proofOfPossession } };
    },
    getNodeIP: () => ({ ip: nodeIdentity(world).ip }),
    peers,
    uptime: (p: Params<'subnetID'>) => {
      // Releases up to v1.11.11 report a subnet's view too, of a subnet the node tracks (network/network.go NodeUptime,
      // errNotTracked); this node tracks none. Later releases never decode the param.
      if (typeof p.subnetID === 'string' && p.subnetID !== EMPTY_ID)
        throw new Error("couldn't get node uptime: subnet is not tracked");
      return { rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' };
    },
    getVMs: () => ({
      vms: { [VM_IDS.avm]: ['avm'], [VM_IDS.evm]: ['evm'], [VM_IDS.platform]: ['platform'] },
      fxs: { [FX_IDS[1]!]: 'nftfx', [FX_IDS[2]!]: 'propertyfx', [FX_IDS[0]!]: 'secp256k1fx' },
    }),
    // No peer supports or objects to an ACP, and the release has none open to a vote.
    acps: () => ({ acps: {} }),
  };
}
