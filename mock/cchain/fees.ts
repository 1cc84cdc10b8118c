/**
 * The C-Chain's dynamic fees, in place of the engine's EIP-1559, by the rules of the emulated release at each block's
 * time: before Fortuna (a release before v1.13.0, or a block before the network's Fortuna time) the windowed base fee
 * of Apricot Phase 3 to Etna (./fees-window.ts); since Fortuna ACP-176 (vms/evm/acp176, coreth
 * plugin/evm/customheader dynamic_fee_state.go): each block's fee state (gas capacity and excess; the target
 * excess stays 0, a node without a `gas-target` keeps its parent's) follows from its parent's, the time between them
 * (milliseconds once Granite is active, else seconds) and the gas it used, its atomic txs' included; the base fee is
 * M·e^(excess/K) with K = 87 × the target. The gas price oracle (eth/gasprice) since v1.14.0 suggests the 40th
 * percentile of the tips paid in the last 40 blocks of the last 80 seconds, at least 1 wei and at most 150 gwei; before,
 * the blocks' minimum required tips (./fees-window.ts).
 *
 * The engine picks a block's time only as it builds it, so the base fee a block gets is the estimate of one built at
 * its parent's time (EstimateNextBaseFee with no time passed); the state it leaves follows from its real time.
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { gasPrice } from '../world/fees.ts';
import type { World } from '../world/world.ts';
import { blockGasCostOf } from './coreth-block.ts';
import { ruleActive } from './rules.ts';
import {
  type HeaderFees,
  INITIAL_BASE_FEE,
  type WindowState,
  requiredTipSuggestion,
  windowBaseFee,
  windowGenesis,
} from './fees-window.ts';

/** acp176: MinTargetPerSecond at a target excess of 0, TargetToMax, TimeToFillCapacity, the price conversion. */
const TARGET_PER_SECOND = 1_000_000n;
const MAX_PER_SECOND = TARGET_PER_SECOND * 2n;
const MAX_CAPACITY = MAX_PER_SECOND * 5n;
const PRICE_CONVERSION = TARGET_PER_SECOND * 87n;
const MIN_GAS_PRICE = 1n;
/** eth/ethconfig DefaultFullGPOConfig and gasprice's defaults. */
export const CHECK_BLOCKS = 40;
const PERCENTILE = 40;
const MAX_LOOKBACK_SECONDS = 80n;
const MAX_TIP = 150_000_000_000n;

/** The block gas limit under ACP-176 at a target excess of 0 (its MaxCapacity); params.CortinaGasLimit before. */
const ACP176_GAS_LIMIT = MAX_CAPACITY;
const CORTINA_GAS_LIMIT = 15_000_000n;

interface Acp176State extends HeaderFees {
  kind: 'acp176';
  capacity: bigint;
  excess: bigint;
}

/** What a block's header holds of the fee rules of its time. */
export type FeeState = Acp176State | WindowState;

/** A block as the oracle reads it: its time, the effective tips its transactions paid, its fee state. */
export interface TipInfo {
  timestamp: bigint;
  tips: bigint[];
  state: FeeState;
}

/** The fee rules of a C-Chain of the release `release` (the newest when undefined). */
export class FeeRules {
  readonly world: World;
  readonly release: string | undefined;

  constructor(world: World, release: string | undefined) {
    this.world = world;
    this.release = release;
  }

  active(upgrade: string, time: bigint): boolean {
    return ruleActive(this.world, this.release, upgrade, time);
  }

  gasLimit(time: bigint): bigint {
    return this.active('fortuna', time) ? ACP176_GAS_LIMIT : CORTINA_GAS_LIMIT;
  }

  /** The Ethereum fork of coreth's rules at `time`: Cancun with Etna, Shanghai with Durango, London since AP3. */
  hardfork(time: bigint): 'cancun' | 'shanghai' | 'london' {
    return this.active('etna', time) ? 'cancun' : this.active('durango', time) ? 'shanghai' : 'london';
  }

  /** The genesis block's (core/genesis.go: its base fee is ApricotPhase3InitialBaseFee; ACP-176's state is zero). */
  genesis(time: bigint): FeeState {
    const blockGasCost = blockGasCostOf(this.world, time, undefined, this.release);
    if (!this.active('fortuna', time)) return windowGenesis(time, blockGasCost);
    const header = { baseFee: INITIAL_BASE_FEE, gasUsed: 0n, atomicGas: 0n, blockGasCost };
    return { kind: 'acp176', capacity: 0n, excess: 0n, ...header };
  }

  /**
   * The state of a block at `time` on `parent` before its own gas (feeStateBeforeBlock, CalcBaseFee), with the base fee
   * the block was given (the estimate at its parent's time) and its block gas cost.
   */
  before(parent: FeeState, parentTime: bigint, time: bigint): FeeState {
    const header = {
      baseFee: this.baseFeeAt(parent, parentTime, parentTime),
      gasUsed: 0n,
      atomicGas: 0n,
      blockGasCost: blockGasCostOf(
        this.world,
        time,
        { cost: parent.blockGasCost, timestamp: parentTime },
        this.release,
      ),
    };
    if (this.active('fortuna', time)) return { ...this.acp176At(parent, parentTime, time), ...header };
    const { window } = windowBaseFee(this.windowParent(parent, parentTime), this.era(parentTime), time);
    return { kind: 'window', genesis: false, time, window, ...header };
  }

  /** The state after the block's gas: the EVM's and its atomic txs'. */
  after(before: FeeState, gasUsed: bigint, atomicGas: bigint): FeeState {
    if (before.kind === 'window') return { ...before, gasUsed, atomicGas };
    const used = gasUsed + atomicGas;
    return {
      ...before,
      capacity: before.capacity > used ? before.capacity - used : 0n,
      excess: before.excess + used,
      gasUsed,
      atomicGas,
    };
  }

  /** EstimateNextBaseFee: the base fee of a block at `time` on the last one (state `last`, at `lastTime`). */
  nextBaseFee(last: FeeState | undefined, lastTime: bigint, time = lastTime): bigint {
    return last ? this.baseFeeAt(last, lastTime, time) : INITIAL_BASE_FEE;
  }

  /**
   * The gas price oracle of the release at chain time `now` over the blocks newest first, genesis last, whatever the
   * blocks' era: its tip (SuggestTipCap) and base fee (EstimateBaseFee). Before v1.13.0 (coreth v0.14 and older,
   * suggestDynamicFees) the blocks' minimum required tip and the lower of the sampled base fee and the next block's;
   * in v1.13.x (coreth v0.15) their estimated required tip and the next block's base fee; since v1.14.0 the tips their
   * txs paid and the next block's base fee.
   */
  suggest(newestFirst: readonly TipInfo[], now: bigint): { tip: bigint; baseFee: bigint } {
    const newest = newestFirst[0];
    const next = this.nextBaseFee(newest?.state, newest?.timestamp ?? now, now);
    if (!this.olderThan('v1.14.0')) return { tip: suggestTip(newestFirst, now), baseFee: next };
    const estimated = !this.olderThan('v1.13.0');
    const sampled = requiredTipSuggestion(newestFirst.slice(0, -1), now, estimated);
    return { tip: sampled.tip, baseFee: !estimated && sampled.baseFee < next ? sampled.baseFee : next };
  }

  /** Whether the emulated release is older than `release` (the newest is older than none). */
  private olderThan(release: string): boolean {
    return this.release !== undefined && compareVersions(this.release, release) < 0;
  }

  /** CalcBaseFee or ACP-176's price: the base fee of a block at `time` on `parent`. */
  private baseFeeAt(parent: FeeState, parentTime: bigint, time: bigint): bigint {
    if (this.active('fortuna', time))
      return gasPrice(MIN_GAS_PRICE, this.acp176At(parent, parentTime, time).excess, PRICE_CONVERSION);
    return windowBaseFee(this.windowParent(parent, parentTime), this.era(parentTime), time).baseFee;
  }

  private windowParent(parent: FeeState, parentTime: bigint): WindowState {
    return parent.kind === 'window' ? parent : windowGenesis(parentTime, undefined);
  }

  /** The eras whose rules apply to a block, by its parent's time as CalcBaseFee reads them. */
  private era(parentTime: bigint) {
    return {
      apricotPhase4: this.active('apricotPhase4', parentTime),
      apricotPhase5: this.active('apricotPhase5', parentTime),
      etna: this.active('etna', parentTime),
    };
  }

  /** AdvanceSeconds, or AdvanceMilliseconds once Granite is active: the parent's state at `time` (zero before Fortuna). */
  private acp176At(parent: FeeState, parentTime: bigint, time: bigint) {
    const from = parent.kind === 'acp176' ? parent : { capacity: 0n, excess: 0n };
    const elapsed = time > parentTime ? time - parentTime : 0n;
    // Per-millisecond rates under Granite; the mock's block times are whole seconds.
    const [units, perUnit, targetPerUnit] = this.active('granite', time)
      ? [elapsed * 1000n, MAX_PER_SECOND / 1000n, TARGET_PER_SECOND / 1000n]
      : [elapsed, MAX_PER_SECOND, TARGET_PER_SECOND];
    const capacity = from.capacity + perUnit * units;
    const drained = targetPerUnit * units;
    return {
      kind: 'acp176' as const,
      capacity: capacity < MAX_CAPACITY ? capacity : MAX_CAPACITY,
      excess: from.excess > drained ? from.excess - drained : 0n,
    };
  }
}

/** Oracle.suggestTip over the newest blocks first, at chain time `now`. */
function suggestTip(newestFirst: readonly TipInfo[], now: bigint): bigint {
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
