/**
 * The C-Chain's dynamic fees since Fortuna (ACP-176: vms/evm/acp176, coreth plugin/evm/customheader
 * dynamic_fee_state.go), in place of the engine's EIP-1559: each block's fee state (gas capacity and excess; the target
 * excess stays 0, a node without a `gas-target` keeps its parent's) follows from its parent's, the time between them
 * (milliseconds once Granite is active, else seconds) and the gas it used, its atomic txs' included; the base fee is
 * M·e^(excess/K) with K = 87 × the target. The gas price oracle (eth/gasprice) suggests the 40th percentile of the tips
 * paid in the last 40 blocks of the last 80 seconds, at least 1 wei and at most 150 gwei.
 *
 * Releases before Fortuna (AP3-AP5 windowed base fees, 25 gwei minimum) are not emulated: every release gets ACP-176.
 */
import { gasPrice } from '../engine/p.ts';
import { upgradeActive } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';

/** acp176: MinTargetPerSecond at a target excess of 0, TargetToMax, TimeToFillCapacity, the price conversion. */
const TARGET_PER_SECOND = 1_000_000n;
const MAX_PER_SECOND = TARGET_PER_SECOND * 2n;
const MAX_CAPACITY = MAX_PER_SECOND * 5n;
const PRICE_CONVERSION = TARGET_PER_SECOND * 87n;
const MIN_GAS_PRICE = 1n;
/** eth/ethconfig DefaultFullGPOConfig and gasprice's defaults. */
const CHECK_BLOCKS = 40;
const PERCENTILE = 40;
const MAX_LOOKBACK_SECONDS = 80n;
const MAX_TIP = 150_000_000_000n;

/** The block gas limit under ACP-176 at a target excess of 0 (its MaxCapacity). */
export const BLOCK_GAS_LIMIT = MAX_CAPACITY;

export interface FeeState {
  capacity: bigint;
  excess: bigint;
}

/** A genesis (or pre-Fortuna) parent's: acp176.State's zero value. */
export const ZERO_FEE_STATE: FeeState = { capacity: 0n, excess: 0n };

/** feeStateBeforeBlock: the parent's state advanced from its time to `time` (Unix seconds). */
export function feeStateAt(world: World, parent: FeeState, parentTime: bigint, time: bigint): FeeState {
  const granite = upgradeActive(world, 'granite', time);
  const elapsed = time > parentTime ? time - parentTime : 0n;
  // AdvanceMilliseconds: per-millisecond rates; the mock's block times are whole seconds.
  const [units, perUnit, targetPerUnit] = granite
    ? [elapsed * 1000n, MAX_PER_SECOND / 1000n, TARGET_PER_SECOND / 1000n]
    : [elapsed, MAX_PER_SECOND, TARGET_PER_SECOND];
  const capacity = parent.capacity + perUnit * units;
  const drained = targetPerUnit * units;
  return {
    capacity: capacity < MAX_CAPACITY ? capacity : MAX_CAPACITY,
    excess: parent.excess > drained ? parent.excess - drained : 0n,
  };
}

/** feeStateAfterBlock: gas (the EVM's and the atomic txs') consumed from the state before the block. */
export function feeStateAfter(before: FeeState, gasUsed: bigint): FeeState {
  return { capacity: before.capacity > gasUsed ? before.capacity - gasUsed : 0n, excess: before.excess + gasUsed };
}

/** acp176.State.GasPrice: the base fee, in wei. */
export const baseFeeOf = (state: FeeState): bigint => gasPrice(MIN_GAS_PRICE, state.excess, PRICE_CONVERSION);

/** A block as the oracle reads it: its time and the effective tips its transactions paid. */
export interface TipInfo {
  timestamp: bigint;
  tips: bigint[];
}

/** Oracle.suggestTip over the newest blocks first, at chain time `now`. */
export function suggestTip(newestFirst: readonly TipInfo[], now: bigint): bigint {
  const tips: bigint[] = [];
  for (const block of newestFirst.slice(0, CHECK_BLOCKS)) {
    if (block.timestamp + MAX_LOOKBACK_SECONDS < now) break;
    tips.push(...block.tips);
  }
  if (tips.length === 0) return MIN_GAS_PRICE;
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const price = tips[Math.floor(((tips.length - 1) * PERCENTILE) / 100)]!;
  return price > MAX_TIP ? MAX_TIP : price < MIN_GAS_PRICE ? MIN_GAS_PRICE : price;
}
