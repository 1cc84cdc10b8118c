/**
 * The P-Chain's dynamic fee state after Etna (vms/components/gas/state.go): time refills the capacity and drains the
 * excess (AdvanceTime, run by txs/executor/state_changes.go advanceTimeTo), every accepted block consumes its
 * transactions' gas (ConsumeGas, block/executor/verifier.go). The gas price follows the excess (p.ts gasPrice).
 *
 * The node's block time is max(parent time, wall clock), so its blocks are seconds apart and the capacity refills
 * between them. The mock's block time is its world clock, which stands still between dev time calls: a block whose
 * time did not move is taken as one second after its parent's (BLOCK_SECONDS_MIN), or automine would run the
 * capacity dry after a few dozen transactions and stop the chain.
 */
import { upgradeActive } from '../world/reads-info.ts';
import type { FeeState, WorldConfig } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Transaction } from './codec.ts';
import { avalanche } from '../shared/avalanche.ts';

const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;
/** The least time between two of the mock's blocks, for the fee state only (see above). */
const BLOCK_SECONDS_MIN = 1n;

const FEE_TEXTS = {
  // vms/components/gas/state.go ErrInsufficientCapacity
  insufficientCapacity: 'insufficient capacity',
} as const;

/** gas.State.AdvanceTime: capacity += maxPerSecond·Δt (capped), excess -= targetPerSecond·Δt (floored at 0). */
export function advanceGasState(state: FeeState, config: WorldConfig['fee'], seconds: bigint): FeeState {
  const refilled = state.capacity + config.maxPerSecond * seconds;
  const drained = state.excess - config.targetPerSecond * seconds;
  return {
    capacity: refilled > config.maxCapacity ? config.maxCapacity : refilled,
    excess: drained < 0n ? 0n : drained,
    timestamp: state.timestamp + seconds,
  };
}

/** gas.State.ConsumeGas: refused when the capacity is short; the excess saturates at MaxUint64. */
export function consumeGas(state: FeeState, gas: bigint): FeeState {
  if (state.capacity < gas) throw new Error(FEE_TEXTS.insufficientCapacity);
  const excess = state.excess + gas;
  return { ...state, capacity: state.capacity - gas, excess: excess > MAX_UINT64 ? MAX_UINT64 : excess };
}

/** The transaction's gas: its complexity (vms/platformvm/txs/fee) by the network's weights. */
export function txGas(world: World, tx: Transaction): bigint {
  const { weights } = world.config.fee;
  const byWeight = { 0: weights[0], 1: weights[1], 2: weights[2], 3: weights[3] };
  return avalanche().pvm.calculateFee(tx, byWeight, 1n) as bigint;
}

/** Whether the P-Chain meters gas at `time` (Etna on). */
export const metered = (world: World, time: bigint): boolean => upgradeActive(world, 'etna', time);

/** The fee state advanced to `time` (never back: a state already past it is kept). */
export function feeStateAt(world: World, time: bigint): FeeState {
  const state = world.feeState.get();
  return time > state.timestamp ? advanceGasState(state, world.config.fee, time - state.timestamp) : state;
}

/**
 * The fee state the next block starts from: advanced to the chain time, and by at least BLOCK_SECONDS_MIN since the
 * last block. What the node's VerifyTx prices an issued transaction at (it advances to the next block's time first).
 */
export function nextBlockFeeState(world: World): FeeState {
  const state = world.feeState.get();
  const time = world.time.get();
  const seconds = time - state.timestamp;
  const advanced = advanceGasState(state, world.config.fee, seconds > BLOCK_SECONDS_MIN ? seconds : BLOCK_SECONDS_MIN);
  return { ...advanced, timestamp: time > state.timestamp ? time : state.timestamp };
}
