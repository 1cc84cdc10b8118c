/**
 * The node's indexes (indexer/index.go) and each chain's proposervm blocks, kept in the world's journal so snapshots,
 * reverts and `--state` carry them. A chain hands every block it accepts, genesis first, to `acceptIntoIndexes`: the one
 * way into them. The block is wrapped in the proposervm block the node's consensus would have accepted
 * (./proposer-blocks.ts), which the chain's block index lists; an X-Chain block's transactions also join
 * `/ext/index/X/tx`. A genesis block (height 0) is accepted when the chain starts, not by consensus: no index holds
 * it, but it is the pre-fork parent of the chain's first proposervm block.
 *
 * The indexes are kept whether or not the node serves them (`--index-enabled`): proposervm's answers need the blocks,
 * and the bytes and signatures are only made when a call asks for them.
 */
import { type Journal, Log } from './journal.ts';
import {
  type Epoch,
  NO_EPOCH,
  type ProposerBlock,
  buildOptionBlock,
  buildProposerBlock,
  canSign,
  childEpoch,
  proposerBlockBytes,
} from './proposer-blocks.ts';
import { isOptionBlock } from './codec.ts';
import { upgradeActive, upgradeNumber } from './reads-info.ts';
import type { World } from './world.ts';

export type IndexedChain = 'X' | 'P' | 'C';
/** The node's indexes by path below `/ext/index/`. `X/vtx` has held nothing since the X-Chain's linearization. */
const INDEX_NAMES = ['X/tx', 'X/block', 'X/vtx', 'P/block', 'C/block'] as const;
export type IndexName = (typeof INDEX_NAMES)[number];

export interface IndexedContainer {
  id: string;
  /** When the node accepted it, in Unix nanoseconds. */
  timestamp: bigint;
  /** A transaction's bytes; a block's are its proposervm block's. */
  tx?: Uint8Array;
  block?: ProposerBlock;
}

/**
 * On a fork: the source's index up to the fork point (../fork/indexes.ts), its first `count` containers, which the
 * world's own containers follow at the next index.
 */
export interface SourceIndex {
  count: number;
  at(position: number, encoding: string): Promise<FormattedContainer>;
  range(start: number, count: number, encoding: string): Promise<FormattedContainer[]>;
  /** The container's position, if it is in the index up to the fork point. */
  indexOf(id: string): Promise<number | undefined>;
}

/** A container as index.getContainerByIndex answers it. */
export interface FormattedContainer {
  id: string;
  bytes: string;
  timestamp: string;
  encoding: 'hex' | 'hexc' | 'hexnc';
  index: string;
}

/** The chain's genesis, the pre-fork block its first proposervm block builds on. */
export interface Genesis {
  id: string;
  timestamp: bigint;
}

/** One journaled log per index, for the world to hold (its `--state` file saves each). */
export function indexLogs(journal: Journal): Record<IndexName, Log<IndexedContainer>> {
  return Object.fromEntries(INDEX_NAMES.map((name) => [name, new Log<IndexedContainer>(journal)])) as never;
}

const positionKey = (index: IndexName, id: string) => `${index} ${id}`;

/** Where a container sits in an index, if it is there. */
export const positionOf = (world: World, index: IndexName, id: string): number | undefined =>
  world.indexPositions.get(positionKey(index, id));

function add(world: World, index: IndexName, container: IndexedContainer): void {
  world.indexPositions.set(positionKey(index, container.id), world.indexes[index].length);
  world.indexes[index].push(container);
}

export const SECOND_NS = 1_000_000_000n;

/** The bytes the index serves for a container. */
export const containerBytes = (container: IndexedContainer): Uint8Array =>
  container.tx ?? proposerBlockBytes(container.block!);

/**
 * Steps for a node to take while idle (../when-idle.ts): the bytes of each index's newest containers, which a read
 * would otherwise make on its caller's time (a signed proposervm block's RSA-4096 signature, 2-10 ms on this host; it
 * is deterministic, so the bytes are the same whenever made). One step a container, each index's last `count`.
 */
export function containerSteps(world: World, count = 8): Array<() => unknown> {
  return INDEX_NAMES.flatMap((name) =>
    Array.from({ length: count }, (_, back) => () => {
      const log = world.indexes[name];
      if (log.length > back) containerBytes(log.at(log.length - 1 - back)!);
    }),
  );
}

/**
 * What a chain's proposervm builds on now (its preferred block is its last accepted): the last proposervm block, on a
 * fork the source's last one at the fork point, or the pre-fork genesis before there is one.
 */
export function preferred(world: World, chain: IndexedChain): ProposerBlock | Genesis | undefined {
  return (
    world.indexes[`${chain}/block`].last()?.block ??
    world.fork?.proposerTips?.[chain] ??
    world.preForkGenesis.get(chain)
  );
}

/**
 * vm.selectChildPChainHeight: the P-Chain's proposer height (the mock's is its last accepted height, as
 * platform.getProposedHeight answers), at least the parent's P-Chain height (apricotPhase4MinPChainHeight for a
 * pre-fork parent).
 */
export function childPChainHeight(world: World, parent: ProposerBlock | Genesis | undefined): bigint {
  const minimum =
    parent && 'pChainHeight' in parent ? parent.pChainHeight : upgradeNumber(world, 'apricotPhase4MinPChainHeight');
  const proposed = BigInt(world.tip('P')?.height ?? 0);
  return proposed > minimum ? proposed : minimum;
}

/** acp181.NewEpoch for a block built at `time` (Unix seconds) on the chain's preferred block. */
export function nextEpoch(world: World, parent: ProposerBlock | Genesis | undefined, time: bigint): Epoch {
  if (!parent) return NO_EPOCH;
  const granite = upgradeActive(world, 'granite', time);
  const duration = upgradeNumber(world, 'graniteEpochDuration') / SECOND_NS;
  const [pChainHeight, epoch] = 'pChainHeight' in parent ? [parent.pChainHeight, parent.epoch] : [0n, NO_EPOCH];
  return childEpoch({ pChainHeight, epoch, timestamp: parent.timestamp }, granite, duration);
}

/**
 * A block a chain accepted. Its ID names the genesis, the pre-fork parent; a later block is named by the proposervm
 * block that wraps it, so a chain whose ID costs a hash (the C-Chain's) need not give it.
 */
export interface AcceptedBlock {
  id?: string;
  height: number;
  timestamp: bigint;
  bytes: Uint8Array;
}

/**
 * A chain accepted a block: the one way blocks (and the X-Chain's transactions) reach the indexes and proposervm. Call
 * it for the genesis block too, before any other.
 */
export function acceptIntoIndexes(
  world: World,
  chain: IndexedChain,
  block: AcceptedBlock,
  txs: ReadonlyArray<{ id: string; bytes: Uint8Array }> = [],
): void {
  if (block.height === 0) {
    if (block.id === undefined) throw new Error(`the ${chain}-Chain's genesis has no ID`);
    world.preForkGenesis.set(chain, { id: block.id, timestamp: block.timestamp });
    return;
  }
  const parent = preferred(world, chain);
  const acceptedAt = world.time.get() * SECOND_NS;
  if (chain === 'P' && parent && 'pChainHeight' in parent && isOptionBlock(block)) {
    const option = buildOptionBlock(parent, block.bytes);
    add(world, 'P/block', { id: option.id, timestamp: acceptedAt, block: option });
    return;
  }
  const timestamp = parent && parent.timestamp > block.timestamp ? parent.timestamp : block.timestamp;
  const postFork = parent !== undefined && 'pChainHeight' in parent;
  const wrapped = buildProposerBlock({
    chainID: world.chainIDs[chain],
    parentID: parent?.id ?? world.chainIDs[chain],
    timestamp,
    pChainHeight: childPChainHeight(world, parent),
    epoch: postFork ? nextEpoch(world, parent, timestamp) : NO_EPOCH,
    signed: postFork && canSign(world.network.name),
    inner: block.bytes,
  });
  add(world, `${chain}/block`, { id: wrapped.id, timestamp: acceptedAt, block: wrapped });
  if (chain === 'X') for (const tx of txs) add(world, 'X/tx', { id: tx.id, timestamp: acceptedAt, tx: tx.bytes });
}
