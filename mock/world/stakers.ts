/**
 * Who validates what, when: the world's stakers read at a time or a height. A validator's weight in a validator set
 * is its own stake plus its current delegators' (the node's validator manager adds delegations to the validator).
 */
import { cb58Decode } from '../../generators/formats.ts';
import { EMPTY_ID } from './networks.ts';
import type { Staker } from './types.ts';
import { validatorSetAt } from './validator-history.ts';
import type { World } from './world.ts';

export const isCurrent = (staker: Staker, time: bigint) => staker.startTime <= time && time < staker.endTime;

/**
 * txs/priorities.go's current priorities: at the same end time a subnet's permissioned validators come first, then
 * permissionless delegators and validators, the Primary Network's last (delegators before validators).
 */
function priority(s: Staker): number {
  const primary = s.subnetID === EMPTY_ID;
  if (s.validatorTxID) return primary ? 10 : 8;
  if (primary) return 11;
  return s.rewardOwner ? 9 : 7;
}

/**
 * Whether a staker's period ends with a RewardValidatorTx (builder.go getNextStakerToReward): all but a permissioned
 * subnet validator, which the time's advance removes alone. Until that transaction is accepted it stays current.
 */
export const endsWithReward = (s: Staker) => priority(s) !== 7;

/** Whether `staker` is in the current validator set at `time`: started, and not yet rewarded or removed. */
export const inCurrentSet = (world: World, s: Staker, time: bigint) =>
  isCurrent(s, time) || (s.startTime <= time && endsWithReward(s) && !world.rewardUtxos.has(s.txID));

/** The order of the node's current staker iterator (state.Staker.Less): end time, priority, then tx ID bytes. */
export function byIteratorOrder(a: Staker, b: Staker): number {
  if (a.endTime !== b.endTime) return a.endTime < b.endTime ? -1 : 1;
  if (priority(a) !== priority(b)) return priority(a) - priority(b);
  return Buffer.compare(cb58Decode(a.txID) ?? EMPTY, cb58Decode(b.txID) ?? EMPTY);
}
const EMPTY = new Uint8Array(0);

/** A subnet's current validators (delegators apart), as the node's current staker iterator yields them. */
export function validatorsOf(world: World, subnetID: string): Staker[] {
  const time = world.time.get();
  return [...world.stakers.values()]
    .filter((s) => s.subnetID === subnetID && !s.validatorTxID && isCurrent(s, time))
    .sort(byIteratorOrder);
}

/** A validator's current delegators, as the node's delegator iterator yields them. */
export function delegatorsOf(world: World, validator: Staker): Staker[] {
  const time = world.time.get();
  return [...world.stakers.values()]
    .filter((s) => s.validatorTxID === validator.txID && isCurrent(s, time))
    .sort(byIteratorOrder);
}

/** ids.EmptyNodeID, under which the node counts inactive L1 validators' weight. */
export const EMPTY_NODE_ID = 'NodeID-111111111111111111116DBWJs';

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
