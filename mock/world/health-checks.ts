/**
 * The health checks the node registers (node/node.go initHealthAPI, chains/manager.go), each as its checker reports
 * it on a healthy idle node of the release, read from the simulated network at the world's time:
 *
 * - one per chain by primary alias, tagged with its subnet (`C`, `P`, `X`): the handler's engine (consensus: the last
 *   accepted block of the world's tip; the C-Chain, not simulated, stays at its genesis block) and networking (every
 *   validator is connected);
 * - `bootstrapped` (also the only readiness check), `network` (peers, the last message each way, and from v1.13.0,
 *   once the node has run 10 minutes, its inbound connections as a validator), `router`, `database`, `diskspace`
 *   (a disk the chains' blocks fill), `bls` (v1.13.0: the node's key against the validator set's) and
 *   `futureupgrade` (v1.14.1: the upgrade time its validator peers announce, by stake).
 *
 * Fields follow the release (`--node-version`); Go writes maps with sorted keys. A check runs at the world's time
 * and takes a typical duration; a failing one counts its runs, every 30 s (`--health-check-frequency`), since the
 * failure began.
 */
import type { HealthKind, HealthReport } from './types.ts';
import { SECOND, goDuration, goTime } from './go-time.ts';
import { type GoJson, goMap } from './json-go.ts';
import { EMPTY_ID } from './networks.ts';
import { lastAt, nodeIdentity, peersOf } from './node-identity.ts';
import { upgradeTime } from './reads-info.ts';
import { validatorSet } from './stakers.ts';
import type { World } from './world.ts';

const FREQUENCY = 30n * SECOND;
/** constants.DefaultNoIngressValidatorConnectionGracePeriod. */
const INGRESS_GRACE = 600n * SECOND;

/**
 * The C-Chain's genesis block ID: Mainnet's and Fuji's (the same block), and the local network's, whose header has
 * the fields of every upgrade the release activates at genesis (vms/saevm/cchain TestHistoricalGenesisHashes).
 */
const C_GENESIS = {
  live: 'NwH5W45Ho9TgNwPbsmX8hQqwmshaks3issR1Nza8ULNdyYsGE',
  local: [
    { since: [1, 14, 0], id: 'jXM4J36kLkSjgg1XgdrSPGtqAHxwok4NdcSx8j1hCmGUna9Ac' },
    { since: [1, 12, 0], id: 'BRAjXJSZWwhknUQ8Jod3nWre9PtiFdBn2dc9GDZtccvKFg2tW' },
    { since: [1, 11, 0], id: '2dPQ4DTKcq6ACxj1WWGiR7zpGUFAYojdaJu6S17D5j8EeCxHy5' },
    { since: [0, 0, 0], id: '2aGU9m7v6BGjHkV3uUbHCZquvsjjTAK4Sd9vzqH1D3m3nh7n3H' },
  ],
};

/** How long each check typically takes on an idle node, in nanoseconds. */
const DURATIONS: Record<string, bigint> = {
  C: 24917n,
  P: 9042n,
  X: 19500n,
  bls: 2333n,
  bootstrapped: 4167n,
  database: 1625n,
  diskspace: 3042n,
  futureupgrade: 31208n,
  network: 2958n,
  router: 2542n,
};

/** The disk the node's database lives on: 1 TiB of 4 KiB blocks, of which this much is free before any block. */
const DISK = { blockSize: 4096n, blocks: 268_435_456n, freeAtGenesis: 227_332_591_616n };

/** `[major, minor, patch]` of `avalanchego/1.14.2`; a version that names no release is the newest. */
function releaseOf(version: string): [number, number, number] {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [Number.MAX_SAFE_INTEGER, 0, 0];
}

const since = (release: readonly number[], first: readonly number[]) => {
  for (let i = 0; i < 3; i++) if (release[i] !== first[i]) return release[i]! > first[i]!;
  return true;
};

interface Outcome {
  message?: GoJson;
  error?: string;
  /** When the failure began (Unix nanoseconds); the node's start when unknown. */
  failingSince?: bigint;
}

export function healthReport(world: World, kind: HealthKind, version: string): HealthReport {
  if (kind === 'liveness') return { checks: {}, healthy: true };
  const now = world.time.get() * SECOND;
  const started = world.network.startTime * SECOND;
  const result = (name: string, outcome: Outcome) => {
    const end = now + DURATIONS[name]!;
    if (outcome.error === undefined)
      return {
        ...(outcome.message === undefined ? {} : { message: outcome.message }),
        timestamp: goTime(end),
        duration: Number(DURATIONS[name]),
      };
    // This run is at the world's time and the worker ran every FREQUENCY before it: each run since the failure
    // began failed, the earliest of them first.
    const from = outcome.failingSince ?? started;
    const earlier = now > from ? (now - from) / FREQUENCY : 0n;
    return {
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
      error: outcome.error,
      timestamp: goTime(end),
      duration: Number(DURATIONS[name]),
      contiguousFailures: Number(earlier + 1n),
      timeOfFirstFailure: goTime(end - earlier * FREQUENCY),
    };
  };
  const bootstrapped = result('bootstrapped', { message: [] });
  if (kind === 'readiness') return { checks: { bootstrapped }, healthy: true };

  const release = releaseOf(version);
  const outcomes: Record<string, Outcome> = {
    C: { message: chainMessage(release, 'C', 0, cGenesis(world, release)) },
    P: { message: chainMessage(release, 'P', world.tip('P').height, world.tip('P').id) },
    X: { message: chainMessage(release, 'X', world.tip('X').height, world.tip('X').id) },
    bootstrapped: { message: [] },
    database: {},
    diskspace: { message: diskMessage(world, release) },
    network: networkOutcome(world, release, now, started),
    router: { message: goMap({ longestRunningRequest: '0s', outstandingRequests: 0 }) },
  };
  if (since(release, [1, 13, 0])) outcomes.bls = blsOutcome(world);
  if (since(release, [1, 14, 1])) outcomes.futureupgrade = futureUpgradeOutcome(world);
  const checks = Object.fromEntries(
    Object.keys(outcomes)
      .sort()
      .map((name) => [name, result(name, outcomes[name]!)]),
  );
  const healthy = Object.values(outcomes).every((o) => o.error === undefined);
  return { checks, healthy };
}

function cGenesis(world: World, release: readonly number[]): string {
  if (world.network.name !== 'local') return C_GENESIS.live;
  return C_GENESIS.local.find((g) => since(release, g.since))!.id;
}

/** handler.HealthCheck: the engine's consensus and VM reports and, since v1.11.0, the chain's networking. */
function chainMessage(release: readonly number[], chain: string, height: number, id: string): GoJson {
  if (!since(release, [1, 11, 0]))
    return {
      consensus: goMap({ longestRunningBlock: '0s', outstandingBlocks: 0 }),
      // The platformvm reported its connected stake until v1.11.0; the other VMs report nothing.
      vm: chain === 'P' ? { 'primary-percentConnected': 1 } : null,
    };
  const consensus: Record<string, GoJson> = {
    lastAcceptedHeight: height,
    lastAcceptedID: id,
    longestProcessingBlock: '0s',
    processingBlocks: 0,
  };
  // The average of acceptance latencies the node measured; blocks the mock accepts take none.
  if (since(release, [1, 14, 2])) consensus.avgAcceptanceTime = '0s';
  const networking: Record<string, GoJson> = { percentConnected: 1 };
  if (since(release, [1, 11, 13])) networking.disconnectedValidators = [];
  return goMap({ engine: goMap({ consensus: goMap(consensus), vm: null }), networking: goMap(networking) });
}

/** storage.AvailableBytes of a disk the database fills with the blocks it stores. */
function diskMessage(world: World, release: readonly number[]): GoJson {
  let stored = 0n;
  for (const chain of ['X', 'P'] as const) {
    const blocks = world.blocks[chain];
    for (let i = 0; i < blocks.length; i++) stored += BigInt(blocks.at(i)!.bytes.length);
  }
  const used = (stored + DISK.blockSize - 1n) / DISK.blockSize;
  const freeBlocks = DISK.freeAtGenesis / DISK.blockSize - used;
  const message: Record<string, GoJson> = { availableDiskBytes: Number(freeBlocks * DISK.blockSize) };
  if (since(release, [1, 14, 1])) message.availableDiskPercentage = Number((freeBlocks * 100n) / DISK.blocks);
  return goMap(message);
}

/**
 * network.HealthCheck: connected to at least one peer, messages both ways within the last minute, and as a validator
 * reached by peers. Peers are the other current validators; when the last of them ended its staking period, that is
 * when the last messages went by.
 */
function networkOutcome(world: World, release: readonly number[], now: bigint, started: bigint): Outcome {
  const peers = peersOf(world);
  const self = nodeIdentity(world).nodeID;
  const message: Record<string, GoJson> = { connectedPeers: peers.length, sendFailRate: 0 };
  const lastEnd = [...world.stakers.values()]
    .filter((s) => s.subnetID === EMPTY_ID && s.nodeID !== self && s.endTime * SECOND <= now)
    .reduce<bigint | undefined>(
      (last, s) => (last === undefined || s.endTime * SECOND > last ? s.endTime * SECOND : last),
      undefined,
    );
  const sinceLast = (phase: (p: (typeof peers)[number]) => bigint) =>
    peers.length > 0
      ? peers.map((p) => now - lastAt(now, phase(p))).reduce((a, b) => (a < b ? a : b))
      : lastEnd === undefined
        ? undefined
        : now - lastEnd;
  const received = sinceLast((p) => p.receivedPhase);
  const sent = sinceLast((p) => p.sentPhase);
  if (received !== undefined) message.timeSinceLastMsgReceived = goDuration(received);
  if (sent !== undefined) message.timeSinceLastMsgSent = goDuration(sent);
  const isValidator = validatorSet(world, EMPTY_ID).some((v) => v.nodeID === self);
  const graceOver = since(release, [1, 13, 0]) && now - started > INGRESS_GRACE;
  // Every peer dialed this node (./node-identity.ts): all its connections are inbound.
  if (graceOver)
    message['primary network validator health'] = goMap({
      ingressConnectionCount: peers.length,
      primaryNetworkValidator: isValidator,
    });
  if (peers.length > 0) return { message: goMap(message) };
  const reasons = ['not connected to a minimum of 1 peer(s) only 0'];
  for (const [since, what] of [
    [received, 'received'],
    [sent, 'sent'],
  ] as const) {
    if (since === undefined) reasons.push(`no messages ${what === 'sent' ? 'sent to' : 'received from'} network`);
    else if (since > 60n * SECOND) reasons.push(`no messages from network ${what} in ${goDuration(since)} > 1m0s`);
  }
  if (graceOver && isValidator) reasons.push('primary network validator has no inbound connections');
  return {
    message: goMap(message),
    error: `network layer is unhealthy reason: ${reasons.join(', ')}`,
    failingSince: lastEnd ?? started,
  };
}

/** The node's BLS key against the one the Primary Network's validator set holds for it. */
function blsOutcome(world: World): Outcome {
  const identity = nodeIdentity(world);
  const entry = validatorSet(world, EMPTY_ID).find((v) => v.nodeID === identity.nodeID);
  if (!entry) return { message: 'node is not a validator' };
  if (entry.publicKey === null) return { message: "validator doesn't have a BLS key" };
  if (entry.publicKey === identity.publicKey) return { message: 'node has the correct BLS key' };
  return {
    error: `node has BLS key ${identity.publicKey}, but is registered to the validator set with ${entry.publicKey}`,
  };
}

/**
 * The upgrade time the validator peers announce in their handshakes, weighted by stake, against this node's own
 * (Granite's). Every peer runs a release of the same line, so they all announce this node's time and it is due to no
 * upgrade it does not know.
 */
function futureUpgradeOutcome(world: World): Outcome {
  const validators = new Map(validatorSet(world, EMPTY_ID).map((v) => [v.nodeID, v.weight]));
  const total = [...validators.values()].reduce((a, b) => a + b, 0n);
  if (total === 0n) return { error: 'no validators in the current validator set' };
  const local = upgradeTime(world, 'granite');
  const announced = BigInt(Date.parse(local) / 1000);
  let weight = 0n;
  let count = 0;
  for (const peer of peersOf(world)) {
    const w = validators.get(peer.nodeID);
    if (w === undefined) continue;
    weight += w;
    count++;
  }
  return {
    message: goMap({
      localUpgradeTime: local,
      modeUpgradeTime: goTime(count === 0 ? 0n : announced * SECOND),
      modeUpgradeWeightPercentage: 100 * (Number(weight) / Number(total)),
      numUpgradeTimes: count === 0 ? 0 : 1,
    }),
  };
}
