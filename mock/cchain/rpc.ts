/**
 * `/ext/bc/C/rpc`: the C-Chain's Ethereum JSON-RPC, over HTTP as coreth's geth-derived server answers it (rpc/http.go:
 * POST with a JSON body of at most 5 MiB, single calls and batches). Params the C-Chain document refuses are refused
 * with geth's texts (./params.ts); then `eth_*`, `net_*` and `web3_*` calls pass to the EVM engine as they are, and
 * its answers and errors come back as it gives them; what coreth adds is answered here (`eth_baseFee`,
 * `eth_suggestPriceOptions`, `eth_getChainConfig`, the gas price oracle). The engine's own controls (`evm_*`,
 * `hardhat_*`) are never passed on: a C-Chain node has none; while the mock's dev controls are on, anvil's and
 * Hardhat's names for them are answered by them (./dev-rpc.ts).
 */
import type { Endpoint, NodeRequest, NodeResponse } from '../../generated/server/dist/index.js';
import { blockObjectRead, corethAnswer, corethHashes, engineParams, withCorethHashes } from './block-hashes.ts';
import { chainConfig } from './chain-config.ts';
import { corethFirst, web3AndNetMethods } from './coreth-reads.ts';
import { corethDefaultMethods } from './coreth-methods.ts';
import { readBlock, readBlockReceipts } from './block-reads.ts';
import { type CChain, EvmError } from './evm.ts';
import { type Serve, answerJsonRpc, errorJson } from './json-rpc.ts';
import { withCallData } from './call-data.ts';
import { feeMethods } from './fees-rpc.ts';
import { filterMethods } from './filters.ts';
import { runCall } from './call-run.ts';
import { refusedStateOverride } from './state-override.ts';
import { corethRefusal, gethAnswer } from './geth-errors.ts';
import { corethReceipt } from './receipts.ts';
import { signFillMethods } from './sign-fill.ts';
import { sendFromNode } from './node-send.ts';
import { senderOf, senderOfWrite, sendWrite, writeRefusal } from './send-path.ts';
import { resendMethod } from './resend.ts';
import { stringifyJson } from '../../generators/common/json.ts';
import { documented, refusedParams, unservedMethods } from './params.ts';
import { knownTransactionArgs, refusedTransactionArgs, withCallGas } from './transaction-args.ts';
import { answerDevMethod, servesDevMethods } from './dev-rpc.ts';
import { storageKeys } from './storage-keys.ts';
import { uncleMethods } from './uncles.ts';
import type { Fork } from '../fork/lazy.ts';

/** geth's rpc/http.go defaultBodyLimit. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const SERVED = /^(eth|net|web3|rpc)_/;
/** The calls that may build a block (see CChain.write). */
const WRITES = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const text = (status: number, body: string): Reply => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  body: `${body}\n`,
});

/**
 * A fork's engine finds a transaction by its hash at the fork source even when the source included it after the fork
 * point: one whose block is not this chain's is unknown here, as on a node that never saw it.
 */
function ownTransaction(chain: CChain, method: string, params: unknown): Promise<unknown> {
  return chain.run(async (p) => {
    const answer = await chain.call(p, method, Array.isArray(params) ? params : []);
    const found = (method === 'eth_getTransactionReceipt' ? await corethReceipt(chain, p, answer) : answer) as {
      blockHash?: string | null;
      blockNumber?: string | null;
    } | null;
    if (!chain.world.fork || !found?.blockHash) return corethHashes(chain, found);
    const block = (await chain.call(p, 'eth_getBlockByNumber', [found.blockNumber, false])) as { hash?: string } | null;
    if (block?.hash === found.blockHash) return corethHashes(chain, found);
    // A transaction of the source's history up to the fork block: EDR names its block by a hash of EDR's own making
    // (of the header fields it read), not the hash the source gave the block, which the block read answers.
    const forkBlock = (chain.world.fork as Fork).source.cHeight;
    if (block?.hash && forkBlock !== undefined && BigInt(found.blockNumber ?? -1) <= forkBlock)
      return corethHashes(chain, { ...found, blockHash: block.hash });
    return null;
  });
}

type OwnMethods = Record<string, (params: unknown) => Promise<unknown>>;
const ownMethods = new WeakMap<CChain, OwnMethods>();

/**
 * What coreth answers itself, by method: the result, from the engine's state and the fee rules (./fees-rpc.ts). Made
 * once per chain: the handlers keep their state in the chain.
 */
function corethMethods(chain: CChain): OwnMethods {
  let own = ownMethods.get(chain);
  if (!own) ownMethods.set(chain, (own = newCorethMethods(chain)));
  return own;
}

function newCorethMethods(chain: CChain): OwnMethods {
  return {
    ...feeMethods(chain),
    ...web3AndNetMethods(chain),
    ...uncleMethods(chain),
    ...signFillMethods(() => callServer(chain)),
    ...withCorethHashes(chain, filterMethods(chain)),
    ...corethDefaultMethods(chain, {
      transactionByHash: (params) => ownTransaction(chain, 'eth_getTransactionByHash', params),
      call: (params) => answerOne(chain, corethMethods(chain), '0', 'eth_call', params),
    }),
    eth_resend: resendMethod(chain, () => callServer(chain)),
    eth_getChainConfig: async () => chainConfig(chain.world, chain.release),
    eth_getBlockByNumber: (params) => readBlock(chain, 'eth_getBlockByNumber', params),
    eth_getBlockByHash: (params) => readBlock(chain, 'eth_getBlockByHash', params),
    eth_getHeaderByNumber: (params) => readBlock(chain, 'eth_getHeaderByNumber', params),
    eth_getHeaderByHash: (params) => readBlock(chain, 'eth_getHeaderByHash', params),
    eth_getBlockReceipts: (params) => readBlockReceipts(chain, params),
    eth_getTransactionByHash: (params) => ownTransaction(chain, 'eth_getTransactionByHash', params),
    eth_getTransactionReceipt: (params) => ownTransaction(chain, 'eth_getTransactionReceipt', params),
    // A fork's engine names the block of a transaction of the source's history by a hash of its own making.
    ...(chain.world.fork
      ? withCorethHashes(chain, {
          eth_getTransactionByBlockNumberAndIndex: (params) =>
            ownTransaction(chain, 'eth_getTransactionByBlockNumberAndIndex', params),
          eth_getTransactionByBlockHashAndIndex: (params) =>
            ownTransaction(chain, 'eth_getTransactionByBlockHashAndIndex', params),
        })
      : {}),
    // rpc.ErrNotificationsUnsupported: subscriptions are /ext/bc/C/ws's (./ws.ts).
    eth_subscribe: async () => {
      throw new EvmError(-32601, 'notifications not supported');
    },
  };
}

/**
 * The engine's answer to a balance or nonce at the latest block when the chain knows it already (./evm.ts
 * `knownAccount`; asked inside the queue): an atomic tx's account, read again by every wallet before its next one.
 */
function knownAnswer(chain: CChain, method: string, params: unknown): string | undefined {
  if (method !== 'eth_getTransactionCount' && method !== 'eth_getBalance') return undefined;
  if (!Array.isArray(params) || params.length !== 2 || params[1] !== 'latest' || typeof params[0] !== 'string')
    return undefined;
  const account = chain.knownAccount(params[0].slice(2).toLowerCase());
  if (!account) return undefined;
  return `{"result":"0x${(method === 'eth_getBalance' ? account.balance : account.nonce).toString(16)}"}`;
}

/** One call's answer, as JSON text, with `id` as written (./json-rpc.ts). */
async function answerOne(
  chain: CChain,
  own: OwnMethods,
  id: string,
  method: string,
  params: unknown,
  filled = false,
  unsigned = false,
): Promise<string> {
  const dev = await answerDevMethod(chain, method, params);
  if (dev !== undefined) return `{"jsonrpc":"2.0","id":${id},${dev.slice(1)}`;
  // anvil's send from any `from`, impersonated or not, for that transaction alone (api.rs
  // eth_send_unsigned_transaction; NoSignerAvailable without one): a dev control, sent as eth_sendTransaction.
  if (method === 'eth_sendUnsignedTransaction' && servesDevMethods(chain)) {
    const [args] = Array.isArray(params) ? params : [];
    if (typeof (args as { from?: unknown } | undefined)?.from !== 'string')
      return errorJson(id, -32602, 'No Signer available');
    return answerOne(chain, own, id, 'eth_sendTransaction', params, false, true);
  }
  if (
    !SERVED.test(method) ||
    !(method in own || (await documented(method))) ||
    (chain.release && (await unservedMethods(chain.release)).has(method))
  )
    return errorJson(id, -32601, `the method ${method} does not exist/is not available`);
  const refused =
    (await refusedParams(method, params, chain.release)) ??
    refusedTransactionArgs(method, params) ??
    refusedStateOverride(method, params);
  if (refused !== undefined) return errorJson(id, -32602, refused);
  const read = blockObjectRead(method, knownTransactionArgs(method, params));
  if ('refused' in read) return errorJson(id, -32000, read.refused);
  params = read.params;
  const write = await writeRefusal(chain, method, params, unsigned);
  if (write !== undefined) return errorJson(id, -32000, write);
  const called = withCallData(method, params);
  if ('refused' in called) return errorJson(id, -32000, called.refused);
  params = called.params;
  if (method === 'eth_sendTransaction' && !filled)
    return sendFromNode(
      chain,
      () => callServer(chain),
      senderOf(params),
      params,
      (args) => answerOne(chain, own, id, method, args, true, unsigned),
      (error) =>
        error instanceof EvmError
          ? errorJson(id, error.code, error.message, error.data)
          : errorJson(id, -32000, (error as Error).message),
    );
  // GetProof decodes its keys before it reads the state, GetStorageAt after.
  const keys = storageKeys(method, params);
  if (keys?.refused !== undefined && method === 'eth_getProof') return errorJson(id, -32000, keys.refused);
  // Refusals and answers of coreth's own before the engine's (./coreth-reads.ts).
  const first = await corethFirst(chain, method, params);
  if (first !== undefined) return `{"jsonrpc":"2.0","id":${id},${first.slice(1)}`;
  if (keys?.refused !== undefined) return errorJson(id, -32000, keys.refused);
  if (keys) params = keys.params;
  const mine = own[method];
  if (mine) {
    try {
      return `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(await mine(params))}}`;
    } catch (error) {
      if (error instanceof EvmError) return errorJson(id, error.code, error.message, error.data);
      return errorJson(id, -32000, (error as Error).message);
    }
  }
  const send = async (p: Parameters<Parameters<CChain['run']>[0]>[0]) => {
    const known = knownAnswer(chain, method, params);
    if (known !== undefined) return known;
    // The engine knows this chain's blocks by its own hashes (./block-hashes.ts).
    const engine = stringifyJson(engineParams(chain, method, withCallGas(method, params)) ?? []);
    const request = `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":${engine}}`;
    if (WRITES.has(method)) return sendWrite(chain, p, method, params, request);
    return corethAnswer(
      chain,
      method,
      method === 'eth_call' ? await runCall(chain, p, JSON.parse(engine) as unknown[]) : await chain.raw(p, request),
    );
  };
  const answer = WRITES.has(method)
    ? corethRefusal(await chain.write(send), () => senderOfWrite(method, params))
    : gethAnswer(
        method,
        keys ? keys.answer(await chain.run(send)) : await chain.run(send),
        withCallGas(method, params),
      );
  // The engine answers `{"result":…}` or `{"error":…}`: the caller's id goes in front.
  return `{"jsonrpc":"2.0","id":${id},${answer.slice(1)}`;
}

/** Each call's answer, by answerOne, for ./json-rpc.ts (over HTTP here, over WebSocket in ./ws.ts). */
export function callServer(chain: CChain): Serve {
  const own = corethMethods(chain);
  return (id, method, params) => answerOne(chain, own, id, method, params);
}

/** A body's answer (./json-rpc.ts). */
function answerBody(chain: CChain, body: string | Uint8Array): Promise<string> {
  return answerJsonRpc(typeof body === 'string' ? Buffer.from(body) : body, callServer(chain));
}

/** geth's acceptedContentTypes (rpc/http.go). */
const ACCEPTED_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

/** What geth's ServeHTTP reads of a request before its body. */
interface Head {
  method: string | undefined;
  type: string | undefined;
  /** r.ContentLength: the declared length, -1 when unknown (chunked), 0 when none. */
  declared: number;
  /** Whether the URL has a query (r.URL.RawQuery != ""). */
  query: boolean;
}

/**
 * geth's ServeHTTP (rpc/http.go): an empty GET without a query is a health check, answered empty; then
 * validateRequest (after refusedUnread: OPTIONS taken whatever its type, any other method by its media type), then
 * the calls.
 */
async function reply(chain: CChain, head: Head, body: Uint8Array): Promise<Reply> {
  if (head.method === 'GET' && head.declared === 0 && !head.query) return { status: 200, headers: {}, body: '' };
  const mime = (head.type ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (head.method !== 'OPTIONS' && !ACCEPTED_TYPES.has(mime))
    return text(415, 'invalid content type, only application/json is supported');
  return { status: 200, headers: JSON_HEADERS, body: await answerBody(chain, body) };
}

/** validateRequest's refusals before the body is read: PUT and DELETE, then a declared length over the limit. */
function refusedUnread(method: string | undefined, declared: number): Reply | undefined {
  if (method === 'PUT' || method === 'DELETE') return text(405, 'method not allowed');
  if (declared > MAX_BODY_BYTES) return text(413, tooLarge(declared));
  return undefined;
}

/** r.ContentLength of a request with these headers. */
function declaredLength(length: string | null | undefined, transferEncoding: string | null | undefined): number {
  if (length !== null && length !== undefined) return Number(length);
  return transferEncoding ? -1 : 0;
}

function send(res: NodeResponse, answer: Reply, extra: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(answer.status, {
    ...extra,
    ...answer.headers,
    'Content-Length': String(Buffer.byteLength(answer.body)),
  });
  res.end(answer.body);
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The body as geth's io.LimitReader gives it: its first MAX_BODY_BYTES bytes, the rest unread (a body that never ends
 * is answered from what came first). A body declared larger is refused before it is read (validateRequest).
 */
async function readLimited(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, MAX_BODY_BYTES - size));
    size += value.length;
  }
  if (size >= MAX_BODY_BYTES) await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks);
}

/** The endpoint, shaped as the generated router's endpoints are. */
export function cChainRpcEndpoint(chain: CChain): Endpoint {
  const node = (req: NodeRequest, res: NodeResponse, extra?: Readonly<Record<string, string>>) => {
    const refused = refusedUnread(req.method, Number(first(req.headers['content-length'])));
    if (refused) {
      req.resume();
      return send(res, refused, extra);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      const head = {
        method: req.method,
        type: first(req.headers['content-type']),
        declared: declaredLength(first(req.headers['content-length']), first(req.headers['transfer-encoding'])),
        query: (req.url ?? '').includes('?') && !(req.url ?? '').endsWith('?'),
      };
      reply(chain, head, Buffer.concat(chunks)).then(
        (answer) => send(res, answer, extra),
        (error: Error) => send(res, text(500, error.message), extra),
      );
    };
    req.on('data', (chunk: Uint8Array) => {
      if (answered) return;
      chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
      size += chunk.length;
      if (size < MAX_BODY_BYTES) return;
      // Go's server closes a connection whose body the handler left unread. What is still sent is dropped meanwhile,
      // and for a moment after the answer, which a client still sending would otherwise lose to a reset.
      res.setHeader('Connection', 'close');
      res.on('finish', () => setTimeout(() => res.socket?.destroy(), 1000));
      answer();
    });
    req.on('end', answer);
  };
  const fetch = async (request: Request): Promise<Response> => {
    const refused = refusedUnread(request.method, Number(request.headers.get('content-length')));
    if (refused) return new Response(refused.body, { status: refused.status, headers: refused.headers });
    const body = await readLimited(request);
    const head = {
      method: request.method,
      type: request.headers.get('content-type') ?? undefined,
      declared: declaredLength(request.headers.get('content-length'), request.headers.get('transfer-encoding')),
      query: new URL(request.url).search !== '',
    };
    const answer = await reply(chain, head, body);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
  const answer = async (body: Uint8Array) =>
    reply(chain, { method: 'POST', type: 'application/json', declared: body.length, query: false }, body);
  return { name: 'c-chain-rpc', profile: 'node', node, fetch, answer, maxBodyBytes: MAX_BODY_BYTES };
}

/** validateRequest's refusal of a declared length over the limit. */
const tooLarge = (size: number) => `content length too large (${size}>${MAX_BODY_BYTES})`;
