/**
 * The one way tests talk HTTP and JSON-RPC to a server on 127.0.0.1: `send` for exact bytes out and the status, headers
 * and bytes back (wire assertions), `callRpc` for a call whose answer a test reads as JSON.
 */
import { type RequestListener, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface RawRequest {
  /** Replaces the path of the target. Default: the target URL's path, or `/`. */
  path?: string;
  method?: string;
  /** Content-Type to send; `null` sends none. Default: the one in `headers`, else application/json. */
  contentType?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Called with each chunk of the answer's body as it arrives. */
  onChunk?: (chunk: Buffer) => void;
}

/**
 * One request on its own connection to `target`, a port of 127.0.0.1 or a URL. Any status resolves; an answer cut off
 * before its end rejects.
 */
export function send(target: number | string, options: RawRequest = {}): Promise<RawResponse> {
  const url = typeof target === 'number' ? new URL(`http://127.0.0.1:${target}/`) : new URL(target);
  const headers: Record<string, string> = { ...options.headers };
  const named = Object.keys(headers).find((name) => name.toLowerCase() === 'content-type');
  if (options.contentType !== undefined) {
    if (named) delete headers[named];
    if (options.contentType !== null) headers['content-type'] = options.contentType;
  } else if (!named) headers['content-type'] = 'application/json';
  const path = options.path ?? `${url.pathname}${url.search}`;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          options.onChunk?.(chunk);
        });
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            body: data,
            text: data.toString('utf8'),
          });
        });
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('the connection closed before the answer was complete'));
        });
      },
    );
    req.on('error', reject);
    req.end(options.body ?? '');
  });
}

export async function listen(
  listener: RequestListener,
): Promise<{ server: Server; port: number; url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, port, url: `http://127.0.0.1:${port}`, close };
}

/** An answer a `proxy` gives itself instead of passing the request on. */
export interface OwnAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * A server on 127.0.0.1 in front of `target` (a node's base URL): each request goes on to the same path there and its
 * answer comes back, unless `intercept`, shown each request's body first, answers it itself.
 */
export function proxy(target: string, intercept?: (body: Buffer) => OwnAnswer | undefined) {
  const hopByHop = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);
  const endToEnd = (headers: Record<string, string | string[] | undefined>) =>
    Object.fromEntries(
      Object.entries(headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && !hopByHop.has(entry[0]),
      ),
    );
  return listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const own = intercept?.(body);
      if (own) {
        res.writeHead(own.status, { 'content-type': own.contentType }).end(own.text);
        return;
      }
      try {
        const answer = await send(target, { path: req.url, method: req.method, headers: endToEnd(req.headers), body });
        res.writeHead(answer.status, endToEnd(answer.headers)).end(answer.body);
      } catch {
        res.destroy();
      }
    });
  });
}

/** A JSON-RPC request body. */
export function rpc(method: string, params?: unknown, id: unknown = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
}

/** A JSON-RPC answer without its envelope. The result is `any` by default: tests read answers by path. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export interface RpcAnswer<R = any> {
  result?: R;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * One JSON-RPC call (id 1) to `url`, the endpoint's full address. A node answers errors with HTTP 200 too, so any other
 * status, a body that is not JSON or an envelope that is not `{"jsonrpc":"2.0","id":1}` throws with what came back.
 */
// biome-ignore lint/suspicious/noExplicitAny: see RpcAnswer
export async function callRpc<R = any>(url: string, method: string, params: unknown = {}): Promise<RpcAnswer<R>> {
  const response = await send(url, { body: rpc(method, params) });
  let body: (RpcAnswer<R> & { jsonrpc?: unknown; id?: unknown }) | undefined;
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch {}
  if (response.status !== 200 || body?.jsonrpc !== '2.0' || body.id !== 1) {
    throw new Error(`${method} at ${url}: HTTP ${response.status} ${response.text.slice(0, 200)}`);
  }
  const { jsonrpc: _, id: __, ...answer } = body;
  return answer;
}

/** The result of one JSON-RPC call (callRpc), or an Error naming the method and the error answered. */
// biome-ignore lint/suspicious/noExplicitAny: see RpcAnswer
export async function rpcResult<R = any>(url: string, method: string, params: unknown = {}): Promise<R> {
  const { result, error } = await callRpc<R>(url, method, params);
  if (error) throw new Error(`${method}: ${JSON.stringify(error)}`);
  return result as R;
}
