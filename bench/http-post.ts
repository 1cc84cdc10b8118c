/**
 * JSON-RPC calls for the benches' clients, two ways: Node's `fetch` (undici), which avalanchejs' API classes use, and
 * node:http over one keep-alive connection. On this host a `fetch` of a small answer costs its caller ~0.5 ms more CPU
 * than node:http's (0.7 against 0.13-0.3 ms a call, a bare server answering), which is the client's, not the server's.
 */
import { Agent, request } from 'node:http';

/** Posts one call and gives its result, or throws its error's message. */
export type Post = (url: string, method: string, params?: unknown) => Promise<unknown>;

type Answer = { result?: unknown; error?: { message: string } };

const resultOf = (body: Answer) => {
  if (body.error) throw new Error(body.error.message);
  return body.result;
};

let id = 0;

export const fetchPost: Post = async (url, method, params) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  return resultOf((await res.json()) as Answer);
};

/** node:http with a keep-alive agent of its own (one connection, as the calls are sequential). */
export function httpPost(): Post {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (url, method, params) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params });
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            try {
              resolve(resultOf(JSON.parse(Buffer.concat(chunks).toString()) as Answer));
            } catch (error) {
              reject(error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/**
 * Has an avalanchejs API object (PVMApi, EVMApi and the EVMApi's `ethAPI`) send its calls through `post`: its own
 * request building and answer parsing stay, only the transport changes (its JrpcProvider's `callMethod`, the one
 * place avalanchejs 5.2.0 calls `fetch`).
 */
export function sendThrough(api: object, post: Post): void {
  const holder = api as { rpcProvider: { url: string; callMethod: unknown } };
  const { url } = holder.rpcProvider;
  holder.rpcProvider = { url, callMethod: (method: string, params?: unknown) => post(url, method, params) };
}
