/**
 * Who validates what, when: the world's stakers read at a time or a height. A validator's weight in a validator set
 * is its own stake plus its current delegators' (the node's validator manager adds delegations to the validator).
 */
import type { Staker } from './types.ts';
import type { World } from './world.ts';

export const isCurrent = (staker: Staker, time: bigint) => staker.startTime <= time && time < staker.endTime;

/** The height of the block that added the staker (genesis stakers: 0). */
export function addedAt(world: World, staker: Staker): number {
  return addedHeight(world, staker.txID);
}

function addedHeight(world: World, txID: string | undefined): number {
  const blockID = txID ? world.txs.get(txID)?.blockID : undefined;
  return blockID ? (world.blockIDs.get(blockID)?.height ?? 0) : 0;
}

export function validatorsOf(world: World, subnetID: string, time = world.time.get()): Staker[] {
  return [...world.stakers.values()]
    .filter((s) => s.subnetID === subnetID && !s.validatorTxID && isCurrent(s, time))
    .sort(byNodeID);
}

export function delegatorsOf(world: World, validator: Staker, time = world.time.get()): Staker[] {
  return [...world.stakers.values()].filter((s) => s.validatorTxID === validator.txID && isCurrent(s, time));
}

/** ids.EmptyNodeID, under which the node counts inactive L1 validators' weight. */
export const EMPTY_NODE_ID = 'NodeID-111111111111111111116DBWJs';

const byNodeID = (a: Staker, b: Staker) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0);

/** The validator set of a subnet at a P-Chain height: node ID, BLS key and weight (delegations included). */
export function validatorSet(
  world: World,
  subnetID: string,
  height = world.tip('P').height,
): Array<{ nodeID: string; publicKey: string | null; weight: bigint }> {
  const block = world.blocks.P.at(height);
  if (!block) return [];
  const time = block.timestamp;
  const stakers = [...world.stakers.values()].filter(
    (s) => s.subnetID === subnetID && isCurrent(s, time) && addedAt(world, s) <= height,
  );
  const weights = new Map<string, { nodeID: string; publicKey: string | null; weight: bigint }>();
  for (const s of stakers.filter((v) => !v.validatorTxID))
    weights.set(s.txID, { nodeID: s.nodeID, publicKey: s.signer?.publicKey ?? null, weight: s.weight });
  for (const d of stakers.filter((v) => v.validatorTxID)) {
    const entry = weights.get(d.validatorTxID!);
    if (entry) entry.weight += d.weight;
  }
  // L1 validators as the validator manager holds them (state/l1_validator.go addL1ValidatorToValidatorManager): the
  // active under their own node ID and key, the inactive together under the empty node ID, keyless.
  // The world keeps L1 validators as they are now: a height after their addition reads their current weight and state.
  for (const v of world.l1Validators.values()) {
    if (v.subnetID !== subnetID || v.weight === 0n || addedHeight(world, v.addedBy) > height) continue;
    if (v.balance > 0n) weights.set(v.validationID, { nodeID: v.nodeID, publicKey: v.publicKey, weight: v.weight });
    else {
      const inactive = weights.get(EMPTY_NODE_ID) ?? { nodeID: EMPTY_NODE_ID, publicKey: null, weight: 0n };
      inactive.weight += v.weight;
      weights.set(EMPTY_NODE_ID, inactive);
    }
  }
  return [...weights.values()].sort((a, b) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0));
}
