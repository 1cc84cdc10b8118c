/**
 * The staking reward a validator or delegator is promised: vms/platformvm/reward/calculator.go, in the node's units
 * (durations in nanoseconds, rates in parts per million) so that every integer division truncates where the node's
 * does.
 */
import type { Staker, WorldConfig } from './types.ts';
import type { World } from './world.ts';

const PERCENT_DENOMINATOR = 1_000_000n;
const NANOS = 1_000_000_000n;

export function potentialReward(
  config: WorldConfig['staking']['rewardConfig'],
  durationSeconds: bigint,
  stakedAmount: bigint,
  currentSupply: bigint,
): bigint {
  const duration = durationSeconds * NANOS;
  const mintingPeriod = config.mintingPeriod * NANOS;
  const numerator =
    (config.maxConsumptionRate - config.minConsumptionRate) * duration + config.minConsumptionRate * mintingPeriod;
  const denominator = mintingPeriod * PERCENT_DENOMINATOR;
  const remaining = config.supplyCap > currentSupply ? config.supplyCap - currentSupply : 0n;
  if (currentSupply === 0n) return 0n;
  const reward = (remaining * numerator * stakedAmount * duration) / denominator / currentSupply / mintingPeriod;
  return reward > remaining ? remaining : reward;
}

const UINT64 = 1n << 64n;

/**
 * reward.Split: the validator's part (`shares`, parts per million) of a delegator's reward. The node rounds the
 * delegator's remainder down, so this part rounds up; past uint64 it divides first, as the node does.
 */
export function delegateeShare(total: bigint, shares: number): bigint {
  const remainderShares = PERCENT_DENOMINATOR - BigInt(shares);
  const product = remainderShares * total;
  return total - (product < UINT64 ? product / PERCENT_DENOMINATOR : remainderShares * (total / PERCENT_DENOMINATOR));
}

/**
 * GetDelegateeReward: the fees a validator's delegators that already ended (their rewards paid) accrued to it, paid
 * with its own reward when it ends. Derived from the stakers, so snapshots and --state files need nothing more.
 */
export function accruedDelegateeReward(world: World, validator: Staker): bigint {
  let sum = 0n;
  for (const staker of world.stakers.values())
    if (staker.validatorTxID === validator.txID && world.rewardUtxos.has(staker.txID) && staker.rewarded !== false)
      sum += delegateeShare(staker.potentialReward, validator.delegationFee ?? 0);
  return sum;
}
