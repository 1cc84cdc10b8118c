/**
 * Who is connected, and each node's uptime, as the mock node sees them: state, not an assumption. Genesis stakers
 * (the network's own nodes) are connected from genesis; a node staked by a transaction is not until a test says so
 * (`dev.setConnection`), as a node that never ran is not. At the end of a staking period the node pays a reward only
 * when the validator's uptime since its start reaches the requirement (block/executor/options.go prefersCommit).
 */
import type { Staker } from './types.ts';
import type { World } from './world.ts';

export interface UptimeRecord {
  connected: boolean;
  /** Seconds the node was up until `since`. */
  upSeconds: bigint;
  /** The chain time `upSeconds` counts to (the last change). */
  since: bigint;
}

/** genesis/genesis_{local,fuji,mainnet}.go UptimeRequirement: .8 on every network. */
const UPTIME_REQUIREMENT = 0.8;

export const isConnected = (world: World, nodeID: string): boolean => world.uptimes.get(nodeID)?.connected ?? false;

/** The seconds a node was up by `at`. */
function upSecondsAt(record: UptimeRecord | undefined, at: bigint): bigint {
  if (!record) return 0n;
  return record.upSeconds + (record.connected && at > record.since ? at - record.since : 0n);
}

/**
 * uptime.Calculator CalculateUptimePercentFrom: the share of the time from `start` to `at` the node was up (1 when no
 * time has passed).
 */
export function uptimeFrom(world: World, nodeID: string, start: bigint, at = world.time.get()): number {
  if (at <= start) return 1;
  const up = upSecondsAt(world.uptimes.get(nodeID), at);
  const possible = at - start;
  return up >= possible ? 1 : Number((up * 1_000_000n) / possible) / 1_000_000;
}

/** Connects or disconnects a node from now on; `uptime` (0 to 1) also sets its uptime since `start` as of now. */
export function setConnection(
  world: World,
  nodeID: string,
  change: { connected?: boolean; uptime?: number; start?: bigint },
): void {
  const now = world.time.get();
  const record = world.uptimes.get(nodeID);
  let upSeconds = upSecondsAt(record, now);
  if (change.uptime !== undefined) {
    const span = now - (change.start ?? now);
    upSeconds = span > 0n ? (BigInt(Math.round(change.uptime * 1_000_000)) * span) / 1_000_000n : 0n;
  }
  world.uptimes.set(nodeID, { connected: change.connected ?? record?.connected ?? false, upSeconds, since: now });
}

/** Whether the node rewards `staker` at the end of its period: its Primary Network validator's uptime suffices. */
export function earnsReward(world: World, staker: Staker, validatorStart: bigint): boolean {
  return uptimeFrom(world, staker.nodeID, validatorStart, staker.endTime) >= UPTIME_REQUIREMENT;
}
