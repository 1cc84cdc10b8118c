/**
 * eth_getLogs's, eth_newFilter's and the `logs` subscription's filter, read as coreth's FilterCriteria.UnmarshalJSON
 * reads it (eth/filters/api.go), with its texts: the caller gets "invalid argument 0: <text>" (-32602) before the
 * engine sees the filter, which it then gets in one shape (block numbers resolved, addresses an array).
 */
import { decodeUint64, fixedJson, goBlockNumber, jsonKind } from './params.ts';

/** rpc.BlockNumber's tags as the numbers geth gives them (rpc/types.go); `accepted` is coreth's finalized. */
export const PENDING = -1n;
export const LATEST = -2n;
const TAG_NUMBERS: Record<string, bigint> = {
  earliest: 0n,
  pending: PENDING,
  latest: LATEST,
  finalized: -3n,
  accepted: -3n,
  safe: -4n,
};

export interface Criteria {
  blockHash?: string;
  from?: bigint;
  to?: bigint;
  addresses: string[];
  /** Per position, the topics any of which matches; null matches anything. */
  topics: Array<string[] | null>;
}

/**
 * Whether a log filter's block range is one coreth's event system subscribes to (filter_system.go
 * SubscribeAcceptedLogs, which eth_newFilter and eth_subscribe "logs" both reach): otherwise "invalid from and to
 * block combination: from > to". Either bound left out is `latest`.
 */
export function subscribableRange(criteria: Criteria): boolean {
  const from = criteria.from ?? LATEST;
  const to = criteria.to ?? LATEST;
  return (
    (from === PENDING && to === PENDING) ||
    (from === LATEST && to === LATEST) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= LATEST && to === PENDING) ||
    (from >= 0n && to === LATEST)
  );
}

/** eth/filters' maxAddresses. */
const MAX_ADDRESSES = 1000;

/** hexutil.Decode, then the length decodeAddress and decodeTopic want: the bytes as lower-case hex, or the error. */
function decodeFixed(text: string, size: number, what: string): string | { error: string } {
  if (text.length === 0) return { error: 'empty hex string' };
  if (!text.startsWith('0x') && !text.startsWith('0X')) return { error: 'hex string without 0x prefix' };
  const raw = text.slice(2);
  if (raw.length % 2 === 1) return { error: 'hex string of odd length' };
  if (!/^[0-9a-fA-F]*$/.test(raw)) return { error: 'invalid hex string' };
  if (raw.length !== size * 2)
    return { error: `hex has invalid length ${raw.length / 2} after decoding; expected ${size} for ${what}` };
  return `0x${raw.toLowerCase()}`;
}

function blockNumberOf(value: unknown): bigint | { error: string } {
  const error = goBlockNumber(value);
  if (error !== undefined) return { error };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return TAG_NUMBERS[text] ?? (decodeUint64(text) as bigint);
}

function addressesOf(value: unknown): string[] | { error: string } {
  if (typeof value === 'string') {
    const address = decodeFixed(value, 20, 'address');
    return typeof address === 'string' ? [address] : { error: `invalid address: ${address.error}` };
  }
  if (!Array.isArray(value)) return { error: 'invalid addresses in query' };
  if (value.length > MAX_ADDRESSES) return { error: 'exceed max addresses' };
  const addresses: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return { error: `non-string address at index ${i}` };
    const address = decodeFixed(item, 20, 'address');
    if (typeof address !== 'string') return { error: `invalid address at index ${i}: ${address.error}` };
    addresses.push(address);
  }
  return addresses;
}

function topicsOf(value: unknown[]): Criteria['topics'] | { error: string } {
  const topics: Criteria['topics'] = [];
  for (const position of value) {
    if (position === null) topics.push(null);
    else if (typeof position === 'string') {
      const topic = decodeFixed(position, 32, 'topic');
      if (typeof topic !== 'string') return topic;
      topics.push([topic]);
    } else if (Array.isArray(position)) {
      let any: string[] | null = [];
      for (const item of position) {
        if (item === null) {
          any = null;
          break;
        }
        if (typeof item !== 'string') return { error: 'invalid topic(s)' };
        const topic = decodeFixed(item, 32, 'topic');
        if (typeof topic !== 'string') return topic;
        any.push(topic);
      }
      topics.push(any);
    } else return { error: 'invalid topic(s)' };
  }
  return topics;
}

/** The filter, or the error text after "invalid argument N: ". Keys match case-insensitively, the last one winning. */
export function readCriteria(value: unknown): Criteria | { error: string } {
  if (value === null || value === undefined) return { addresses: [], topics: [] };
  if (typeof value !== 'object' || Array.isArray(value))
    return { error: `json: cannot unmarshal ${jsonKind(value)} into Go value of type filters.input` };
  const fields = new Map(Object.entries(value).map(([key, field]) => [key.toLowerCase(), field]));
  const criteria: Criteria = { addresses: [], topics: [] };
  for (const [key, field] of fields) {
    if (field === null) continue;
    if (key === 'blockhash') {
      const error = fixedJson('common.Hash', 32)(field);
      if (error !== undefined)
        return { error: error.replace('Go value of type', 'Go struct field input.blockHash of type') };
      criteria.blockHash = (field as string).toLowerCase();
    } else if (key === 'fromblock' || key === 'toblock') {
      const number = blockNumberOf(field);
      if (typeof number !== 'bigint') return number;
      criteria[key === 'fromblock' ? 'from' : 'to'] = number;
    } else if (key === 'topics' && !Array.isArray(field))
      return {
        error: `json: cannot unmarshal ${jsonKind(field)} into Go struct field input.topics of type []interface {}`,
      };
  }
  if (criteria.blockHash !== undefined && (criteria.from !== undefined || criteria.to !== undefined))
    return { error: 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other' };
  const address = fields.get('address');
  if (address !== undefined && address !== null) {
    const addresses = addressesOf(address);
    if (!Array.isArray(addresses)) return addresses;
    criteria.addresses = addresses;
  }
  const topics = fields.get('topics');
  if (Array.isArray(topics) && topics.length > 0) {
    const read = topicsOf(topics);
    if (!Array.isArray(read)) return read;
    criteria.topics = read;
  }
  return criteria;
}

/** What of an engine's log a filter looks at. */
export interface RpcLog {
  address: string;
  topics: string[];
  blockNumber: string;
}

/** Whether a log matches the filter's addresses, topics and block range (eth/filters' filterLogs). */
export function matches(criteria: Criteria, log: RpcLog): boolean {
  const number = BigInt(log.blockNumber);
  if (criteria.from !== undefined && criteria.from >= 0n && criteria.from > number) return false;
  if (criteria.to !== undefined && criteria.to >= 0n && criteria.to < number) return false;
  if (criteria.addresses.length > 0 && !criteria.addresses.includes(log.address.toLowerCase())) return false;
  if (criteria.topics.length > log.topics.length) return false;
  return criteria.topics.every(
    (any, i) => any === null || any.length === 0 || any.includes(log.topics[i]!.toLowerCase()),
  );
}

/**
 * A log as coreth writes it (core/types gen_log_json.go; libevm's, geth v1.13's, through v1.15.0-fuji): its fields in
 * that order, without the `blockTimestamp` geth 1.16 added and the engine writes.
 */
function corethLog(log: RpcLog & Record<string, unknown>): Record<string, unknown> {
  const { address, topics, data, blockNumber, transactionHash, transactionIndex, blockHash, logIndex, removed } = log;
  return { address, topics, data, blockNumber, transactionHash, transactionIndex, blockHash, logIndex, removed };
}

/** The engine's answer to `method` with its logs as coreth writes them: eth_getLogs' list, a receipt's `logs`. */
export function withCorethLogs(method: string, result: unknown): unknown {
  if (method === 'eth_getLogs' && Array.isArray(result)) return result.map(corethLog);
  if (method !== 'eth_getTransactionReceipt' || typeof result !== 'object' || result === null) return result;
  const { logs } = result as { logs?: unknown };
  return Array.isArray(logs) ? { ...result, logs: logs.map(corethLog) } : result;
}
