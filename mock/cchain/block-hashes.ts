/**
 * The C-Chain's block hashes as coreth names its blocks, where the engine names them by its Ethereum headers' hashes.
 * Each block's coreth hash is worked out as the engine builds it (./coreth-block.ts `corethExtraOf`) and kept with
 * what coreth adds to it, per height (./evm.ts): what a revert, a reset or a replay undoes goes with it, and nothing
 * is saved (a loaded state replays into the same hashes). Here, the requests' coreth hashes become the engine's before
 * it sees them, and the engine's in its answers coreth's; every call runs inside the chain's queue.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CorethExtra } from './coreth-block.ts';
import { withCorethSignature } from './rpc-transaction-signature.ts';
import type { CChain } from './evm.ts';

/** Heights by hash, coreth's and the engine's; `seen` the extras indexed, per height, to find what changed since. */
interface HashIndex {
  heights: Map<string, number>;
  seen: Array<CorethExtra | undefined>;
}

const indexes = new WeakMap<CChain, HashIndex>();

/**
 * The index brought up to the chain: the chain only ever drops its top blocks and adds new ones, so the extras still
 * indexed are a prefix, found by bisection, and only the blocks after it are indexed again. Entries of dropped blocks
 * stay until the map outgrows twice the chain, and are checked against the chain on every read.
 */
function indexOf(chain: CChain): HashIndex {
  let index = indexes.get(chain);
  const height = chain.height;
  if (!index || index.heights.size > 2 * (height + 1) + 1024) {
    index = { heights: new Map(), seen: [] };
    indexes.set(chain, index);
  }
  const { heights, seen } = index;
  let low = 0;
  let high = Math.min(seen.length, height + 1);
  while (low < high) {
    const middle = (low + high) >> 1;
    if (seen[middle] === chain.corethExtra(middle)) low = middle + 1;
    else high = middle;
  }
  seen.length = low;
  for (let at = low; at <= height; at++) {
    const extra = chain.corethExtra(at);
    seen.push(extra);
    if (!extra) continue;
    heights.set(extra.hash, at);
    heights.set(extra.engineHash, at);
  }
  return index;
}

/** The extra of this chain's block that `hash` (coreth's or the engine's) names, if any. */
function extraOf(chain: CChain, hash: string): CorethExtra | undefined {
  const key = hash.toLowerCase();
  const height = indexOf(chain).heights.get(key);
  const extra = height === undefined ? undefined : chain.corethExtra(height);
  return extra && (extra.hash === key || extra.engineHash === key) ? extra : undefined;
}

/** coreth's hash of the engine's block `hash`; any other hash as it is. */
function corethHash(chain: CChain, hash: string): string {
  const extra = extraOf(chain, hash);
  return extra && extra.engineHash === hash.toLowerCase() ? extra.hash : hash;
}

/**
 * The engine's hash of the block coreth names `hash`. The engine's own hash of a block coreth names otherwise is no
 * block's on a node: it becomes its keccak-256, which no block has either. Any other hash stays as it is.
 */
export function engineHash(chain: CChain, hash: string): string {
  const extra = extraOf(chain, hash);
  if (!extra) return hash;
  const key = hash.toLowerCase();
  if (extra.hash === key) return extra.engineHash;
  return `0x${Buffer.from(keccak_256(Buffer.from(key.slice(2), 'hex'))).toString('hex')}`;
}

/**
 * rpc.BlockNumber as coreth's BlockByNumber and HeaderByNumber read it (eth/api_backend.go), for the engine: a number
 * as it is (`0X` read as Go reads it), `earliest` the genesis, and every other tag (latest, pending, accepted, safe,
 * finalized: `IsAccepted`) the last accepted block, since coreth has no pending block. The params check
 * (./params.ts) has refused anything else.
 */
export function engineBlockNumber(at: unknown): unknown {
  if (typeof at !== 'string') return at;
  if (/^0x/i.test(at)) return `0x${at.slice(2)}`;
  return at === 'earliest' ? '0x0' : 'latest';
}

const isHash = (value: unknown): value is string => typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value);

/** The params' argument at which each method takes a block hash, alone or in a filter. */
const HASH_ARGUMENT: Record<string, number> = {
  eth_getBlockByHash: 0,
  eth_getHeaderByHash: 0,
  eth_getBlockTransactionCountByHash: 0,
  eth_getTransactionByBlockHashAndIndex: 0,
  eth_getUncleCountByBlockHash: 0,
  eth_getUncleByBlockHashAndIndex: 0,
  eth_getLogs: 0,
  eth_newFilter: 0,
};

/** The argument at which each method the engine answers takes an rpc.BlockNumber. */
const BLOCK_NUMBER_ARGUMENT: Record<string, number> = {
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
};

/**
 * The argument at which each method takes an rpc.BlockNumberOrHash (StateAndHeaderByNumberOrHash's state reads).
 */
export const BLOCK_NUMBER_OR_HASH: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
};

/**
 * An rpc.BlockNumberOrHash object (`{"blockNumber": …}` or `{"blockHash": …, "requireCanonical": …}`) as the bare
 * tag, number or hash it names, which the rest of the mock reads: coreth's UnmarshalJSON (graft/evm/rpc/types.go)
 * takes a tag in the object form as in the bare one, its keys in any case (encoding/json), and its backend never reads
 * requireCanonical (eth/api_backend.go *ByNumberOrHash). One naming neither is their refusal. The params check
 * (./params.ts) has refused a bad object; eth_getBlockReceipts reads its own (./block-reads.ts), answering null where
 * the state reads refuse.
 */
export function blockObjectRead(method: string, params: unknown): { params: unknown } | { refused: string } {
  const at = BLOCK_NUMBER_OR_HASH[method];
  if (at === undefined || !Array.isArray(params)) return { params };
  const value: unknown = params[at];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { params };
  let named: unknown = null;
  for (const [key, field] of Object.entries(value))
    if (['blocknumber', 'blockhash'].includes(key.toLowerCase()) && field !== null) named = field;
  if (named === null) return { refused: 'invalid arguments; neither block nor hash specified' };
  const copy = [...params];
  copy[at] = named;
  return { params: copy };
}

/**
 * The state reads whose `pending` coreth reads as the last accepted block (StateAndHeaderByNumberOrHash through
 * HeaderByNumber, eth/api_backend.go), where the engine would read its pending block, the pool's transactions applied.
 * Not eth_getTransactionCount (GetPoolNonce, as the engine's) nor eth_call (DoCall's pending header: ./coreth-reads.ts).
 */
const PENDING_AS_ACCEPTED: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
};

/**
 * `method`'s params with the block they name as the engine knows it: a block number as engineBlockNumber reads it;
 * a hash string, or an object's `blockHash` (its key matched as Go's decoder matches it); anything else untouched. A
 * BlockNumberOrHash given as a bare hash, which coreth reads as the block's hash, goes to the engine as
 * `{ blockHash }`, the one form it takes.
 */
export function engineParams(chain: CChain, method: string, params: unknown): unknown {
  const pending = PENDING_AS_ACCEPTED[method];
  if (pending !== undefined && Array.isArray(params) && params[pending] === 'pending') {
    const copy = [...params];
    copy[pending] = 'latest';
    return copy;
  }
  const byNumber = BLOCK_NUMBER_ARGUMENT[method];
  if (byNumber !== undefined && Array.isArray(params) && params.length > byNumber) {
    const copy = [...params];
    copy[byNumber] = engineBlockNumber(params[byNumber]);
    return copy;
  }
  const orNumber = BLOCK_NUMBER_OR_HASH[method];
  const at = orNumber ?? HASH_ARGUMENT[method];
  if (at === undefined || !Array.isArray(params) || params.length <= at) return params;
  const argument: unknown = params[at];
  let translated = argument;
  // HeaderByNumber's IsAccepted tags (accepted, safe, finalized), which the engine lacks, are its latest.
  if (orNumber !== undefined && typeof argument === 'string' && !/^0x/i.test(argument) && argument !== 'pending')
    translated = engineBlockNumber(argument);
  else if (isHash(argument))
    translated = orNumber === undefined ? engineHash(chain, argument) : { blockHash: engineHash(chain, argument) };
  else if (typeof argument === 'object' && argument !== null && !Array.isArray(argument))
    translated = Object.fromEntries(
      Object.entries(argument).map(([key, value]) => [
        key,
        key.toLowerCase() === 'blockhash' && isHash(value) ? engineHash(chain, value) : value,
      ]),
    );
  if (translated === argument) return params;
  const copy = [...params];
  copy[at] = translated;
  return copy;
}

/** The fields of an answer's objects (blocks, headers, transactions, receipts, logs) that hold a block's hash. */
const HASH_FIELDS = new Set(['hash', 'blockHash', 'parentHash']);

/**
 * An answer (a JSON value) with the engine's block hashes as coreth's: in blocks, headers, transactions, receipts
 * and logs, at any depth, and a block filter's list of hashes. Other values (a log's data or topics, a call's result)
 * are left as the engine gave them, whatever they hold, but for a transaction's chain id or yParity
 * (./rpc-transaction-signature.ts), which every transaction read goes through here to gain.
 */
export function corethHashes(chain: CChain, answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map((item) => (isHash(item) ? corethHash(chain, item) : inObjects(item)));
  return inObjects(answer);

  function inObjects(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(inObjects);
    if (typeof value !== 'object' || value === null) return value;
    return withCorethSignature(
      Object.fromEntries(
        Object.entries(value).map(([key, field]) => [
          key,
          HASH_FIELDS.has(key) && isHash(field) ? corethHash(chain, field) : inObjects(field),
        ]),
      ),
    );
  }
}

/** The methods whose answers may name a block by its hash. */
const NAMES_BLOCKS = new Set([
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getLogs',
  'eth_getFilterLogs',
  'eth_getFilterChanges',
  'eth_pendingTransactions',
]);

/** The engine's answer text (`{"result":…}` or `{"error":…}`) to `method` with its block hashes as coreth's. */
export function corethAnswer(chain: CChain, method: string, answer: string): string {
  if (!NAMES_BLOCKS.has(method)) return answer;
  const parsed = JSON.parse(answer) as { result?: unknown };
  if (!('result' in parsed)) return answer;
  return JSON.stringify({ ...parsed, result: corethHashes(chain, parsed.result) });
}

/**
 * Methods whose params may name a block by coreth's hash and whose answers by the engine's: each given the engine's
 * hashes, its answer given coreth's.
 */
export function withCorethHashes(
  chain: CChain,
  methods: Record<string, (params: unknown) => Promise<unknown>>,
): Record<string, (params: unknown) => Promise<unknown>> {
  return Object.fromEntries(
    Object.entries(methods).map(([method, answer]) => [
      method,
      async (params: unknown) => {
        const result = await answer(await chain.run(async () => engineParams(chain, method, params)));
        return chain.run(async () => corethHashes(chain, result));
      },
    ]),
  );
}
