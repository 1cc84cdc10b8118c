/**
 * Who validates what, when: the world's stakers read at a time or a height. A validator's weight in a validator set
 * is its own stake plus its current delegators' (the node's validator manager adds delegations to the validator).
 */
import type { Staker } from './types.ts';
import { validatorSetAt } from './validator-history.ts';
import type { World } from './world.ts';

export const isCurrent = (staker: Staker, time: bigint) => staker.startTime <= time && time < staker.endTime;

export function validatorsOf(world: World, subnetID: string): Staker[] {
  const time = world.time.get();
  return [...world.stakers.values()]
    .filter((s) => s.subnetID === subnetID && !s.validatorTxID && isCurrent(s, time))
    .sort(byNodeID);
}

export function delegatorsOf(world: World, validator: Staker): Staker[] {
  const time = world.time.get();
  return [...world.stakers.values()].filter((s) => s.validatorTxID === validator.txID && isCurrent(s, time));
}

/** ids.EmptyNodeID, under which the node counts inactive L1 validators' weight. */
export const EMPTY_NODE_ID = 'NodeID-111111111111111111116DBWJs';

const byNodeID = (a: Staker, b: Staker) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0);

/** The validator set of a subnet at a P-Chain height (the tip by default): node ID, BLS key and weight. */
export function validatorSet(
  world: World,
  subnetID: string,
  height = world.tip('P').height,
): Array<{ nodeID: string; publicKey: string | null; weight: bigint }> {
  return validatorSetAt(world, subnetID, height).map(({ nodeID, publicKey, weight }) => ({
    nodeID,
    publicKey,
    weight,
  }));
}
