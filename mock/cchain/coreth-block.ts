/**
 * A C-Chain block as coreth answers it (AvalancheGo v1.14.2 graft/coreth internal/ethapi/api.go RPCMarshalHeader,
 * RPCMarshalBlock, BlockChainAPI.rpcMarshalBlock): the engine's Ethereum fields plus coreth's header extras, set as
 * coreth's consensus engine sets them (consensus/dummy FinalizeAndAssemble; plugin/evm/customheader), and the block's
 * ExtData. Its `hash` is coreth's, the keccak-256 of coreth's header of those fields (./blocks.ts), and its
 * `parentHash` its parent's: the engine's hashes, of Ethereum headers, are the engine's alone (./block-hashes.ts).
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { forkOf } from '../fork/lazy.ts';
import { ruleActive } from './rules.ts';
import type { World } from '../world/world.ts';
import { corethHashes, engineHash } from './block-hashes.ts';
import { type CorethBlock, type RpcBlock, blockBytes, headerHash } from './blocks.ts';
import type { AtomicExtra, CChain } from './evm.ts';

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
}

/** acp226.InitialDelayExcess: the min delay excess every Granite block carries while no builder asks another. */
const INITIAL_DELAY_EXCESS = 7_970_124n;
/** ap4's block gas cost rules (plugin/evm/upgrade/ap4/cost.go; the step is ap5's after AP5). */
const MAX_BLOCK_GAS_COST = 1_000_000n;
const TARGET_BLOCK_RATE = 2n;

const quantity = (n: bigint) => `0x${n.toString(16)}`;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

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

/** customtypes.CalcExtDataHash: the hash of ExtData's RLP; a genesis, built from the genesis file, has none. */
export function extDataHashOf(height: bigint, extData: Uint8Array): string {
  return height === 0n ? ZERO_HASH : hex(keccak_256(RLP.encode(extData)));
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
    fromSource: BigInt(block.number) <= (forkOf(world)?.source.cHeight ?? -1n),
  };
  if (extra.fromSource) return extra;
  extra.parentHash = parent?.extra.hash ?? block.parentHash;
  extra.hash = headerHash(withCorethHeader(world, { ...block }, extra, release) as unknown as CorethBlock);
  return extra;
}

/**
 * The header fields coreth adds, in the engine's block or header `fields` (modified in place and returned), and
 * coreth's `hash` and `parentHash`: extDataHash always; extDataGasUsed and blockGasCost from AP4; timestampMilliseconds and minDelayExcess from Granite;
 * totalDifficulty the height (coreth's difficulty is always 1). The engine's withdrawalsRoot and withdrawals stay,
 * though coreth writes neither: the header the hash covers holds the root, and an engine forking this node needs it.
 */
export function withCorethHeader(
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
  }
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

const BODY_FIELDS = ['transactions', 'uncles', 'withdrawals', 'size', 'totalDifficulty', 'blockExtraData'];

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
  const coreth = withCorethHeader(chain.world, { ...block }, extra, chain.release);
  return blockBytes(coreth as unknown as CorethBlock, extra.extData, !extra.fromSource);
}

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/**
 * The engine's block `method` finds, when it is one of this chain's. coreth's BlockByHash and HeaderByHash (eth/
 * api_backend.go) answer nil for a hash that is not the canonical one at its height, whatever the caller's EIP-1898
 * `requireCanonical` says (coreth never reads that flag; geth errs "hash is not currently canonical" only when it is
 * set, and eth_getBlockReceipts turns that into null too). The engine's chain has no side blocks, but a fork's
 * engine finds the source's blocks above the fork point by hash, which are not this chain's.
 */
async function ownBlock<Block extends Pick<RpcBlock, 'hash' | 'number'>>(
  chain: CChain,
  provider: Provider,
  method: string,
  at: unknown,
  fullTx: boolean,
): Promise<Block | null> {
  const block = (await chain.call(provider, method, [at, fullTx])) as Block | null;
  if (!block || method !== 'eth_getBlockByHash') return block;
  const canonical = (await chain.call(provider, 'eth_getBlockByNumber', [block.number, false])) as RpcBlock | null;
  return canonical?.hash === block.hash ? block : null;
}

/**
 * eth_getBlockByNumber/Hash and eth_getHeaderByNumber/Hash: the engine's block, read with its transactions (the
 * coreth block's size needs them), answered as coreth's BlockChainAPI marshals it; null when the chain has none. A
 * block of a fork source's history is answered as the engine has it (the source's extras are not kept).
 */
export function readBlock(chain: CChain, method: string, params: unknown): Promise<unknown> {
  const [at, fullTx] = Array.isArray(params) ? params : [];
  const headerOnly = method.startsWith('eth_getHeader');
  const engineMethod = method.replace('eth_getHeader', 'eth_getBlock');
  return chain.run(async (provider) => {
    const lookup = typeof at === 'string' && engineMethod === 'eth_getBlockByHash' ? engineHash(chain, at) : at;
    const block = await ownBlock<RpcBlock>(chain, provider, engineMethod, lookup, true);
    if (!block) return null;
    const extra = chain.corethExtra(Number(block.number));
    let answer: Record<string, unknown>;
    // The mock holds no more of a fork source's block than the engine read: it answers that.
    if (!extra || extra.fromSource) answer = { ...block };
    else if (headerOnly) answer = corethHeaderJson(chain.world, block, extra, chain.release);
    else
      answer = corethBlock(
        chain.world,
        { ...block },
        extra,
        corethBlockBytes(chain, block, extra).length,
        chain.release,
      );
    if (headerOnly) {
      for (const body of BODY_FIELDS) delete answer[body];
      answer.totalDifficulty = quantity(BigInt(block.number));
    } else if (fullTx !== true) answer.transactions = block.transactions.map((tx) => tx.hash);
    return corethHashes(chain, answer);
  });
}

/**
 * rpc.BlockNumberOrHash (graft/evm/rpc/types.go) as the engine looks it up: a hash (an object's `blockHash`, keys
 * matched as Go matches them, or a 66-character string) or a number; coreth reads every tag but `earliest` as latest.
 * Undefined for an object naming neither: BlockByNumberOrHash's "neither block nor hash specified". The params
 * check (./params.ts) has refused what the type does not decode: both named, a `requireCanonical` not a boolean.
 */
function engineLookup(chain: CChain, at: unknown): [method: string, param: unknown] | undefined {
  const fields =
    typeof at === 'object' && at !== null
      ? new Map(Object.entries(at).map(([k, v]) => [k.toLowerCase(), v]))
      : undefined;
  const hash = fields ? fields.get('blockhash') : typeof at === 'string' && at.length === 66 ? at : undefined;
  if (typeof hash === 'string') return ['eth_getBlockByHash', engineHash(chain, hash)];
  const number = fields ? fields.get('blocknumber') : at;
  if (number === undefined || number === null) return undefined;
  if (number === 'earliest') return ['eth_getBlockByNumber', '0x0'];
  return ['eth_getBlockByNumber', typeof number === 'string' && number.startsWith('0x') ? number : 'latest'];
}

/**
 * eth_getBlockReceipts (internal/ethapi BlockChainAPI.GetBlockReceipts): the receipts of the block's transactions in
 * their order, each as eth_getTransactionReceipt answers it; null where BlockByNumberOrHash finds no block of this
 * chain or errs (GetBlockReceipts answers null for either).
 */
export function readBlockReceipts(chain: CChain, params: unknown): Promise<unknown> {
  const [at] = Array.isArray(params) ? params : [];
  return chain.run(async (provider) => {
    const lookup = engineLookup(chain, at);
    if (!lookup) return null;
    const [method, param] = lookup;
    const block = await ownBlock<Pick<RpcBlock, 'hash' | 'number'> & { transactions: string[] }>(
      chain,
      provider,
      method,
      param,
      false,
    );
    if (!block) return null;
    const receipts: unknown[] = [];
    for (const hash of block.transactions)
      receipts.push(await chain.call(provider, 'eth_getTransactionReceipt', [hash]));
    return corethHashes(chain, receipts);
  });
}
