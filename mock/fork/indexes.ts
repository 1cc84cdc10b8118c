/**
 * The source's indexes (`/ext/index/...`) up to the fork point, below the fork's own containers, and the source's last
 * accepted proposervm block of each chain, which the fork's first local block builds on as the node's next block would
 * (a post-fork child: signed where the mock can sign, with the epoch acp181.NewEpoch gives it).
 *
 * Read only where the source indexes (`--index-enabled`): a node serves no other way to its proposervm blocks (the
 * P- and X-Chain APIs serve the inner blocks), so a fork of a source that does not index starts its indexes empty and
 * builds its first block on the chain's ID as on a fresh chain.
 *
 * The P-Chain's block index holds the block at height h at index h - 1 (genesis is not indexed); a source that indexed
 * from a later block (`--index-allow-incomplete`) has other positions, and the fork then reads none of its indexes.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { IndexerClient } from '../../generated/client/dist/index.js';
import type { FormattedContainer, IndexName, IndexedChain, SourceIndex } from '../world/indexer.ts';
import { idOf } from '../world/codec.ts';
import { type ProposerBlock, parseProposerBlock } from '../world/proposer-blocks.ts';
import type { World } from '../world/world.ts';
import { hexBytes } from './convert.ts';
import type { ForkSource } from './fetch.ts';
import type { LaterBlocks } from './later.ts';
import { nextBlockAt, parentAt } from './proposer.ts';

type Json = Record<string, unknown>;

/** The source's index `name` with its first `count` containers (those up to the fork point) served to the fork. */
function sourceIndex(source: ForkSource, name: IndexName, count: number): SourceIndex {
  const [chain, index] = name.split('/') as [string, string];
  const client = new IndexerClient({ baseUrl: source.url, fetch: source.cached, timeoutMs: 60_000, chain, index });
  return {
    count,
    at: (position, encoding) =>
      client.getContainerByIndex({
        index: String(position),
        encoding,
      } as never) as unknown as Promise<FormattedContainer>,
    range: async (start, n, encoding) =>
      (
        (await client.getContainerRange({
          startIndex: String(start),
          numToFetch: String(n),
          encoding,
        } as never)) as unknown as { containers: FormattedContainer[] }
      ).containers,
    indexOf: async (id) => {
      try {
        const { index: position } = (await client.getIndex({ id } as never)) as unknown as { index: string };
        return Number(position) < count ? Number(position) : undefined;
      } catch {
        return undefined; // not in the source's index: "not found", as the node words it
      }
    },
  };
}

/**
 * The source's block index of `chain` at the fork point: its proposervm block wrapping the fork's tip block (at
 * height `height`, ID `tipID`), and how many containers the index held then; undefined where the source does not
 * index the chain or its index does not hold the block at the expected place.
 */
async function blockIndexAt(
  source: ForkSource,
  chain: IndexedChain,
  chainID: string,
  height: number,
  tipID: string,
): Promise<{ tip: ProposerBlock; index: SourceIndex } | undefined> {
  if (height < 1) return undefined;
  const client = new IndexerClient({ baseUrl: source.url, fetch: source.cached, timeoutMs: 60_000, chain });
  let answer: Json;
  try {
    answer = (await client.getContainerByIndex({ index: String(height - 1), encoding: 'hex' } as never)) as never;
  } catch {
    return undefined;
  }
  const parsed = parseProposerBlock(hexBytes(answer.bytes), chainID);
  if (!parsed || idOf(parsed.inner) !== tipID) return undefined;
  const tip = parsed.option ? await withProposal(client, parsed, height - 1) : parsed;
  return tip && { tip, index: sourceIndex(source, `${chain}/block`, height) };
}

/** An option at index `position` with its proposal's time, P-Chain height and epoch (the container before it). */
async function withProposal(
  client: IndexerClient,
  option: ProposerBlock,
  position: number,
): Promise<ProposerBlock | undefined> {
  if (position < 1) return undefined;
  let answer: Json;
  try {
    answer = (await client.getContainerByIndex({ index: String(position - 1), encoding: 'hex' } as never)) as never;
  } catch {
    return undefined;
  }
  const proposal = parseProposerBlock(hexBytes(answer.bytes), option.chainID);
  if (!proposal || proposal.option || proposal.id !== option.parentID) return undefined;
  const { timestamp, pChainHeight, epoch } = proposal;
  return { ...option, timestamp, pChainHeight, epoch };
}

/** The keccak-256 of a coreth block's header: the first item of the block's RLP list, encoded again as it was. */
function headerHash(block: Uint8Array): string | undefined {
  let items: unknown;
  try {
    items = RLP.decode(block);
  } catch {
    return undefined;
  }
  const header = Array.isArray(items) ? items[0] : undefined;
  if (!Array.isArray(header)) return undefined;
  return `0x${Buffer.from(keccak_256(RLP.encode(header))).toString('hex')}`;
}

/**
 * The source's C-Chain block index at the fork's C-Chain block `height` (whose hash the source's `eth_getBlockByNumber`
 * gives): as blockIndexAt, the block checked by its header's hash.
 */
export async function cBlockIndexAt(
  source: ForkSource,
  chainID: string,
  height: bigint,
): Promise<{ tip: ProposerBlock; index: SourceIndex } | undefined> {
  if (height < 1n) return undefined;
  const client = new IndexerClient({ baseUrl: source.url, fetch: source.cached, timeoutMs: 60_000, chain: 'C' });
  let answer: Json;
  try {
    answer = (await client.getContainerByIndex({ index: String(height - 1n), encoding: 'hex' } as never)) as never;
  } catch {
    return undefined;
  }
  const tip = parseProposerBlock(hexBytes(answer.bytes), chainID);
  const block = await source.cCall('eth_getBlockByNumber', [`0x${height.toString(16)}`, false]);
  const hash = 'result' in block ? (block.result as Json | null)?.hash : undefined;
  if (!tip || typeof hash !== 'string' || headerHash(tip.inner) !== hash.toLowerCase()) return undefined;
  return { tip, index: sourceIndex(source, 'C/block', Number(height)) };
}

/**
 * The X-Chain's transaction index at the fork point: up to the last transaction of the fork's X-Chain block (`lastTxID`,
 * from the block's JSON), found by ID.
 */
async function txIndexAt(source: ForkSource, lastTxID: string | undefined): Promise<SourceIndex | undefined> {
  if (lastTxID === undefined) return undefined;
  const client = new IndexerClient({
    baseUrl: source.url,
    fetch: source.cached,
    timeoutMs: 60_000,
    chain: 'X',
    index: 'tx',
  });
  try {
    const { index } = (await client.getIndex({ id: lastTxID } as never)) as unknown as { index: string };
    return sourceIndex(source, 'X/tx', Number(index) + 1);
  } catch {
    return undefined;
  }
}

/**
 * The source's indexes and proposervm tips at the fork point, for the world's `fork` to hold. Where the source does not
 * index a chain, its first block builds on the source's inner tip with what the source's proposervm says of its child
 * (./proposer.ts), if the source had no block above the fork point once it answered (it describes its tip).
 */
export async function readSourceIndexes(source: ForkSource, world: World, xBlock: Json, later: LaterBlocks) {
  const txs = ((xBlock.block ?? xBlock) as Json).txs;
  const lastTx = Array.isArray(txs) ? (txs.at(-1) as Json | undefined)?.id : undefined;
  const indexes: Partial<Record<IndexName, SourceIndex>> = {};
  const proposerTips: Partial<Record<IndexedChain, ProposerBlock>> = {};
  const [p, x, tx] = await Promise.all([
    blockIndexAt(source, 'P', world.chainIDs.P, world.tip('P').height, world.tip('P').id),
    blockIndexAt(source, 'X', world.chainIDs.X, world.tip('X').height, world.tip('X').id),
    txIndexAt(source, typeof lastTx === 'string' ? lastTx : undefined),
  ]);
  for (const [chain, found] of [
    ['P', p],
    ['X', x],
  ] as const) {
    if (!found) continue;
    indexes[`${chain}/block`] = found.index;
    proposerTips[chain] = found.tip;
  }
  if (tx && x) indexes['X/tx'] = tx;
  // At height 0 the source builds on its pre-fork genesis (the world's `preForkGenesis`, ./start.ts).
  if (!p && world.tip('P').height > 0) {
    const next = await nextBlockAt(source, 'P');
    const atTip = next && (await later.ids('P')).size === 0;
    proposerTips.P = parentAt(world, 'P', world.tip('P'), atTip ? next : undefined);
  }
  if (!x && world.tip('X').height > 0) proposerTips.X = parentAt(world, 'X', world.tip('X'), undefined);
  return { indexes, proposerTips };
}
