/**
 * The validator sets of every subnet through the P-Chain's history, kept as the node's validator manager keeps them
 * (vms/platformvm/validators, state's weight and public key diffs): the set at the last accepted block, and per
 * block the changes it made (each validator's weight and BLS key before it). The set at height h is the current set
 * with the diffs of the blocks above h undone, so an old height answers the validators, weights and keys it had even
 * after stakers left, were removed or changed weight.
 *
 * A validator's weight is its own stake plus its current delegators' at the block's time, its key its own or (a
 * permissioned subnet validator) its node's Primary Network key; an L1 validator counts while its weight is not
 * zero. Both records are journaled world tables (snapshots and --state cover them).
 */
import { EMPTY_ID } from './networks.ts';
import { EMPTY_NODE_ID, inCurrentSet } from './stakers.ts';
import type { Block } from './types.ts';
import type { World } from './world.ts';

export interface SetEntry {
  subnetID: string;
  nodeID: string;
  weight: bigint;
  publicKey: string | null;
}

/** One block's changes: each validator's entry before the block (null: it was not in the set) and after. */
export interface ValidatorDiff {
  height: number;
  changes: Array<{ subnetID: string; nodeID: string; before: SetEntry | null; after: SetEntry | null }>;
}

const keyOf = (subnetID: string, nodeID: string) => `${subnetID} ${nodeID}`;

/** Every subnet's validator set from the stakers and L1 validators at `time`. */
function liveSets(world: World, time: bigint): Map<string, SetEntry> {
  const out = new Map<string, SetEntry>();
  const byTx = new Map<string, SetEntry>();
  const stakers = [...world.stakers.values()].filter((s) => inCurrentSet(world, s, time));
  // A subnet validator signs with the BLS key its node registered on the Primary Network (the node's manager copies
  // the primary validator's key into every subnet's set).
  const primaryKeys = new Map<string, string>();
  for (const s of stakers)
    if (s.subnetID === EMPTY_ID && !s.validatorTxID && s.signer) primaryKeys.set(s.nodeID, s.signer.publicKey);
  for (const s of stakers) {
    if (s.validatorTxID) continue;
    const publicKey = s.signer?.publicKey ?? primaryKeys.get(s.nodeID) ?? null;
    const entry = { subnetID: s.subnetID, nodeID: s.nodeID, weight: s.weight, publicKey };
    byTx.set(s.txID, entry);
    out.set(keyOf(s.subnetID, s.nodeID), entry);
  }
  for (const d of stakers) {
    const validator = d.validatorTxID ? byTx.get(d.validatorTxID) : undefined;
    if (validator) validator.weight += d.weight;
  }
  // L1 validators as the validator manager holds them (state/l1_validator.go addL1ValidatorToValidatorManager): the
  // active under their own node ID and key, the inactive (no balance left) together under the empty node ID, keyless.
  for (const v of world.l1Validators.values()) {
    if (v.weight === 0n) continue;
    if (v.balance > 0n) {
      out.set(keyOf(v.subnetID, v.nodeID), {
        subnetID: v.subnetID,
        nodeID: v.nodeID,
        weight: v.weight,
        publicKey: v.publicKey,
      });
      continue;
    }
    const key = keyOf(v.subnetID, EMPTY_NODE_ID);
    const inactive = out.get(key) ?? { subnetID: v.subnetID, nodeID: EMPTY_NODE_ID, weight: 0n, publicKey: null };
    inactive.weight += v.weight;
    out.set(key, inactive);
  }
  return out;
}

const same = (a: SetEntry | undefined, b: SetEntry | undefined) =>
  a?.weight === b?.weight && a?.publicKey === b?.publicKey;

/** Records what an accepted P-Chain block changed in the validator sets (called by World.acceptBlock). */
export function recordValidatorSets(world: World, block: Block): void {
  const live = liveSets(world, block.timestamp);
  const changes: ValidatorDiff['changes'] = [];
  for (const [key, before] of world.validatorSets.entries()) {
    const after = live.get(key);
    if (!same(before, after))
      changes.push({ subnetID: before.subnetID, nodeID: before.nodeID, before, after: after ?? null });
  }
  for (const [key, after] of live) {
    if (!world.validatorSets.has(key))
      changes.push({ subnetID: after.subnetID, nodeID: after.nodeID, before: null, after });
  }
  for (const change of changes) {
    const key = keyOf(change.subnetID, change.nodeID);
    if (change.after) world.validatorSets.set(key, change.after);
    else world.validatorSets.delete(key);
  }
  world.validatorDiffs.push({ height: block.height, changes });
}

/**
 * The validator set of a subnet at a P-Chain height (at most the tip), sorted by node ID. At the tip it is the
 * current state's set, as the node's validator manager answers the last accepted height from its current validators:
 * the chain time moved without a block (dev.setTime with `mine: false`) has already ended the stakers it passed, and
 * getCurrentValidators, getTotalStake and sampleValidators no longer count them, so neither does the tip.
 */
export function validatorSetAt(world: World, subnetID: string, height: number): SetEntry[] {
  const set = new Map<string, SetEntry>();
  if (height >= world.tip('P').height) {
    for (const entry of liveSets(world, world.time.get()).values())
      if (entry.subnetID === subnetID) set.set(entry.nodeID, entry);
    return sorted(set);
  }
  for (const entry of world.validatorSets.values()) if (entry.subnetID === subnetID) set.set(entry.nodeID, entry);
  for (let i = world.validatorDiffs.length - 1; i >= 0; i--) {
    const diff = world.validatorDiffs.at(i)!;
    if (diff.height <= height) break;
    for (const change of diff.changes) {
      if (change.subnetID !== subnetID) continue;
      if (change.before) set.set(change.nodeID, change.before);
      else set.delete(change.nodeID);
    }
  }
  return sorted(set);
}

const sorted = (set: Map<string, SetEntry>) =>
  [...set.values()].sort((a, b) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0));
