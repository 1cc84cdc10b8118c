/**
 * The node-level answers of the Info and Health APIs (api/info/service.go, api/health), from the simulated network:
 * the node's identity and peers (./node-identity.ts), its uptime (every validator is connected, so 100% of the stake
 * sees it up), its VMs and fxs, the ACPs its peers vote for (none), and the health checks the node registers: one
 * per chain by primary alias (`P`, `X` from the world's tips; `C`, which the world does not simulate, only on `local`
 * with the local genesis block), `bls`, `bootstrapped`, `database`, `diskspace`, `network` (its peer count),
 * `router`. Timestamps are the chain's time, so the same world answers the same.
 */
import type { HealthKind, HealthReport } from '../health.ts';
import { nodeIdentity, peersOf } from './node-identity.ts';
import { FX_IDS, VM_IDS } from './networks.ts';
import { type Params, type Read, rfc3339 } from './reads.ts';
import type { World } from './world.ts';

/** The local network's C-Chain genesis block, which the C check reports while nothing is built on it. */
const LOCAL_C_GENESIS = '2Kq7hzPoZAVwVHFsBkSeHbLNA79Fvu2nCapfBg4tCD16B4BM3T';
/** The first upgrade every release announces in its handshake (2020-12-05T05:00:00Z), as the peers report it. */
const UPGRADE_TIME = 1607144400;

export function nodeReads(world: World, version: () => string): Record<string, Read> {
  const peers = (p: Params) => {
    const wanted = Array.isArray(p.nodeIDs) && p.nodeIDs.length > 0 ? new Set(p.nodeIDs as string[]) : undefined;
    const now = rfc3339(world.time.get());
    const list = peersOf(world)
      .filter((peer) => !wanted || wanted.has(peer.nodeID))
      .map((peer) => ({
        ip: peer.ip,
        publicIP: peer.ip,
        nodeID: peer.nodeID,
        version: version(),
        upgradeTime: UPGRADE_TIME,
        lastSent: now,
        lastReceived: now,
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
    uptime: () => ({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' }),
    getVMs: () => ({
      vms: { [VM_IDS.avm]: ['avm'], [VM_IDS.evm]: ['evm'], [VM_IDS.platform]: ['platform'] },
      fxs: { [FX_IDS[1]!]: 'nftfx', [FX_IDS[2]!]: 'propertyfx', [FX_IDS[0]!]: 'secp256k1fx' },
    }),
    // No peer supports or objects to an ACP, and the release has none open to a vote.
    acps: () => ({ acps: {} }),
  };
}

export function healthReport(world: World, kind: HealthKind): HealthReport {
  const timestamp = rfc3339(world.time.get());
  const check = (message: unknown, duration: number) => ({
    ...(message === undefined ? {} : { message }),
    timestamp,
    duration,
  });
  const chain = (lastAcceptedHeight: number, lastAcceptedID: string, duration: number) =>
    check(
      {
        engine: {
          consensus: { lastAcceptedHeight, lastAcceptedID, longestProcessingBlock: '0s', processingBlocks: 0 },
          vm: null,
        },
        networking: { percentConnected: 1 },
      },
      duration,
    );
  const bootstrapped = check([], 4167);
  if (kind === 'liveness') return { checks: {}, healthy: true };
  if (kind === 'readiness') return { checks: { bootstrapped }, healthy: true };
  const x = world.tip('X');
  const p = world.tip('P');
  const checks: Record<string, unknown> = {
    ...(world.network.name === 'local' ? { C: chain(0, LOCAL_C_GENESIS, 24917) } : {}),
    P: chain(p.height, p.id, 9042),
    X: chain(x.height, x.id, 19500),
    bls: check('node has the correct BLS key', 2333),
    bootstrapped,
    database: check(undefined, 1625),
    diskspace: check({ availableDiskBytes: 227332591616 }, 3042),
    network: check(
      {
        connectedPeers: peersOf(world).length,
        sendFailRate: 0,
        timeSinceLastMsgReceived: '118.2ms',
        timeSinceLastMsgSent: '118.2ms',
      },
      2958,
    ),
    router: check({ longestRunningRequest: '0s', outstandingRequests: 0 }, 2542),
  };
  return { checks, healthy: true };
}
