/**
 * `/ext/bc/C/ws`: the C-Chain's JSON-RPC over WebSocket, as coreth's geth-derived server serves it (rpc/websocket.go):
 * every call `/ext/bc/C/rpc` answers, single or batched, plus the subscriptions (eth/filters/api.go): `newHeads` (each
 * new block's header), `logs` (each new block's logs matching an address and topics filter) and
 * `newPendingTransactions` (each tx as the pool takes it), coreth's `newAcceptedTransactions` (each tx of each accepted
 * block), notified as
 * `eth_subscription` messages, and `eth_unsubscribe`. Over HTTP the node refuses subscriptions ("notifications not
 * supported"). A hostile message gets geth's answer and never crashes the node: nothing here recurses on its nesting.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { Provider } from '@nomicfoundation/edr';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { compareVersions } from '../../generators/common/versions.ts';
import { goQuote } from '../../runtime/server/encode.ts';
import { GoSyntaxError, parseFirstValue } from '../../runtime/server/json.ts';
import { corethHashes } from './block-hashes.ts';
import type { RpcBlock } from './blocks.ts';
import { corethHeaderJson } from './coreth-block.ts';
import type { CChain } from './evm.ts';
import { type Criteria, type RpcLog, matches, readCriteria, subscribableRange } from './filter-criteria.ts';
import { pendingTransaction } from './filters.ts';
import { withCorethSignature } from './rpc-transaction-signature.ts';
import { jsonKind, refusedParams } from './params.ts';
import { type Serve, answerParsed, errorJson } from './json-rpc.ts';
import { callServer } from './rpc.ts';

/** geth's wsDefaultReadLimit. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** geth's maxClientSubscriptionBuffer bounds one client's backlog; the mock bounds its subscriptions instead. */
const MAX_SUBSCRIPTIONS = 1000;
/**
 * geth's wsPingInterval and wsPongTimeout (rpc/websocket.go): a connection that has not answered a ping by the next
 * one is cut, so a client that stops reading, or trickles a message, does not hold its socket for ever.
 */
const PING_INTERVAL_MS = 30_000;
/**
 * geth's defaultWriteTimeout (rpc/json.go): a message not handed to the client's socket within 10 s ends the
 * connection. Go's write blocks; here the message would wait in memory, so a client that stops reading is cut as
 * Go cuts it, before its answers pile up.
 */
const WRITE_TIMEOUT_MS = 10_000;
/**
 * Messages read and not yet answered, beyond which the socket is no longer read until they are (TCP then holds the
 * client back): a client flooding 32 MiB messages faster than they are answered holds no more than this many.
 */
const MAX_QUEUED_MESSAGES = 16;
/**
 * Bytes waiting to reach a client's socket beyond which a notification cuts it: the backlog notifications build up
 * for a client that stops reading, within the write timeout. Above a batch's largest answer (25 MB).
 */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

type Call = { params?: unknown };

/** The subscriptions of coreth's eth namespace (eth/filters/api.go's FilterAPI). */
const SUBSCRIPTIONS = new Set(['newHeads', 'logs', 'newPendingTransactions', 'newAcceptedTransactions']);

/** An error geth answers to a subscription call, with its code. */
class CallError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** geth's parsePositionalArguments for calls of one argument: the refusal of `params`, or the argument. */
function onlyArgument(params: unknown): unknown {
  if (params !== undefined && params !== null && !Array.isArray(params)) throw new CallError(-32602, 'non-array args');
  const args = (params ?? []) as unknown[];
  if (args.length === 0) throw new CallError(-32602, 'missing value for required argument 0');
  if (args.length > 1) throw new CallError(-32602, 'too many arguments, want at most 1');
  return args[0];
}

/**
 * NewPendingTransactions' one optional argument after the name, `fullTx *bool` (since coreth v0.12.3, AvalancheGo
 * v1.10.3; none before): its refusal, if any.
 */
function refusedFullTx(params: unknown[], release: string | undefined): string | undefined {
  if (release && compareVersions(release, 'v1.10.3') < 0)
    return params.length > 1 ? 'too many arguments, want at most 1' : undefined;
  if (params.length > 2) return 'too many arguments, want at most 2';
  const fullTx = params[1];
  if (fullTx === undefined || fullTx === null || typeof fullTx === 'boolean') return undefined;
  return `invalid argument 1: json: cannot unmarshal ${jsonKind(fullTx)} into Go value of type bool`;
}

/**
 * What a block or a pending tx gives every subscription, read once for all of them on every connection, as geth's
 * filter system reads each event once and hands it to each subscriber: a read per subscription made the engine read a
 * block's logs 1,000 times per connection subscribed 1,000 times, and every block waited for them all.
 */
const blockLogs = new WeakMap<object, Promise<RpcLog[]>>();
const blockHeaders = new WeakMap<object, unknown>();
const pendingTxs = new WeakMap<CChain, { hash: string; tx: Promise<unknown> }>();

function logsOf(chain: CChain, block: RpcBlock, provider: Provider): Promise<RpcLog[]> {
  let logs = blockLogs.get(block);
  if (!logs) {
    logs = chain.call(provider, 'eth_getLogs', [{ blockHash: block.hash }]) as Promise<RpcLog[]>;
    blockLogs.set(block, logs);
  }
  return logs;
}

function headerOf(chain: CChain, block: RpcBlock): unknown {
  let header = blockHeaders.get(block);
  if (header === undefined) {
    header = corethHeaderJson(chain.world, block, chain.corethExtra(Number(block.number)), chain.release);
    blockHeaders.set(block, header);
  }
  return header;
}

/** The pending tx's full form; the last one read is kept, as the pool's listeners all run for one tx in turn. */
function pendingTxOf(chain: CChain, hash: string, provider: Provider): Promise<unknown> {
  const last = pendingTxs.get(chain);
  if (last?.hash === hash) return last.tx;
  const tx = chain
    .call(provider, 'eth_getTransactionByHash', [hash])
    .then((found) => withCorethSignature(pendingTransaction(found)));
  pendingTxs.set(chain, { hash, tx });
  return tx;
}

/** One connection: its subscriptions, removed from the chain when it closes. */
function serveConnection(socket: WebSocket, chain: CChain): void {
  /** Each subscription's way to stop listening. */
  const subscriptions = new Map<string, () => void>();
  const listen = <L>(id: string, listeners: Set<L>, listener: L) => {
    listeners.add(listener);
    subscriptions.set(id, () => listeners.delete(listener));
  };
  /**
   * Sends `text`; resolves once it reached the socket, or the connection ended (cut if that took too long). A
   * notification (`backlogged`) also ends a connection whose backlog has passed its bound: answers wait for each
   * other, notifications cannot.
   */
  const write = (text: string, backlogged = false): Promise<void> =>
    new Promise((resolve) => {
      if (socket.readyState !== socket.OPEN) return resolve();
      const deadline = setTimeout(() => socket.terminate(), WRITE_TIMEOUT_MS);
      socket.send(text, () => {
        clearTimeout(deadline);
        resolve();
      });
      if (backlogged && socket.bufferedAmount > MAX_BACKLOG_BYTES) socket.terminate();
    });
  const notify = (subscription: string, result: unknown) =>
    void write(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } }), true);
  // handleSubscribe: the name (parseSubscriptionName), then the subscription's own arguments.
  const subscribe = async ({ params }: Call): Promise<string> => {
    if (!Array.isArray(params)) throw new CallError(-32602, 'non-array args');
    const [kind, filter] = params as unknown[];
    if (typeof kind !== 'string') throw new CallError(-32602, 'expected subscription name as first argument');
    if (!SUBSCRIPTIONS.has(kind)) throw new CallError(-32601, `no ${goQuote(kind)} subscription in eth namespace`);
    // The logs filter is eth_getLogs's, here the second argument.
    const refused =
      kind === 'logs'
        ? await refusedParams('eth_getLogs', params.slice(1))
        : kind === 'newPendingTransactions' || kind === 'newAcceptedTransactions'
          ? refusedFullTx(params, chain.release)
          : params.length > 1
            ? 'too many arguments, want at most 1'
            : undefined;
    const criteria = kind === 'logs' ? readCriteria(filter) : undefined;
    const error = refused ?? (criteria && 'error' in criteria ? `invalid argument 0: ${criteria.error}` : undefined);
    if (error !== undefined) throw new CallError(-32602, error.replace(/argument 0\b/, 'argument 1'));
    // FilterAPI.Logs: its subscription made, SubscribeAcceptedLogs refuses the range (-32000, as any error it returns).
    if (criteria && !subscribableRange(criteria as Criteria))
      throw new CallError(-32000, 'invalid from and to block combination: from > to');
    if (subscriptions.size >= MAX_SUBSCRIPTIONS) throw new CallError(-32000, 'too many subscriptions');
    const id = `0x${randomBytes(16).toString('hex')}`;
    if (kind === 'newHeads') {
      listen(id, chain.blockListeners, async (block) => notify(id, headerOf(chain, block)));
    } else if (kind === 'newPendingTransactions') {
      // NewPendingTransactions: each tx as the pool takes it, its hash or (fullTx) NewRPCTransaction's pending form.
      listen(id, chain.poolListeners, async (hash, provider) =>
        notify(id, filter === true ? await pendingTxOf(chain, hash, provider) : hash),
      );
    } else if (kind === 'newAcceptedTransactions') {
      // NewAcceptedTransactions: each tx of each accepted block, its hash or (fullTx) NewRPCTransaction's pending form.
      listen(id, chain.blockListeners, async (block) => {
        for (const tx of block.transactions as Array<{ hash: string }>)
          notify(id, filter === true ? withCorethSignature(pendingTransaction(tx)) : tx.hash);
      });
    } else {
      // The filter as read above, matched as eth_getLogs' filters are (filterLogs): one reading, one matching.
      const logFilter = criteria as Criteria;
      listen(id, chain.blockListeners, async (block, provider) => {
        const logs = await logsOf(chain, block, provider);
        for (const log of logs) if (matches(logFilter, log)) notify(id, corethHashes(chain, log));
      });
    }
    return id;
  };
  // handler.unsubscribe: one rpc.ID argument, and ErrSubscriptionNotFound for an ID this connection does not have.
  const unsubscribe = ({ params }: Call): boolean => {
    const id = onlyArgument(params) ?? '';
    if (typeof id !== 'string')
      throw new CallError(
        -32602,
        `invalid argument 0: json: cannot unmarshal ${jsonKind(id)} into Go value of type rpc.ID`,
      );
    const stop = subscriptions.get(id);
    if (!stop) throw new CallError(-32000, 'subscription not found');
    stop();
    subscriptions.delete(id);
    return true;
  };
  // The subscription calls are this connection's; the others are /ext/bc/C/rpc's, in the same envelope.
  const serveCall = callServer(chain);
  const serve: Serve = async (id, method, params) => {
    if (method !== 'eth_subscribe' && method !== 'eth_unsubscribe') return serveCall(id, method, params);
    try {
      const result = method === 'eth_subscribe' ? await subscribe({ params }) : unsubscribe({ params });
      return `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result)}}`;
    } catch (error) {
      if (!(error instanceof CallError)) throw error;
      return errorJson(id, error.code, error.message);
    }
  };
  /**
   * One message's answer, and whether the connection ends after it. Like gorilla's ReadJSON under geth, a text or a
   * binary message is read as one JSON value (Go's decoder: what follows it is ignored, invalid UTF-8 replaced, 10,000
   * levels of nesting at most); a syntax error is answered and ends the connection, a message that ends too soon
   * (io.ErrUnexpectedEOF) ends it without an answer.
   */
  const answerMessage = async (bytes: Uint8Array): Promise<{ answer?: string; close?: boolean }> => {
    let parsed: ReturnType<typeof parseFirstValue>;
    try {
      parsed = parseFirstValue(bytes);
    } catch (error) {
      if (!(error instanceof GoSyntaxError)) throw error;
      if (/^(unexpected )?EOF$/.test(error.message)) return { close: true };
      return { answer: errorJson('null', -32700, error.message), close: true };
    }
    return { answer: (await answerParsed(bytes, parsed, serve)) || undefined };
  };
  // Messages are answered in order, one at a time, as the engine's queue takes them; the next once the last answer
  // reached the socket, as Go's blocking write holds its handler.
  let tail: Promise<unknown> = Promise.resolve();
  let queued = 0;
  socket.on('message', (data: RawData) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    if (++queued > MAX_QUEUED_MESSAGES) socket.pause();
    tail = tail
      .then(async () => {
        if (socket.readyState !== socket.OPEN) return;
        const { answer, close } = await answerMessage(bytes);
        if (answer !== undefined) await write(answer);
        if (close) socket.terminate();
      })
      .catch(() => socket.terminate())
      .finally(() => {
        if (--queued <= MAX_QUEUED_MESSAGES && socket.isPaused) socket.resume();
      });
  });
  let answered = true;
  socket.on('pong', () => {
    answered = true;
  });
  const pinger = setInterval(() => {
    // A pong waits unread behind the messages while the socket is paused: the wait is the node's, not the client's.
    if (!answered && !socket.isPaused) return socket.terminate();
    answered = false;
    socket.ping();
  }, PING_INTERVAL_MS).unref();
  socket.on('close', () => {
    clearInterval(pinger);
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  });
  socket.on('error', () => socket.terminate());
}

/**
 * Serves the C-Chain's WebSocket at `paths` on `server`; other upgrade requests are refused. The answer closes every
 * connection (the HTTP server's closeAllConnections leaves upgraded sockets open).
 */
export function serveCChainWebSocket(server: Server, chain: CChain, paths: ReadonlySet<string>): () => void {
  // `ws` is loaded on the first WebSocket request: it costs a node that never gets one about 14 MB of RSS.
  let wss: WebSocketServer | undefined;
  const serverOf = () => {
    if (!wss) {
      const { WebSocketServer } = createRequire(import.meta.url)('ws') as typeof import('ws');
      // gorilla's websocket, under geth, leaves a text message's UTF-8 to the JSON decoder, which repairs it.
      wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, skipUTF8Validation: true });
      wss.on('connection', (socket: WebSocket) => serveConnection(socket, chain));
    }
    return wss;
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?', 1)[0]!;
    if (!paths.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const wss = serverOf();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  return () => {
    for (const client of wss?.clients ?? []) client.terminate();
    wss?.close();
  };
}
