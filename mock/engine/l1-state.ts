/**
 * L1 validators over time: the continuous fee (ACP-77) that drains every active validator's balance by the same
 * amount each second, and the warp-message expiries that lapse, as txs/executor/state_changes.go advanceTimeTo does
 * after Etna (advanceValidatorFeeState, removeStaleExpiries; validators/fee/fee.go for the cost).
 */
import { upgradeActive } from '../world/reads-info.ts';
import type { L1Validator, WorldConfig } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { gasPrice } from '../world/fees.ts';
import { feeStateAt } from './fee-state.ts';

const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;

export const L1_TEXTS = {
  // vms/platformvm/txs/executor/standard_tx_executor.go
  etnaNotActive: 'attempting to use an Etna-upgrade feature prior to activation',
  maxActiveValidators: 'already at the max number of active validators',
  noConversion: (subnetID: string) => `could not load subnet conversion for ${subnetID} with: not found`,
  wrongSourceChain: (expected: string, got: string) =>
    `wrong warp message source chain ID expected ${expected} but had ${got}`,
  wrongSourceAddress: (expected: string, got: string) =>
    `wrong warp message source address expected 0x${expected} but got 0x${got}`,
  expired: (expiry: bigint, now: bigint) => `warp message expired at ${expiry} and it is currently ${now}`,
  notYetAllowed: (seconds: bigint, limit: bigint) =>
    `warp message not yet allowed because time is ${seconds} seconds in the future but the limit is ${limit}`,
  alreadyIssued: (validationID: string) => `warp message already issued for validationID ${validationID}`,
  couldNotLoad: 'could not load L1 validator',
  staleNonce: (nonce: bigint, min: bigint) => `warp message contains stale nonce ${nonce} must be at least ${min}`,
  removingLast: 'attempting to remove the last L1 validator from a converted subnet',
  // vms/platformvm/txs/convert_subnet_to_l1_tx.go, increase_l1_validator_balance_tx.go, add_permissionless_…_tx.go
  convertPermissionless: 'cannot convert a permissionless subnet',
  addressTooLong: 'address is too long',
  noValidators: 'conversion must include at least one validator',
  validatorsNotSorted: 'conversion validators must be sorted and unique',
  zeroWeight: 'validator weight must be non-zero',
  emptyNodeID: 'validator nodeID cannot be empty',
  zeroBalance: 'balance must be greater than 0',
  // vms/platformvm/warp/message/register_l1_validator.go, l1_validator_weight.go
  invalidSubnetID: 'invalid subnet ID',
  invalidWeight: 'invalid weight',
  invalidNodeID: 'invalid node ID',
  invalidOwner: 'invalid owner',
  nonceReserved: 'maxUint64 nonce is reserved for removal',
  // vms/platformvm/state/l1_validator.go
  conflictingValidator: 'L1 validator contains conflicting subnetID + nodeID pair',
  duplicateValidator: 'L1 validator contains duplicate subnetID + nodeID pair',
} as const;

/** state.L1Validator.IsActive: weighted and with balance left. */
export const isActive = (v: L1Validator): boolean => v.weight !== 0n && v.balance > 0n;

/** The key of a RegisterL1Validator message's expiry entry (timestamp, validation ID). */
export const expiryKey = (expiry: bigint, validationID: string): string => `${expiry}:${validationID}`;

/** fee.State.AdvanceTime: excess moves by (current - target) per second, floored at 0 and capped at MaxUint64. */
function advanceExcess(excess: bigint, current: bigint, target: bigint, seconds: bigint): bigint {
  const next = excess + (current - target) * seconds;
  return next < 0n ? 0n : next > MAX_UINT64 ? MAX_UINT64 : next;
}

/**
 * fee.State.CostOf: what one active validator pays for `seconds`, the price following the excess second by second.
 * The node loops per second (its blocks are seconds apart); a dev time call may jump a year, so the seconds are taken
 * in runs at one price (the price is monotone in the excess, the excess in time: a run's end is found by galloping
 * search). Exact; `limit` (the largest balance that pays it) stops early: an answer at or above it means "at least".
 */
export function validatorCost(
  config: WorldConfig['validatorFee'],
  current: bigint,
  excess: bigint,
  seconds: bigint,
  limit: bigint = MAX_UINT64,
): bigint {
  const { target, minPrice, excessConversionConstant: k } = config;
  if (current === target) {
    const cost = seconds * gasPrice(minPrice, excess, k);
    return cost > MAX_UINT64 ? MAX_UINT64 : cost;
  }
  let cost = 0n;
  let done = 0n;
  let previous = -1n;
  while (done < seconds && cost < limit) {
    // The excess of the run's first second; at 0 (or MaxUint64) it stays, and so does the price.
    const first = advanceExcess(excess, current, target, 1n);
    const price = gasPrice(minPrice, first, k);
    const samePrice = (n: bigint) => gasPrice(minPrice, advanceExcess(first, current, target, n - 1n), k) === price;
    // Second by second while the price changes every second (a search would cost more); runs once it repeats.
    const length = price === previous ? runLength(seconds - done, samePrice) : 1n;
    previous = price;
    cost += price * length;
    // Saturated like the node's safemath: nothing more to add.
    if (cost >= MAX_UINT64) return MAX_UINT64;
    done += length;
    excess = advanceExcess(first, current, target, length - 1n);
  }
  return cost;
}

/** The largest n in [1, most] with `good(n)`, where good(1) holds and good is true then false: galloping search. */
function runLength(most: bigint, good: (n: bigint) => boolean): bigint {
  let low = 1n;
  let high = 2n;
  while (high <= most && good(high)) {
    low = high;
    high *= 2n;
  }
  if (high > most) {
    if (good(most)) return most;
    high = most;
  }
  // good(low), not good(high)
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (good(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** Advances the L1 validators' fee state to `time`: balances drain, the exhausted become inactive, expiries lapse. */
export function advanceL1(world: World, time: bigint): void {
  const previous = world.time.get();
  if (time <= previous || !upgradeActive(world, 'etna', time)) return;
  world.feeState.set(feeStateAt(world, time));
  for (const [key, expiry] of [...world.l1Expiries.entries()]) if (expiry <= time) world.l1Expiries.delete(key);
  const seconds = time - previous;
  const active = [...world.l1Validators.values()].filter(isActive);
  const state = world.validatorFeeState.get();
  const current = BigInt(active.length);
  // Past the largest balance every validator is drained whatever the exact cost: no need to count further.
  const largest = active.reduce((most, v) => (v.balance > most ? v.balance : most), 0n);
  const cost = validatorCost(world.config.validatorFee, current, state.excess, seconds, largest);
  for (const v of active)
    world.l1Validators.set(v.validationID, { ...v, balance: v.balance > cost ? v.balance - cost : 0n });
  const excess = advanceExcess(state.excess, current, world.config.validatorFee.target, seconds);
  world.validatorFeeState.set({ ...state, excess, timestamp: time });
}
