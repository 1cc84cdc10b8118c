/** Raw HTTP for tests: exact bytes out, exact status, headers and bytes back, on 127.0.0.1 only. */
import { type Server, type RequestListener, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface RawRequest {
  path?: string;
  method?: string;
  /** Content-Type to send; `null` sends none. Default application/json. */
  contentType?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function send(port: number, options: RawRequest = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  const body = options.body ?? '';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: options.path ?? '/', method: options.method ?? 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data, text: data.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function listen(
  listener: RequestListener,
): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, port, close };
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
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: rpc(method, params),
  });
  const text = await response.text();
  let body: (RpcAnswer<R> & { jsonrpc?: unknown; id?: unknown }) | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {}
  if (response.status !== 200 || body?.jsonrpc !== '2.0' || body.id !== 1) {
    throw new Error(`${method} at ${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  const { jsonrpc: _, id: __, ...answer } = body;
  return answer;
}
