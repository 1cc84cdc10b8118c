/**
 * A call run on a second engine in a child process, under coreth's deadline (RPCEVMTimeout, 5 s: DoCall cancels the
 * EVM when its context ends, internal/ethapi/api.go), for code the chain's engine cannot be trusted to end in time.
 *
 * Why: EDR 0.22 offers no way to stop a run (its call-override callback, the one hook into a run, aborts the process
 * when it fails), and runs ~1.2-2 µs of CPU per gas of a cheap loop: the 50,000,000 gas of the RPC gas cap is a
 * minute, on a thread of its own that outlives any answer. A child process can be killed: its engine is forked (EDR's
 * own fork mode) from the chain's engine at the call's block, through a route of a server on 127.0.0.1 that answers
 * only the state reads a fork makes, straight from the chain's engine. The call's queued op steps aside meanwhile
 * (./op-queue.ts), so the chain serves other requests as coreth does; the fork block's state stays as it is unless a
 * dev edit (hardhat_set*), revert or reset moves it, after which the route refuses the child's reads and the call is
 * answered an error (conservatively, even when its run had read everything before). The deadline counts from the
 * call's arrival; at it the call is answered coreth's timeout, the child killed and the route closed. `stopDetached`
 * (the node's close) kills every child and waits for its folder to be removed.
 */
import type { ForkConfig, Provider } from '@nomicfoundation/edr';
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CChain } from './evm.ts';
import { inChild } from './second-engine.ts';

/** What a run answered: the engine's `{"result":…}` or `{"error":…}` as JSON, or nothing by the deadline. */
export type Detached = { answer: string } | { timeout: true };

/** The reads EDR's fork makes of its source (its chain, its fork block, the accounts and slots the run loads). */
const READS = new Set([
  'eth_chainId',
  'net_version',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBalance',
  'eth_getCode',
  'eth_getTransactionCount',
  'eth_getStorageAt',
]);
/** A fork's requests are small: anything larger is not one. */
const MAX_BODY = 64 * 1024;

/**
 * The open routes: a token to the chain's engine it reads, and the fields its fork block's header is read with
 * instead of its own (block overrides: the second engine runs a call at its fork block on that block's header).
 */
const routes = new Map<string, Route>();
interface Route {
  source: Provider;
  fork: string;
  header?: Record<string, string>;
  /** Whether the chain's state was edited, reverted or reset since the route opened: its fork block may differ. */
  moved: () => boolean;
}
let server: Promise<{ server: Server; port: number }> | undefined;

type Request = { id?: unknown; method?: unknown; params?: unknown };

async function answerOne(route: Route, request: Request): Promise<object> {
  const id = request.id ?? null;
  if (typeof request.method !== 'string' || !READS.has(request.method))
    return { jsonrpc: '2.0', id, error: { code: -32601, message: 'not a read a fork makes' } };
  const response = await route.source.handleRequest(JSON.stringify({ jsonrpc: '2.0', id, ...request }));
  const data = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
  const block = (data as { result?: { number?: unknown } }).result;
  if (route.header && request.method.startsWith('eth_getBlockBy') && block?.number === route.fork)
    Object.assign(block, route.header);
  // The engine answers without the envelope, which EDR's fork client requires.
  return { jsonrpc: '2.0', id, ...(data as object) };
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const source = routes.get((request.url ?? '').slice(1));
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) break;
  }
  if (!source || body.length > MAX_BODY) {
    response.writeHead(source ? 413 : 410).end();
    return;
  }
  let parsed: Request | Request[];
  try {
    parsed = JSON.parse(body) as Request | Request[];
  } catch {
    response.writeHead(400).end();
    return;
  }
  // The engine reads outside the chain's queue: a read made while the chain moved is refused, not answered.
  const answer = source.moved()
    ? undefined
    : Array.isArray(parsed)
      ? await Promise.all(parsed.map((one) => answerOne(source, one)))
      : await answerOne(source, parsed);
  if (source.moved()) {
    response.writeHead(410).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
}

/** The process's one route server, which never keeps the process alive. */
function routeServer(): Promise<{ server: Server; port: number }> {
  server ??= new Promise((resolve, reject) => {
    const http = createServer((request, response) => {
      serve(request, response).catch(() => response.destroy());
    });
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.unref();
      resolve({ server: http, port: (http.address() as AddressInfo).port });
    });
  });
  return server;
}

export interface Header {
  number: string;
  timestamp: string;
  miner: string;
  baseFeePerGas?: string;
  gasLimit: string;
  mixHash: string;
  transactions: unknown[];
}

/** The engine's header of the block a call names (engine params: a tag, number, hash or {blockHash | blockNumber}). */
export async function engineHeader(chain: CChain, provider: Provider, block: unknown): Promise<Header | null> {
  const read = (method: string, at: unknown) => chain.call(provider, method, [at, false]) as Promise<Header | null>;
  const named =
    typeof block === 'object' && block !== null ? (block as { blockHash?: unknown; blockNumber?: unknown }) : undefined;
  if (named?.blockHash !== undefined) return read('eth_getBlockByHash', named.blockHash);
  if (typeof block === 'string' && block.length === 66) return read('eth_getBlockByHash', block);
  return read('eth_getBlockByNumber', named?.blockNumber ?? block ?? 'latest');
}

/**
 * Where the second engine forks and what it sets of its next block, for a call at `block` (engine params), or
 * undefined when it cannot run there as the chain's engine would: a pending block holding txs, an unknown block.
 */
async function forkPoint(chain: CChain, provider: Provider, block: unknown) {
  const read = (method: string, at: unknown) => chain.call(provider, method, [at, false]) as Promise<Header | null>;
  if (block === 'pending') {
    const [latest, pending] = await Promise.all([
      read('eth_getBlockByNumber', 'latest'),
      read('eth_getBlockByNumber', 'pending'),
    ]);
    if (!latest || !pending || pending.transactions.length > 0) return undefined;
    // The pending block as the chain's engine would build it, which the second engine builds on the same parent.
    const next: Array<[string, unknown[]]> = [
      ['evm_setNextBlockTimestamp', [pending.timestamp]],
      ['hardhat_setCoinbase', [pending.miner]],
      ['hardhat_setNextBlockBaseFeePerGas', [pending.baseFeePerGas ?? '0x0']],
      ['evm_setBlockGasLimit', [pending.gasLimit]],
      ['hardhat_setPrevRandao', [pending.mixHash]],
    ];
    return { number: BigInt(latest.number), next };
  }
  const header = await engineHeader(chain, provider, block);
  return header ? { number: BigInt(header.number), next: [] } : undefined;
}

const MOVED = 'the C-Chain state changed (a dev edit, revert or reset) while the call ran';

/**
 * The engine's answer to `method` (eth_call, eth_estimateGas) with `params` (engine params) on a second engine, or a
 * timeout at `deadline` (Date.now()'s clock); undefined when the call cannot run there (see forkPoint; with `header`,
 * the fields its block is read with, not at `pending`). Called inside a queued op, which steps aside while it runs.
 */
export async function detachedCall(
  chain: CChain,
  provider: Provider,
  params: unknown[],
  deadline: number,
  { method = 'eth_call', header }: { method?: string; header?: Record<string, string> } = {},
): Promise<Detached | undefined> {
  const point = await forkPoint(chain, provider, params[1]);
  if (!point || (header && point.next.length > 0)) return undefined;
  const { port } = await routeServer();
  const token = randomBytes(16).toString('hex');
  const moves = chain.moves;
  const moved = () => chain.moves !== moves;
  routes.set(token, { source: provider, fork: `0x${point.number.toString(16)}`, moved, ...(header ? { header } : {}) });
  try {
    const config = (cacheDir: string) => {
      const forked = chain.forkConfig({
        url: `http://127.0.0.1:${port}/${token}`,
        blockNumber: point.number,
        cacheDir,
      });
      // Every block of the source on this chain's rules: EDR knows none of its chain's, and runs a call at its fork
      // block on that block's own header, as the chain's engine does.
      (forked.network as ForkConfig).chainOverrides = [
        {
          chainId: forked.chainId,
          name: 'C-Chain',
          hardforkActivationOverrides: [{ condition: { blockNumber: 0n }, hardfork: forked.hardfork }],
        },
      ];
      return forked;
    };
    const at = point.next.length > 0 ? 'pending' : 'latest';
    const requests = [
      ...point.next.map(([method, args]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: args })),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [params[0], at, ...params.slice(2)] }),
    ];
    const ended = await chain.aside(() => inChild(chain, config, requests, deadline));
    if (ended === 'late') return { timeout: true };
    // Its run may have read the state the chain left: answered an error the caller can retry, not a mixed state's result.
    if (moved()) return { answer: JSON.stringify({ error: { code: -32000, message: MOVED } }) };
    if (ended.answer === undefined) throw new Error(`the mock's second engine failed: ${ended.failed}`);
    return { answer: ended.answer };
  } finally {
    routes.delete(token);
  }
}
