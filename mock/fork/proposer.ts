/**
 * What the fork's first block of a chain builds on where the source does not index that chain (./indexes.ts reads the
 * source's proposervm block where it does). In v1.14.2 no other public API serves a proposervm block: the chain APIs
 * serve the inner blocks (platformvm/service.go:1933 GetBlock reads manager.GetStatelessBlock; avm/service.go:54;
 * coreth's eth_getBlockBy*), and the proposervm API, which a P- or C-Chain serves at `/proposervm` whether or not the
 * node indexes (proposervm/vm.go:254 CreateHandlers; chains/manager.go:1439 registers the proposervm-wrapped VM),
 * answers only the P-Chain height and epoch of the block it would build now on its preferred block
 * (proposervm/service.go:82 GetProposedHeight, :133 getCurrentEpoch). Only `admin.dbGet` (api/admin/service.go:395,
 * the admin API, off by default and on public nodes) reads the node's database, where proposervm keeps its last
 * accepted block; it is not used. So the parent here is the source's inner tip, by the ID its chain API finds it by,
 * carrying what the source's proposervm says of its child:
 *
 * - its epoch: acp181.NewEpoch (acp181/epoch.go:16) gives a child the parent's epoch, or one that starts at the
 *   parent's time with the parent's P-Chain height; never one that depends on the child's time once Granite is
 *   active. So a parent holding the answered epoch, and a time inside it, gives every child the source's answer;
 * - its P-Chain height: at most the answered proposed height (selectChildPChainHeight is at least the parent's).
 *
 * What no public API tells, and the fork so cannot know: the parent's proposervm block ID (the fork names the inner
 * block's instead, which `getBlock` finds), its time and P-Chain height (bounded as above), the epoch at a fork height
 * below the source's tip (the answers speak of the tip), and the X-Chain's epoch: its routes come from the avm
 * (chains/manager.go:1054 registers the DAG VM), so a node answers 404 at `/ext/bc/X/proposervm`, and the fork's
 * first X block starts the first epoch, as on a chain whose blocks had none.
 */
import { HttpStatusError, JsonRpcError, ProposervmClient } from '../../generated/client/dist/index.js';
import { idFromBytes } from '../world/codec.ts';
import type { IndexedChain } from '../world/indexer.ts';
import { type Epoch, NO_EPOCH, type ProposerBlock } from '../world/proposer-blocks.ts';
import { upgradeNumber } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';
import type { ForkSource } from './fetch.ts';
import { fromSource } from './walk.ts';

/** The source's proposervm of a chain, asked now: the epoch and P-Chain height of the block it would build next. */
export interface NextBlock {
  epoch: Epoch;
  height: bigint;
}

const uint64 = (value: unknown): bigint => {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(value) || BigInt(value) >= 2n ** 64n)
    throw new RangeError(`${JSON.stringify(value)} is no uint64`);
  return BigInt(value);
};

/**
 * The source's `proposervm.getCurrentEpoch` and `getProposedHeight` of `chain`, read live (they say what the source
 * would build now); undefined where the source does not serve them (a node before v1.14.0 answers 404 or "method not
 * found").
 */
export async function nextBlockAt(source: ForkSource, chain: 'P' | 'C'): Promise<NextBlock | undefined> {
  const client = new ProposervmClient({
    baseUrl: source.url,
    fetch: source.live,
    timeoutMs: 60_000,
    blockchainID: chain,
  });
  let answers: [Record<string, unknown>, Record<string, unknown>];
  try {
    answers = (await Promise.all([client.getCurrentEpoch({}), client.getProposedHeight({})])) as never;
  } catch (error) {
    if (error instanceof HttpStatusError || error instanceof JsonRpcError) return undefined;
    throw error;
  }
  const [epoch, proposed] = answers;
  return fromSource(`proposervm.getCurrentEpoch and getProposedHeight of ${chain}`, () => ({
    epoch: {
      number: uint64(epoch?.number),
      startTime: uint64(epoch?.startTime),
      pChainHeight: uint64(epoch?.pChainHeight),
    },
    height: uint64(proposed?.height),
  }));
}

/**
 * The parent the fork's first block of `chain` builds on: the source's inner tip (`tip`, its ID and time) with what
 * `next` (the source's proposervm at the fork point, where known) says of its child; without it, a parent with no
 * epoch at the fork's P-Chain height.
 */
export function parentAt(
  world: World,
  chain: IndexedChain,
  tip: { id: string; timestamp: bigint },
  next: NextBlock | undefined,
): ProposerBlock {
  const forkHeight = BigInt(world.tip('P').height);
  const base = {
    id: tip.id,
    chainID: world.chainIDs[chain],
    parentID: tip.id,
    signed: false,
    inner: new Uint8Array(),
  };
  if (!next) return { ...base, timestamp: tip.timestamp, pChainHeight: forkHeight, epoch: NO_EPOCH };
  const { epoch, height } = next;
  if (epoch.number === 0n) return { ...base, timestamp: tip.timestamp, pChainHeight: height, epoch: NO_EPOCH };
  // A time inside the epoch, so that it is not sealed: as close to the inner block's as that allows.
  const duration = upgradeNumber(world, 'graniteEpochDuration') / 1_000_000_000n;
  const last = epoch.startTime + duration - 1n;
  const timestamp = tip.timestamp < epoch.startTime ? epoch.startTime : tip.timestamp > last ? last : tip.timestamp;
  return { ...base, timestamp, pChainHeight: height, epoch };
}

/**
 * The parent of the fork's first C-Chain block where the source does not index C: its block at `height` (the fork's
 * C-Chain block, its tip when read), by its hash, the ID coreth's blocks have, and the source's proposervm answers if
 * its tip was still that block once they came.
 */
export async function cParentAt(source: ForkSource, world: World, height: bigint): Promise<ProposerBlock> {
  const [block, next] = await Promise.all([
    source.cCall('eth_getBlockByNumber', [`0x${height.toString(16)}`, false]),
    nextBlockAt(source, 'C'),
  ]);
  const atTip = next !== undefined && (await source.cBlockNumber()) === height;
  const tip = fromSource(`eth_getBlockByNumber ${height}`, () => {
    const json = ('result' in block ? block.result : undefined) as Record<string, unknown> | null | undefined;
    const hash = json?.hash;
    const time = json?.timestamp;
    if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new RangeError('no block hash');
    if (typeof time !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(time)) throw new RangeError('no block time');
    return { id: idFromBytes(Buffer.from(hash.slice(2), 'hex')), timestamp: BigInt(time) };
  });
  return parentAt(world, 'C', tip, atTip ? next : undefined);
}
