/**
 * The Index API of one index (indexer/service.go, indexer/index.go) and the proposervm API of one chain
 * (vms/proposervm/service.go), read from the world's indexes and proposervm blocks (./indexer.ts).
 */
import { EMPTY_ID } from './networks.ts';
import {
  type IndexName,
  type IndexedChain,
  type FormattedContainer,
  type IndexedContainer,
  SECOND_NS,
  type SourceIndex,
  childPChainHeight,
  containerBytes,
  nextEpoch,
  positionOf,
  preferred,
} from './indexer.ts';
import { type Params, encode, encodingOf } from './reads.ts';
import type { World } from './world.ts';

/** index.go's MaxFetchedByRange. */
const MAX_FETCHED_BY_RANGE = 1024n;

/** Go's time.Time in JSON (RFC3339Nano, trailing zeros dropped), in UTC as the mock's node runs. */
function goTime(nanoseconds: bigint): string {
  const seconds = nanoseconds / SECOND_NS;
  const fraction = (nanoseconds % SECOND_NS).toString().padStart(9, '0').replace(/0+$/, '');
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}${fraction ? `.${fraction}` : ''}Z`;
}

/** newFormattedContainer: JSON has no form for these bytes, so formatting.Encode refuses it. */
function formatted(container: IndexedContainer, index: number, params: Params<'encoding'>): FormattedContainer {
  const encoding = encodingOf(params);
  if (encoding === 'json') throw new Error('unsupported encoding in method');
  return {
    id: container.id,
    bytes: encode(containerBytes(container), encoding),
    timestamp: goTime(container.timestamp),
    encoding,
    index: String(index),
  };
}

/** Every param an index's methods read: what the forked index hands on to the one it asks. */
type IndexParams = Params<'encoding' | 'index' | 'startIndex' | 'numToFetch' | 'id'>;

const idOf = (params: Params<'id'>) => (typeof params.id === 'string' ? params.id : EMPTY_ID);
const uint = (value: unknown) => BigInt(typeof value === 'number' || typeof value === 'string' ? value : 0);

export function indexReads(world: World, name: IndexName) {
  const local = localIndexReads(world, name);
  const find = world.fork?.sourceIndex?.bind(world.fork);
  if (!find) return local;
  // The source's part is known once the fork point of the index's chain is (the C-Chain's when first needed).
  const forked =
    (method: keyof typeof local) =>
    async (p: IndexParams): Promise<unknown> => {
      const below = await find(name);
      return below ? forkedIndexReads(world, name, below)[method](p) : local[method](p);
    };
  // Each method takes its own params and answers what either index answers (../handlers.ts checks both).
  return Object.fromEntries(Object.keys(local).map((method) => [method, forked(method as keyof typeof local)])) as {
    [M in keyof typeof local]: (
      p: Parameters<(typeof local)[M]>[0],
    ) => Promise<Awaited<ReturnType<(typeof local)[M] | ReturnType<typeof forkedIndexReads>[M]>>>;
  };
}

function localIndexReads(world: World, name: IndexName) {
  const log = () => world.indexes[name];
  const at = (index: bigint, params: Params<'encoding'>) => {
    const container = index < BigInt(log().length) ? log().at(Number(index)) : undefined;
    if (!container) throw new Error(`no container at index ${index}`);
    return formatted(container, Number(index), params);
  };
  const byID = (params: Params<'id'>) => {
    const position = positionOf(world, name, idOf(params));
    if (position === undefined) throw new Error('not found');
    return position;
  };
  return {
    getLastAccepted: (p: Params<'encoding'>) => {
      if (log().length === 0) throw new Error('no containers have been accepted');
      return at(BigInt(log().length - 1), p);
    },
    getContainerByIndex: (p: Params<'index' | 'encoding'>) => at(uint(p.index), p),
    getContainerRange: (p: Params<'startIndex' | 'numToFetch' | 'encoding'>) => {
      const start = uint(p.startIndex);
      const count = uint(p.numToFetch);
      if (count === 0n || count > MAX_FETCHED_BY_RANGE)
        throw new Error(`numToFetch must be in [1,${MAX_FETCHED_BY_RANGE}] but is ${count}`);
      if (log().length === 0) throw new Error('no containers have been accepted');
      const last = BigInt(log().length - 1);
      if (start > last) throw new Error(`start index (${start}) > last accepted index (${last})`);
      const end = start + count - 1n < last ? start + count - 1n : last;
      const containers = [];
      for (let i = start; i <= end; i++) containers.push(at(i, p));
      return { containers };
    },
    getIndex: (p: Params<'id'>) => ({ index: String(byID(p)) }),
    isAccepted: (p: Params<'id'>) => ({ isAccepted: positionOf(world, name, idOf(p)) !== undefined }),
    getContainerByID: (p: Params<'id' | 'encoding'>) => {
      const position = byID(p);
      return formatted(log().at(position)!, position, p);
    },
  };
}

/**
 * A forked index: the source's containers up to the fork point (`below`, read there), then the world's own from
 * index `below.count` on, as a node that accepted the fork's blocks after the source's would number them.
 */
function forkedIndexReads(world: World, name: IndexName, below: SourceIndex) {
  const local = localIndexReads(world, name);
  const base = BigInt(below.count);
  const log = () => world.indexes[name];
  const last = () => base + BigInt(log().length) - 1n;
  const encodingFor = (params: Params<'encoding'>) => {
    const encoding = encodingOf(params);
    if (encoding === 'json') throw new Error('unsupported encoding in method');
    return encoding;
  };
  const at = async (index: bigint, params: Params<'encoding'>) => {
    if (index < base) return below.at(Number(index), encodingFor(params));
    const container = index <= last() ? log().at(Number(index - base)) : undefined;
    if (!container) throw new Error(`no container at index ${index}`);
    return formatted(container, Number(index), params);
  };
  const byID = async (params: Params<'id'>) => {
    const position = positionOf(world, name, idOf(params));
    if (position !== undefined) return base + BigInt(position);
    const found = await below.indexOf(idOf(params));
    if (found === undefined) throw new Error('not found');
    return BigInt(found);
  };
  return {
    getLastAccepted: (p: Params<'encoding'>) => {
      if (last() < 0n) throw new Error('no containers have been accepted');
      return at(last(), p);
    },
    getContainerByIndex: (p: Params<'index' | 'encoding'>) => at(uint(p.index), p),
    getContainerRange: async (p: Params<'startIndex' | 'numToFetch' | 'encoding'>) => {
      const start = uint(p.startIndex);
      const count = uint(p.numToFetch);
      if (count === 0n || count > MAX_FETCHED_BY_RANGE)
        throw new Error(`numToFetch must be in [1,${MAX_FETCHED_BY_RANGE}] but is ${count}`);
      if (last() < 0n) throw new Error('no containers have been accepted');
      if (start > last()) throw new Error(`start index (${start}) > last accepted index (${last()})`);
      const end = start + count - 1n < last() ? start + count - 1n : last();
      const containers: FormattedContainer[] = [];
      if (start < base) {
        const upTo = end < base ? end : base - 1n;
        containers.push(...(await below.range(Number(start), Number(upTo - start + 1n), encodingFor(p))));
      }
      for (let i = start > base ? start : base; i <= end; i++) containers.push(await at(i, p));
      return { containers };
    },
    getIndex: async (p: Params<'id'>) => ({ index: String(await byID(p)) }),
    isAccepted: async (p: Params<'id'>) => ({
      isAccepted: local.isAccepted(p).isAccepted || (await below.indexOf(idOf(p))) !== undefined,
    }),
    getContainerByID: async (p: Params<'id' | 'encoding'>) => at(await byID(p), p),
  };
}

export function proposervmReads(world: World, chain: IndexedChain) {
  const local = localProposervmReads(world, chain);
  const find = world.fork?.sourceIndex?.bind(world.fork);
  if (!find) return local;
  // On a fork the chain builds next on the source's block at the fork point, known once that point is.
  return {
    getProposedHeight: async () => {
      await find(`${chain}/block`);
      return local.getProposedHeight();
    },
    getCurrentEpoch: async () => {
      await find(`${chain}/block`);
      return local.getCurrentEpoch();
    },
  };
}

function localProposervmReads(world: World, chain: IndexedChain) {
  return {
    getProposedHeight: () => ({ height: String(childPChainHeight(world, preferred(world, chain))) }),
    getCurrentEpoch: () => {
      const parent = preferred(world, chain);
      // getCurrentEpoch: the child's time is now (truncated to the second), never before its parent's.
      const now = world.time.get();
      const time = parent && parent.timestamp > now ? parent.timestamp : now;
      const epoch = nextEpoch(world, parent, time);
      return {
        number: String(epoch.number),
        startTime: String(epoch.startTime),
        pChainHeight: String(epoch.pChainHeight),
      };
    },
  };
}
