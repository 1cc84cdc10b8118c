/**
 * `/ext/bc/C/ws`: the C-Chain's JSON-RPC over WebSocket, as coreth's geth-derived server serves it (rpc/websocket.go):
 * every call `/ext/bc/C/rpc` answers, single or batched, plus the subscriptions (eth/filters/api.go): `newHeads` (each
 * new block's header) and `logs` (each new block's logs matching an address and topics filter), notified as
 * `eth_subscription` messages, and `eth_unsubscribe`. Over HTTP the node refuses subscriptions ("notifications not
 * supported").
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { RpcBlock } from './blocks.ts';
import { corethHeaderJson } from './coreth-block.ts';
import type { CChain } from './evm.ts';
import { answerBody } from './rpc.ts';

/** geth's wsDefaultReadLimit. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** geth's maxClientSubscriptionBuffer bounds one client's backlog; the mock bounds its subscriptions instead. */
const MAX_SUBSCRIPTIONS = 1000;

type Call = { id?: unknown; method?: unknown; params?: unknown };
interface LogFilter {
  address?: string | string[];
  topics?: Array<string | string[] | null>;
}

const reply = (id: unknown, body: { result: unknown } | { error: { code: number; message: string } }) =>
  JSON.stringify({ jsonrpc: '2.0', id: id ?? null, ...body });

/** One connection: its subscriptions, removed from the chain when it closes. */
function serveConnection(socket: WebSocket, chain: CChain): void {
  const subscriptions = new Map<string, (block: RpcBlock, provider: Parameters<CChain['call']>[0]) => Promise<void>>();
  const notify = (subscription: string, result: unknown) => {
    if (socket.readyState === socket.OPEN)
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } }));
  };
  const subscribe = (call: Call): string => {
    const [kind, filter] = Array.isArray(call.params) ? call.params : [];
    if (subscriptions.size >= MAX_SUBSCRIPTIONS) throw new Error('too many subscriptions');
    const id = `0x${randomBytes(16).toString('hex')}`;
    if (kind === 'newHeads') {
      subscriptions.set(id, async (block) =>
        notify(id, corethHeaderJson(chain.world, block, chain.corethExtra(Number(block.number)), chain.release)),
      );
    } else if (kind === 'logs') {
      const { address, topics } = (filter ?? {}) as LogFilter;
      subscriptions.set(id, async (block, provider) => {
        const logs = (await chain.call(provider, 'eth_getLogs', [
          { blockHash: block.hash, ...(address ? { address } : {}), ...(topics ? { topics } : {}) },
        ])) as unknown[];
        for (const log of logs) notify(id, log);
      });
    } else throw new Error(`no "${String(kind)}" subscription in eth namespace`);
    chain.blockListeners.add(subscriptions.get(id)!);
    return id;
  };
  const unsubscribe = (call: Call): boolean => {
    const id = Array.isArray(call.params) ? call.params[0] : undefined;
    const listener = typeof id === 'string' ? subscriptions.get(id) : undefined;
    if (!listener) return false;
    chain.blockListeners.delete(listener);
    subscriptions.delete(id as string);
    return true;
  };
  const answerCall = async (call: unknown): Promise<string> => {
    const { id, method } = (call ?? {}) as Call;
    try {
      if (method === 'eth_subscribe') return reply(id, { result: subscribe(call as Call) });
      if (method === 'eth_unsubscribe') return reply(id, { result: unsubscribe(call as Call) });
    } catch (error) {
      return reply(id, { error: { code: -32602, message: (error as Error).message } });
    }
    return answerBody(chain, JSON.stringify(call));
  };
  // Messages are answered in order, one at a time, as the engine's queue takes them.
  let tail: Promise<unknown> = Promise.resolve();
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = data.toString();
    tail = tail.then(async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return socket.send(reply(null, { error: { code: -32700, message: 'parse error' } }));
      }
      const answer =
        Array.isArray(parsed) && parsed.length > 0
          ? `[${(await Promise.all(parsed.map(answerCall))).join(',')}]`
          : Array.isArray(parsed)
            ? await answerBody(chain, text)
            : await answerCall(parsed);
      if (socket.readyState === socket.OPEN) socket.send(answer);
    });
  });
  socket.on('close', () => {
    for (const listener of subscriptions.values()) chain.blockListeners.delete(listener);
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
      wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
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
