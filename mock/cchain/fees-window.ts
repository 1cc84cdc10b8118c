/**
 * The C-Chain's dynamic fees before Fortuna, as coreth had them from Apricot Phase 3 to Etna (coreth v0.12-v0.14,
 * AvalancheGo v1.10-v1.12: consensus/dummy/dynamic_fees.go CalcBaseFee, params/avalanche_params.go): each block's
 * header carries a window of the gas used in each of the last 10 seconds; a block's base fee is its parent's, moved by
 * how far the window's sum is from the target gas, divided by a change denominator (and the decrease multiplied by
 * every 10 s without a block), within the era's bounds. The gas price oracle of the releases before v1.14.0
 * (eth/gasprice, DefaultFullGPOConfig) takes the 60th percentile of the last 40 blocks' minimum required tips and of
 * their base fees, within the last 80 seconds; the tip is at least the tx pool's price limit, 1 wei.
 */
import { stepBlockGasCost } from './coreth-block.ts';

const GWEI = 1_000_000_000n;
/** params: ApricotPhase3InitialBaseFee, also the genesis block's base fee (core/genesis.go) and the oracle's default. */
export const INITIAL_BASE_FEE = 225n * GWEI;
const AP3 = { min: 75n * GWEI, max: 225n * GWEI, target: 10_000_000n, denominator: 12n };
const AP4 = { min: 25n * GWEI, max: 1_000n * GWEI, target: 10_000_000n, denominator: 12n };
const AP5 = { min: 25n * GWEI, max: undefined, target: 15_000_000n, denominator: 36n };
const ETNA = { ...AP5, min: GWEI };
/** params.RollupWindow, in seconds; dummy.ApricotPhase3BlockGasFee, ApricotPhase4BlockGasCostStep. */
const WINDOW = 10;
const AP3_BLOCK_GAS_FEE = 1_000_000n;
const AP4_BLOCK_GAS_COST_STEP = 50_000n;
const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;
/** eth/ethconfig DefaultFullGPOConfig, gasprice.DefaultMinGasUsed and DefaultMaxPrice, txpool's PriceLimit. */
const CHECK_BLOCKS = 40;
const PERCENTILE = 60;
const MAX_LOOKBACK_SECONDS = 80n;
const MIN_GAS_USED = 6_000_000n;
/** gasprice.DefaultMinGasUsed in v1.13.x (coreth v0.15): acp176.MinTargetPerSecond. */
const ESTIMATED_MIN_GAS_USED = 1_000_000n;
const MAX_TIP = 150n * GWEI;
const MIN_TIP = 1n;

/** The eras whose rules apply to a block, by its parent's time as CalcBaseFee reads them. */
export interface WindowEra {
  apricotPhase4: boolean;
  apricotPhase5: boolean;
  etna: boolean;
}

/** What a block's header holds of the fee rules: its window (the Extra field), base fee and gas. */
export interface WindowState extends HeaderFees {
  kind: 'window';
  genesis: boolean;
  time: bigint;
  window: bigint[];
}

export const windowGenesis = (time: bigint, blockGasCost: bigint | undefined): WindowState => ({
  kind: 'window',
  genesis: true,
  time,
  window: Array<bigint>(WINDOW).fill(0n),
  baseFee: INITIAL_BASE_FEE,
  gasUsed: 0n,
  atomicGas: 0n,
  blockGasCost,
});

const saturate = (n: bigint) => (n > MAX_UINT64 ? MAX_UINT64 : n);

/** CalcBaseFee: the window and base fee of a block at `time` on `parent`, under the parent's era. */
export function windowBaseFee(
  parent: WindowState,
  era: WindowEra,
  time: bigint,
): { window: bigint[]; baseFee: bigint } {
  if (parent.genesis) return { window: Array<bigint>(WINDOW).fill(0n), baseFee: INITIAL_BASE_FEE };
  const roll = time > parent.time ? Number(time - parent.time) : 0;
  const window = [...parent.window.slice(Math.min(roll, WINDOW)), ...Array<bigint>(Math.min(roll, WINDOW)).fill(0n)];
  const rules = era.etna ? ETNA : era.apricotPhase5 ? AP5 : era.apricotPhase4 ? AP4 : AP3;
  if (roll < WINDOW) {
    let added = parent.gasUsed + parent.atomicGas;
    if (!era.apricotPhase5) {
      added += era.apricotPhase4
        ? stepBlockGasCost(parent.blockGasCost, parent.time, time, AP4_BLOCK_GAS_COST_STEP)
        : AP3_BLOCK_GAS_FEE;
    }
    window[WINDOW - 1 - roll] = saturate(window[WINDOW - 1 - roll]! + saturate(added));
  }
  const total = saturate(window.reduce((sum, gas) => sum + gas, 0n));
  let baseFee = parent.baseFee;
  if (total !== rules.target) {
    const off = total > rules.target ? total - rules.target : rules.target - total;
    let delta = (off * parent.baseFee) / rules.target / rules.denominator;
    if (delta < 1n) delta = 1n;
    if (total > rules.target) baseFee += delta;
    else baseFee -= roll > WINDOW ? delta * BigInt(Math.floor(roll / WINDOW)) : delta;
  }
  if (baseFee < rules.min) baseFee = rules.min;
  if (rules.max !== undefined && baseFee > rules.max) baseFee = rules.max;
  return { window, baseFee };
}

/** What a block's header holds that the oracle reads: its base fee, gas (the EVM's, its atomic txs') and block gas cost. */
export interface HeaderFees {
  baseFee: bigint;
  gasUsed: bigint;
  atomicGas: bigint;
  /** BlockGasCost, undefined before AP4. */
  blockGasCost: bigint | undefined;
}

/** A block as the oracle reads it, genesis excluded: its time and its header. */
export interface OracleBlock {
  timestamp: bigint;
  state: HeaderFees;
}

const percentile = (values: bigint[]) => {
  values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return values[Math.floor(((values.length - 1) * PERCENTILE) / 100)]!;
};

/**
 * The oracle of the releases before v1.14.0 over the newest blocks first (genesis excluded), at chain time `now`: the
 * tip is the 60th percentile of each block's minimum required tip, BlockGasCost × BaseFee / its gas, 0 for a block
 * under MinGasUsed (before v1.13.0: dummy.MinRequiredTip, rounded down, 6,000,000 of the EVM's gas; `estimated`, in
 * v1.13.x: customheader.EstimateRequiredTip, rounded up, 1,000,000 with the atomic gas); the base fee is the 60th
 * percentile of theirs (the default, 225 gwei, when no block is recent enough), which releases before v1.13.0 cap by
 * the next block's and v1.13.x does not use.
 */
export function requiredTipSuggestion(
  newestFirst: readonly OracleBlock[],
  now: bigint,
  estimated: boolean,
): { tip: bigint; baseFee: bigint } {
  const tips: bigint[] = [];
  const baseFees: bigint[] = [];
  for (const { timestamp, state } of newestFirst.slice(0, CHECK_BLOCKS)) {
    if (timestamp + MAX_LOOKBACK_SECONDS < now) break;
    const gas = state.gasUsed + state.atomicGas;
    const counted = estimated ? gas >= ESTIMATED_MIN_GAS_USED : state.gasUsed >= MIN_GAS_USED;
    let required = 0n;
    if (counted && state.blockGasCost !== undefined && gas > 0n)
      required = (state.blockGasCost * state.baseFee + (estimated ? gas - 1n : 0n)) / gas;
    tips.push(required);
    baseFees.push(state.baseFee);
  }
  const tip = tips.length ? percentile(tips) : MIN_TIP;
  return {
    tip: tip > MAX_TIP ? MAX_TIP : tip < MIN_TIP ? MIN_TIP : tip,
    baseFee: baseFees.length ? percentile(baseFees) : INITIAL_BASE_FEE,
  };
}
