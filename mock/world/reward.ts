/**
 * The staking reward a validator or delegator is promised: vms/platformvm/reward/calculator.go, in the node's units
 * (durations in nanoseconds, rates in parts per million) so that every integer division truncates where the node's
 * does.
 */
import type { WorldConfig } from './types.ts';

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
