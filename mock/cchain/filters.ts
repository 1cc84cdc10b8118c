/**
 * eth_getLogs and the polled filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter,
 * eth_getFilterChanges, eth_getFilterLogs, eth_uninstallFilter) as coreth's eth/filters answers them, not the
 * engine's: a filter sees only the blocks accepted after it was installed (a pending-transaction filter the txs the
 * pool takes after it, as they enter: txpool's NewTxsEvent), an unknown ID is "filter not found", and a
 * range is checked against the last accepted block (coreth refuses a range past it, allow-unfinalized-queries being
 * off) before the engine, which walks every number of a range it is given, sees it.
 */
import { randomBytes } from 'node:crypto';
import type { Provider } from '@nomicfoundation/edr';
import type { RpcBlock } from './blocks.ts';
import { type CChain, EvmError } from './evm.ts';
import {
  type Criteria,
  LATEST,
  PENDING,
  type RpcLog,
  matches,
  readCriteria,
  subscribableRange,
} from './filter-criteria.ts';
import { jsonKind } from './params.ts';

/** eth/filters' Config.Timeout default: a filter not polled for this long is removed. */
const FILTER_TIMEOUT_MS = 5 * 60_000;
/** eth/filters' maxTopics. */
const MAX_TOPICS = 4;

type Filter =
  | { kind: 'logs'; criteria: Criteria; found: RpcLog[]; polled: number }
  | { kind: 'blocks'; found: string[]; polled: number }
  /** `fullTx`: each tx as NewRPCTransaction writes a pending one, read as the pool takes it; else its hash. */
  | { kind: 'transactions'; fullTx: boolean; found: unknown[]; polled: number };

const notFound = () => new EvmError(-32000, 'filter not found');
const invalidArgument = (error: string) => new EvmError(-32602, `invalid argument 0: ${error}`);
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** rpc.NewID: 16 random bytes in hex, leading zeros trimmed. */
const newID = () =>
  `0x${randomBytes(16)
    .toString('hex')
    .replace(/^0+(?=.)/, '')}`;

function criteriaOf(params: unknown): Criteria {
  const criteria = readCriteria(Array.isArray(params) ? params[0] : undefined);
  if ('error' in criteria) throw invalidArgument(criteria.error);
  return criteria;
}

/** FilterAPI.GetLogs's and Filter.Logs's checks, then the engine's logs of the resolved range (inside a queued op). */
async function logsOf(chain: CChain, provider: Provider, criteria: Criteria, checkOrder: boolean): Promise<unknown> {
  if (criteria.topics.length > MAX_TOPICS) throw new EvmError(-32000, 'exceed max topics');
  const filter = {
    ...(criteria.addresses.length > 0 ? { address: criteria.addresses } : {}),
    ...(criteria.topics.length > 0 ? { topics: criteria.topics } : {}),
  };
  if (criteria.blockHash !== undefined) {
    if (!(await chain.call(provider, 'eth_getBlockByHash', [criteria.blockHash, false])))
      throw new EvmError(-32000, 'unknown block');
    return chain.call(provider, 'eth_getLogs', [{ blockHash: criteria.blockHash, ...filter }]);
  }
  let begin = criteria.from ?? LATEST;
  let end = criteria.to ?? LATEST;
  if (checkOrder && begin > 0n && end > 0n && begin > end) throw new EvmError(-32000, 'invalid block range params');
  const head = BigInt(chain.height);
  if (begin >= 0n && begin > head)
    throw new EvmError(-32000, `requested from block ${begin} after last accepted block ${head}`);
  if (end >= 0n && end > head)
    throw new EvmError(-32000, `requested to block ${end} after last accepted block ${head}`);
  if (begin === PENDING && end !== PENDING) throw new EvmError(-32000, 'invalid block range params');
  if (begin === PENDING) return [];
  const endSet = end >= 0n;
  // Every tag names the last accepted block: the mock accepts each block as it builds it.
  if (begin < 0n) begin = head;
  if (end < 0n) end = head;
  if (endSet && end < begin) throw new EvmError(-32000, `begin block ${begin} is greater than end block ${end}`);
  return chain.call(provider, 'eth_getLogs', [{ fromBlock: hex(begin), toBlock: hex(end), ...filter }]);
}

/** One chain's filters, fed by its accepted blocks and its pool. */
class Filters {
  private readonly filters = new Map<string, Filter>();
  private readonly chain: CChain;
  private readonly listener = (block: RpcBlock, provider: Provider) => this.accepted(block, provider);
  private readonly poolListener = async (hash: string, provider: Provider) => {
    let tx: unknown;
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'transactions') continue;
      if (filter.fullTx) tx ??= pendingTransaction(await this.chain.call(provider, 'eth_getTransactionByHash', [hash]));
      filter.found.push(filter.fullTx ? tx : hash);
    }
  };

  constructor(chain: CChain) {
    this.chain = chain;
  }

  install(filter: Filter): string {
    this.expire();
    const id = newID();
    this.filters.set(id, filter);
    this.chain.blockListeners.add(this.listener);
    this.chain.poolListeners.add(this.poolListener);
    return id;
  }

  /** The filter by its rpc.ID argument, its deadline renewed. */
  get(params: unknown): Filter | undefined {
    this.expire();
    const id = (Array.isArray(params) ? params[0] : undefined) ?? '';
    if (typeof id !== 'string')
      throw invalidArgument(`json: cannot unmarshal ${jsonKind(id)} into Go value of type rpc.ID`);
    const filter = this.filters.get(id);
    if (filter) filter.polled = Date.now();
    return filter;
  }

  uninstall(params: unknown): boolean {
    const found = this.get(params) !== undefined;
    if (found) this.filters.delete((params as string[])[0]!);
    this.release();
    return found;
  }

  /** The timeout loop's work, done when the filters are next used. */
  private expire(): void {
    const now = Date.now();
    for (const [id, filter] of this.filters) if (now - filter.polled > FILTER_TIMEOUT_MS) this.filters.delete(id);
    this.release();
  }

  private release(): void {
    if (this.filters.size > 0) return;
    this.chain.blockListeners.delete(this.listener);
    this.chain.poolListeners.delete(this.poolListener);
  }

  private async accepted(block: RpcBlock, provider: Provider): Promise<void> {
    const filters = [...this.filters.values()];
    const logFilters = filters.filter((f) => f.kind === 'logs');
    const logs =
      logFilters.length > 0
        ? ((await this.chain.call(provider, 'eth_getLogs', [{ blockHash: block.hash }])) as RpcLog[])
        : [];
    for (const filter of filters) {
      if (filter.kind === 'logs') filter.found.push(...logs.filter((log) => matches(filter.criteria, log)));
      else if (filter.kind === 'blocks') filter.found.push(block.hash);
    }
  }
}

/**
 * ethapi.NewRPCTransaction of a tx in the pool, from the engine's answer for it (which may already have mined it): no
 * block hash, number or index, and a dynamic-fee tx's gasPrice its fee cap.
 */
export function pendingTransaction(tx: unknown): unknown {
  if (typeof tx !== 'object' || tx === null) return tx;
  const { maxFeePerGas } = tx as { maxFeePerGas?: string };
  return {
    ...tx,
    blockHash: null,
    blockNumber: null,
    transactionIndex: null,
    ...(maxFeePerGas !== undefined ? { gasPrice: maxFeePerGas } : {}),
  };
}

const byChain = new WeakMap<CChain, Filters>();

/** The methods, by name, for rpc.ts's own methods. */
export function filterMethods(chain: CChain): Record<string, (params: unknown) => Promise<unknown>> {
  const filters = () => {
    let set = byChain.get(chain);
    if (!set) byChain.set(chain, (set = new Filters(chain)));
    return set;
  };
  const now = Date.now;
  return {
    eth_getLogs: (params) => {
      const criteria = criteriaOf(params);
      return chain.run((p) => logsOf(chain, p, criteria, true));
    },
    eth_newFilter: (params) => {
      const criteria = criteriaOf(params);
      if (!subscribableRange(criteria)) throw new EvmError(-32000, 'invalid from and to block combination: from > to');
      // Installed in the queue, so that a block being built now is not counted as after it.
      return chain.run(async () => filters().install({ kind: 'logs', criteria, found: [], polled: now() }));
    },
    eth_newBlockFilter: () => chain.run(async () => filters().install({ kind: 'blocks', found: [], polled: now() })),
    eth_newPendingTransactionFilter: (params) =>
      chain.run(async () =>
        filters().install({
          kind: 'transactions',
          fullTx: Array.isArray(params) && params[0] === true,
          found: [],
          polled: now(),
        }),
      ),
    eth_getFilterChanges: (params) =>
      chain.run(async () => {
        const filter = filters().get(params);
        if (!filter) throw notFound();
        return filter.found.splice(0);
      }),
    eth_getFilterLogs: (params) =>
      chain.run(async (p) => {
        const filter = filters().get(params);
        if (filter?.kind !== 'logs') throw notFound();
        return logsOf(chain, p, filter.criteria, false);
      }),
    eth_uninstallFilter: (params) => chain.run(async () => filters().uninstall(params)),
  };
}
