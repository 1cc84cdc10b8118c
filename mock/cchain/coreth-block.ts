/**
 * A C-Chain block as coreth answers it (AvalancheGo v1.14.2 graft/coreth internal/ethapi/api.go RPCMarshalHeader,
 * RPCMarshalBlock, BlockChainAPI.rpcMarshalBlock): the engine's Ethereum fields plus coreth's header extras, set as
 * coreth's consensus engine sets them (consensus/dummy FinalizeAndAssemble; plugin/evm/customheader), and the block's
 * ExtData. Its `hash` is coreth's, the keccak-256 of coreth's header of those fields (./blocks.ts), and its
 * `parentHash` its parent's: the engine's hashes, of Ethereum headers, are the engine's alone (./block-hashes.ts).
 */
import { RLP } from '@ethereumjs/rlp';
import type { Fork } from '../fork/lazy.ts';
import { ruleActive } from './rules.ts';
import type { World } from '../world/world.ts';
import { type CorethBlock, type RpcBlock, blockBytes, encodeHeader, keccakHex } from './blocks.ts';
import type { AtomicExtra, CChain } from './evm.ts';
import type { FeeState } from './fees.ts';

/** What coreth adds to a block of the engine's, kept per height (./evm.ts). */
export interface CorethExtra {
  /** The block's atomic txs, coreth's ExtData (empty when none). */
  extData: Uint8Array;
  /** Their gas (ExtDataGasUsed). */
  atomicGas: bigint;
  /** BlockGasCost, undefined before AP4. */
  blockGasCost: bigint | undefined;
  /** coreth's hash of the block, its parent's, and the engine's hash of it (lower-case hex). */
  hash: `0x${string}`;
  parentHash: `0x${string}`;
  engineHash: `0x${string}`;
  /** A block of a fork source's history (up to the fork point), under the hash the source gave it. */
  fromSource: boolean;
  /** The header's Extra as coreth writes it (headerExtraOf); undefined for a fork source's block (the engine's). */
  headerExtra: Uint8Array | undefined;
  /**
   * The header's Root: the state after the block's atomic txs and fees, which the mock sets outside the engine's block
   * (./evm.ts acceptBlocks); undefined for a fork source's block (the engine's).
   */
  stateRoot: `0x${string}` | undefined;
}

/**
 * The header's RLP of the block `corethExtraOf` hashed last, which its bytes, made next as it is accepted
 * (`corethBlockBytes`), take as it is: one encoding and one hash per block.
 */
let lastHeader: { extra: CorethExtra; encoded: Uint8Array } | undefined;

/** acp226.InitialDelayExcess: the min delay excess every Granite block carries while no builder asks another. */
const INITIAL_DELAY_EXCESS = 7_970_124n;
/** ap4's block gas cost rules (plugin/evm/upgrade/ap4/cost.go; the step is ap5's after AP5). */
const MAX_BLOCK_GAS_COST = 1_000_000n;
const TARGET_BLOCK_RATE = 2n;

const quantity = (n: bigint) => `0x${n.toString(16)}`;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
/**
 * What PREVRANDAO reads on coreth: since Shanghai, the block context's Random is the header's Difficulty
 * (core/evm.go hooks OverrideNewEVMArgs), which the dummy engine makes 1. The engine reads its block's mixHash,
 * which the mock sets to this before each block (./evm.ts); coreth's answered mixHash stays the zero hash.
 */
export const CORETH_PREVRANDAO = `0x${'00'.repeat(31)}01`;
/** The genesis files' `extraData` (genesis/genesis_{local,fuji,mainnet}.json cChainGenesis), which Genesis.toBlock writes. */
const GENESIS_EXTRA = Uint8Array.of(0);
/** An empty predicate.BlockResults as its codec writes it: version 0 (2 bytes), a map of 0 entries (4 bytes). */
const NO_PREDICATE_RESULTS = new Uint8Array(6);

const uint64s = (values: bigint[]) => {
  const bytes = Buffer.alloc(values.length * 8);
  values.forEach((value, i) => bytes.writeBigUInt64BE(value, i * 8));
  return new Uint8Array(bytes);
};

/**
 * A block's Extra as coreth builds it: customheader.ExtraPrefix (consensus/dummy FinalizeAndAssemble), the ACP-176
 * state after the block since Fortuna (acp176 State.Bytes: capacity, excess, target excess, which the mock never
 * moves from 0), the fee window since AP3 (10 × 8 bytes), nothing before; then, since Durango, the block's predicate
 * results (miner/worker.go commit; no tx of the mock's has predicates). The genesis's is the genesis file's.
 */
export function headerExtraOf(world: World, height: bigint, state: FeeState, release?: string): Uint8Array {
  if (height === 0n) return GENESIS_EXTRA;
  const timestamp = state.kind === 'window' ? state.time : undefined;
  const prefix =
    state.kind === 'acp176'
      ? uint64s([state.capacity, state.excess, 0n])
      : timestamp !== undefined && ruleActive(world, release, 'apricotPhase3', timestamp)
        ? uint64s(state.window)
        : new Uint8Array();
  const durango =
    state.kind === 'acp176' || (timestamp !== undefined && ruleActive(world, release, 'durango', timestamp));
  return durango ? new Uint8Array([...prefix, ...NO_PREDICATE_RESULTS]) : prefix;
}

/** calcBlockGasCost: the parent's cost (the minimum, 0, when it has none) moved by `step` a second from the 2 s target. */
export function stepBlockGasCost(
  parentCost: bigint | undefined,
  parentTime: bigint,
  time: bigint,
  step: bigint,
): bigint {
  if (parentCost === undefined) return 0n;
  const elapsed = time > parentTime ? time - parentTime : 0n;
  const cost =
    elapsed > TARGET_BLOCK_RATE
      ? parentCost - step * (elapsed - TARGET_BLOCK_RATE)
      : parentCost + step * (TARGET_BLOCK_RATE - elapsed);
  return cost < 0n ? 0n : cost > MAX_BLOCK_GAS_COST ? MAX_BLOCK_GAS_COST : cost;
}

/**
 * customheader.BlockGasCost: nil before AP4, 0 from Granite (in a release that has it); between, the parent's cost
 * moved by the era's step (./fees.ts ruleActive).
 */
export function blockGasCostOf(
  world: World,
  timestamp: bigint,
  parent: { cost: bigint | undefined; timestamp: bigint } | undefined,
  release?: string,
): bigint | undefined {
  const active = (upgrade: string) => ruleActive(world, release, upgrade, timestamp);
  if (!active('apricotPhase4')) return undefined;
  if (active('granite') || parent?.cost === undefined) return 0n;
  const step = active('apricotPhase5') ? 200_000n : 50_000n;
  return stepBlockGasCost(parent.cost, parent.timestamp, timestamp, step);
}

/** By ExtData: a block's header is written for its hash, its bytes and each answer that shows it. */
const extDataHashes = new WeakMap<Uint8Array, string>();

/** customtypes.CalcExtDataHash: the hash of ExtData's RLP; a genesis, built from the genesis file, has none. */
function extDataHashOf(height: bigint, extData: Uint8Array): string {
  if (height === 0n) return ZERO_HASH;
  let hash = extDataHashes.get(extData);
  if (hash === undefined) {
    hash = keccakHex(RLP.encode(extData));
    extDataHashes.set(extData, hash);
  }
  return hash;
}

/**
 * What coreth adds to the engine's block: its atomic txs and their gas, its block gas cost, and its hashes, from its
 * parent's. A block of a fork source's history (up to the fork point) keeps the hash the source gave it.
 */
export function corethExtraOf(
  world: World,
  block: RpcBlock,
  atomic: AtomicExtra | undefined,
  parent: { extra: CorethExtra; timestamp: bigint } | undefined,
  state: FeeState,
  release?: string,
): CorethExtra {
  const extra: CorethExtra = {
    extData: atomic?.extData ?? new Uint8Array(),
    atomicGas: atomic?.gasUsed ?? 0n,
    blockGasCost: blockGasCostOf(
      world,
      BigInt(block.timestamp),
      parent && { cost: parent.extra.blockGasCost, timestamp: parent.timestamp },
      release,
    ),
    hash: block.hash,
    parentHash: block.parentHash,
    engineHash: block.hash,
    // The world's fork read as fork/lazy.ts's `forkOf` reads it, without loading the fork's modules in a node that is none.
    fromSource: BigInt(block.number) <= ((world.fork as Fork | undefined)?.source.cHeight ?? -1n),
    headerExtra: undefined,
    stateRoot: undefined,
  };
  if (extra.fromSource) return extra;
  extra.headerExtra = headerExtraOf(world, BigInt(block.number), state, release);
  extra.stateRoot = block.stateRoot;
  extra.parentHash = parent?.extra.hash ?? block.parentHash;
  const encoded = encodeHeader(withCorethHeader(world, { ...block }, extra, release) as unknown as CorethBlock);
  extra.hash = keccakHex(encoded);
  lastHeader = { extra, encoded };
  return extra;
}

/**
 * The header fields coreth adds, in the engine's block or header `fields` (modified in place and returned), and
 * coreth's `hash` and `parentHash`: extDataHash always; extDataGasUsed and blockGasCost from AP4;
 * timestampMilliseconds and minDelayExcess from Granite; totalDifficulty the height. The engine's Ethereum fields
 * coreth sets otherwise: difficulty 1 (the dummy engine's Prepare; the genesis file's 0 at genesis), the zero mixHash (never set by the miner), the
 * zero parentBeaconBlockRoot (the miner's beaconRoot, Cancun's, the genesis's too), coreth's Extra, and no
 * withdrawalsRoot or withdrawals (a coreth header has no WithdrawalsHash, RPCMarshalBlock writes none).
 */
function withCorethHeader(
  world: World,
  fields: Record<string, unknown>,
  extra: CorethExtra | undefined,
  release?: string,
) {
  const height = BigInt(fields.number as string);
  const timestamp = BigInt(fields.timestamp as string);
  const extData = extra?.extData ?? new Uint8Array();
  if (extra) {
    fields.hash = extra.hash;
    fields.parentHash = extra.parentHash;
    if (extra.headerExtra) fields.extraData = hex(extra.headerExtra);
    if (extra.stateRoot) fields.stateRoot = extra.stateRoot;
  }
  if (!extra?.fromSource) {
    // The genesis's is the genesis file's, 0x0 (core/genesis.go Genesis.toBlock).
    fields.difficulty = height === 0n ? '0x0' : '0x1';
    fields.mixHash = ZERO_HASH;
    if (fields.parentBeaconBlockRoot !== undefined) fields.parentBeaconBlockRoot = ZERO_HASH;
  }
  delete fields.withdrawalsRoot;
  delete fields.withdrawals;
  fields.extDataHash = extDataHashOf(height, extData);
  if (extra?.blockGasCost !== undefined) {
    fields.extDataGasUsed = quantity(extra.atomicGas);
    fields.blockGasCost = quantity(extra.blockGasCost);
  }
  if (ruleActive(world, release, 'granite', timestamp)) {
    // The engine keeps seconds: a Granite block's milliseconds are its second's first.
    fields.timestampMilliseconds = quantity(timestamp * 1000n);
    fields.minDelayExcess = quantity(INITIAL_DELAY_EXCESS);
  }
  fields.totalDifficulty = quantity(height);
  return fields;
}

/** A whole block as coreth answers it: its header's extras, `blockExtraData`, and `size` the coreth block's bytes'. */
export function corethBlock(
  world: World,
  block: Record<string, unknown>,
  extra: CorethExtra | undefined,
  size: number,
  release?: string,
): Record<string, unknown> {
  withCorethHeader(world, block, extra, release);
  block.blockExtraData = hex(extra?.extData ?? new Uint8Array());
  block.size = quantity(BigInt(size));
  return block;
}

/** What a block has that its header has not. */
export const BODY_FIELDS = ['transactions', 'uncles', 'withdrawals', 'size', 'totalDifficulty', 'blockExtraData'];

/** A header as coreth's types.Header marshals it (newHeads): the block's header fields, no totalDifficulty. */
export function corethHeaderJson(
  world: World,
  block: RpcBlock,
  extra: CorethExtra | undefined,
  release?: string,
): Record<string, unknown> {
  const fields = withCorethHeader(world, { ...block }, extra, release);
  for (const body of BODY_FIELDS) delete fields[body];
  return fields;
}

/**
 * coreth's bytes of the engine's `block` with its transactions, whose header hashes to coreth's hash (its ID); a fork
 * source's block gets the header the mock has of it (the engine's fields, the extras as the mock would set them),
 * which need not hash to the source's.
 */
export function corethBlockBytes(chain: CChain, block: RpcBlock, extra: CorethExtra): Uint8Array {
  if (lastHeader?.extra === extra) {
    const { encoded } = lastHeader;
    lastHeader = undefined;
    return blockBytes(block as unknown as CorethBlock, extra.extData, true, encoded);
  }
  const coreth = withCorethHeader(chain.world, { ...block }, extra, chain.release);
  return blockBytes(coreth as unknown as CorethBlock, extra.extData, !extra.fromSource);
}
