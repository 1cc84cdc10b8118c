/**
 * How the proxy takes callers in, so that slow or many callers cannot starve the rest (issue 24): like nginx, it
 * reads a request's whole body before it opens a connection upstream (a caller trickling its body in holds one
 * socket, not two), and it holds at most a set number of caller connections, refusing any beyond with a plain 503
 * that says why, sent at once and closed, rather than leaving the caller to wait or dropping it without a word.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Sockets to the node at once; more calls wait for one. With MAX_CONNECTIONS it bounds the proxy's descriptors: 800
 * callers, 64 upstream and the process's own fit in `ulimit -n 1024`, however many callers finish their bodies at once.
 */
export const UPSTREAM_SOCKETS = 64;
/** Default for ProxyOptions.maxConnections. */
export const MAX_CONNECTIONS = 800;
/** Default for ProxyOptions.maxBodyBytes. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A refused caller that never reads its 503 is cut after this long, so it holds its socket no longer. */
const REFUSED_GRACE_MS = 1000;

export const refusalText = (max: number) =>
  `503 Service Unavailable: the proxy already holds ${max} connections (its --max-connections); try again shortly\n`;

/**
 * Counts `server`'s connections; one past `max` is answered 503 and closed before any request of it is read.
 * Returns whether a socket was refused (its requests, if the parser still reads one, are not to be answered).
 */
export function limitConnections(server: Server, max: number, onRefused?: () => void): (socket: Socket) => boolean {
  const refused = new WeakSet<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      refused.add(socket);
      const text = refusalText(max);
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\nRetry-After: 1\r\n\r\n${text}`,
      );
      setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref();
      onRefused?.();
      return;
    }
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  return (socket) => refused.has(socket);
}

/** The whole body; undefined once it outgrows `max` (`tooLarge` is called once then) or when the caller leaves. */
export function readBody(req: IncomingMessage, max: number, tooLarge: () => void): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (!chunks) return;
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else {
        chunks = undefined;
        tooLarge();
        resolve(undefined);
      }
    });
    req.on('end', () => resolve(chunks && Buffer.concat(chunks)));
    req.on('close', () => resolve(undefined));
  });
}
