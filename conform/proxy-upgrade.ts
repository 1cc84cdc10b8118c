/**
 * WebSocket (any HTTP Upgrade) through the proxy, as nginx relays one: the upgrade request goes to the same path
 * upstream (the node serves the C-Chain's at /ext/bc/C/ws), and once the upstream answers 101 the two connections are
 * joined byte for byte until either side ends. The frames are not checked: the proxy checks HTTP exchanges only, and
 * says so once. An upstream that refuses the upgrade (any other status) has its answer passed on, as for a plain call.
 */
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { endToEnd } from './proxy-relay.ts';

/**
 * Upgraded connections held at once (each holds a socket upstream for as long as it lives, outside the keep-alive
 * pool): with MAX_CONNECTIONS callers and UPSTREAM_SOCKETS pooled, still within `ulimit -n 1024`.
 */
export const MAX_TUNNELS = 64;
/** The most of an upstream's refusal of an upgrade that is held to pass on (it is sent with its length). */
const REFUSAL_LIMIT = 1024 * 1024;

export interface UpgradeRelay {
  /** Ends every joined connection. */
  closeAll(): void;
}

export interface UpgradeOptions {
  send: (options: RequestOptions) => ClientRequest;
  target: { protocol: string; hostname: string; port: string; basePath: string };
  hostHeader?: string;
  timeoutMs: number;
  /** Each upgrade the upstream accepted, by its path; the first is where the CLI says frames go unchecked. */
  onRelayed?: (path: string, count: number) => void;
  /** An upgrade that could not be relayed (upstream unreachable or silent), answered 502/504. */
  onFailed?: (message: string) => void;
}

const statusText = (status: number, text: string) =>
  `HTTP/1.1 ${status} ${status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}` +
  `\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close` +
  `\r\n\r\n${text}`;

/** Relays `server`'s upgrade requests, but those on connections `refused` already answered 503 (./proxy-intake.ts). */
export function upgradeRelay(
  server: Server,
  refused: (socket: Socket) => boolean,
  options: UpgradeOptions,
): UpgradeRelay {
  const open = new Set<Duplex>();
  let relayed = 0;
  const refuse = (socket: Duplex, status: number, message: string) => {
    if (!socket.destroyed) socket.end(statusText(status, `${status} ${message}\n`));
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (open.size >= MAX_TUNNELS)
      return refuse(socket, 503, `the proxy already relays ${MAX_TUNNELS} upgraded connections; try again shortly`);
    // Upgrade and Connection are hop-by-hop, but asking for the upgrade is the point of this request: they go on.
    const { target } = options;
    const host = target.port ? `${target.hostname}:${target.port}` : target.hostname;
    const headers = [...endToEnd(req.rawHeaders, options.hostHeader, host), 'Connection', 'Upgrade'];
    headers.push('Upgrade', req.headers.upgrade ?? 'websocket');
    const upstream = options.send({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: target.basePath + (req.url ?? '/'),
      headers: headers as unknown as OutgoingHttpHeaders,
      // A socket of its own: an upgraded connection would hold a pooled one for its whole life.
      agent: false,
    });
    let silent = false;
    upstream.setTimeout(options.timeoutMs, () => {
      silent = true;
      upstream.destroy(new Error('timeout'));
    });
    socket.once('close', () => upstream.destroy());
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      const message = silent
        ? `Gateway Timeout: the upstream did not answer the upgrade within ${options.timeoutMs / 1000} s`
        : `Bad Gateway: the upstream could not be reached for the upgrade (${error.code ?? error.message})`;
      options.onFailed?.(message);
      refuse(socket, silent ? 504 : 502, message);
    });
    upstream.end();
    // Refused: its answer, as it would reach the caller without the proxy; then this connection is done.
    upstream.on('response', (answer: IncomingMessage) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}`];
      const raw = endToEnd(answer.rawHeaders);
      for (let i = 0; i < raw.length; i += 2)
        if (raw[i]!.toLowerCase() !== 'content-length') lines.push(`${raw[i]}: ${raw[i + 1]}`);
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        // A refusal is a few words; one that keeps coming is no answer to pass on whole.
        if ((size += chunk.length) > REFUSAL_LIMIT) {
          answer.destroy();
          refuse(socket, 502, 'Bad Gateway: the upstream refused the upgrade with an answer too large to pass on');
        }
      });
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        lines.push(`Content-Length: ${body.length}`, 'Connection: close', '', '');
        socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
      });
      answer.on('error', () => socket.destroy());
    });
    upstream.on('upgrade', (answer: IncomingMessage, upstreamSocket: Socket, upstreamHead: Buffer) => {
      upstream.setTimeout(0);
      if (socket.destroyed) return upstreamSocket.destroy();
      const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      open.add(socket);
      upstreamSocket.on('error', () => socket.destroy());
      upstreamSocket.once('close', () => socket.destroy());
      socket.once('close', () => {
        open.delete(socket);
        upstreamSocket.destroy();
      });
      upstreamSocket.pipe(socket);
      socket.pipe(upstreamSocket);
      relayed += 1;
      options.onRelayed?.(req.url ?? '/', relayed);
    });
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!refused(req.socket)) onUpgrade(req, socket, head);
  });
  return {
    closeAll: () => {
      for (const socket of open) socket.destroy();
    },
  };
}
