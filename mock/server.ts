/**
 * The mock node's HTTP server: node:http with its limits set to what AvalancheGo's Go net/http server does, and Go's
 * refusal texts where node:http would answer in its own words. A request not read within the read timeout (30 s,
 * the node's --http-read-timeout) is cut without an answer, as Go cuts it (node:http would send 408); a keep-alive
 * connection idle for 120 s (--http-idle-timeout) is closed; a head over 1 MiB (Go's MaxHeaderBytes) gets 431; an
 * answer the client does not take within 30 s (--http-write-timeout) ends its connection.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

// Not `import ... from 'node:http'`: on Node 22 that import reads every export of the module, which loads undici (its
// WebSocket) for nothing, 60-130 ms of CPU at start (bench/README.md, mock-start).
const { STATUS_CODES, createServer } = process.getBuiltinModule('node:http');

export interface ServeOptions {
  /** Largest request head, as Go's MaxHeaderBytes. Default 1 MiB. */
  maxHeaderBytes?: number;
  /** Time to read a request, head and body. Default 30 s. */
  readTimeoutMs?: number;
  /** Time a keep-alive connection may wait for its next request. Default 120 s. */
  idleTimeoutMs?: number;
  /**
   * Time an answer may take to reach the client's socket, as Go's WriteTimeout. Default 30 s. Go counts it from the
   * request's head, so a handler that runs longer loses its answer; here it counts from the answer's end, so a slow
   * call of the mock's own (a fork's first read, a large state load) is not cut: it bounds only a client that stops
   * reading, which would otherwise hold its answer in memory for as long as it keeps the connection. Checked a
   * sixteenth of it apart (a second at most), so a connection is cut up to twice that late.
   */
  writeTimeoutMs?: number;
}

export interface HttpServer {
  server: Server;
  /** Stops listening and closes every connection, answered or not. */
  close(): Promise<void>;
}

/**
 * What Go's server answers to a request it refuses before any handler sees it, by llhttp's error code and reason
 * (the first match wins; anything else is a plain 400).
 */
const REFUSALS: Array<[code: string, reason: RegExp | undefined, status: number, text: string]> = [
  ['HPE_HEADER_OVERFLOW', undefined, 431, '431 Request Header Fields Too Large'],
  ['HPE_INVALID_HEADER_TOKEN', /value char/, 400, '400 Bad Request: invalid header value'],
  ['HPE_INVALID_HEADER_TOKEN', undefined, 400, '400 Bad Request: malformed MIME header line'],
  ['HPE_INVALID_CONTENT_LENGTH', undefined, 400, '400 Bad Request: invalid Content-Length'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', undefined, 400, '400 Bad Request: invalid Content-Length'],
  [
    'HPE_INVALID_TRANSFER_ENCODING',
    /Content-Length/,
    400,
    '400 Bad Request: both Transfer-Encoding and Content-Length',
  ],
  ['HPE_INVALID_TRANSFER_ENCODING', undefined, 501, 'Unsupported transfer encoding'],
  ['HPE_INVALID_CHUNK_SIZE', undefined, 400, '400 Bad Request: malformed chunked encoding'],
  ['HPE_INVALID_METHOD', undefined, 400, '400 Bad Request: malformed HTTP request'],
];

/** Go's answer to a request refused before any handler: plain text, then the connection closes. */
function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.writable)
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  else socket.destroy();
}

/**
 * What Go refuses that node:http lets through: a version other than HTTP/1.x, and an HTTP/1.1 request without exactly
 * one Host header (node:http takes the first of several).
 */
function requestProblem(req: IncomingMessage): [number, string] | undefined {
  if (req.httpVersionMajor !== 1) return [505, '505 HTTP Version Not Supported: unsupported protocol version'];
  let hosts = 0;
  const raw = req.rawHeaders;
  // Compared without lower-casing a copy of every name: this runs for every request.
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return [400, '400 Bad Request: too many Host headers'];
  if (hosts === 0 && req.httpVersionMinor === 1) return [400, '400 Bad Request: missing required Host header'];
  return undefined;
}

export function createHttpServer(listener: RequestListener, options: ServeOptions = {}): Server {
  const readTimeout = options.readTimeoutMs ?? 30_000;
  const writeTimeout = options.writeTimeoutMs ?? 30_000;
  const server = createServer(
    {
      maxHeaderSize: options.maxHeaderBytes ?? 1024 * 1024,
      requestTimeout: readTimeout,
      headersTimeout: readTimeout,
      keepAliveTimeout: options.idleTimeoutMs ?? 120_000,
      // How often node:http looks for requests past their time: often enough for the timeout to hold to about 1/8.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, readTimeout / 8)),
      requireHostHeader: false,
    },
    (req, res) => {
      const problem = requestProblem(req);
      if (problem) {
        req.resume();
        return refuse(req.socket, ...problem);
      }
      (req.socket as Answering)[ANSWER] = res;
      if (Number(req.headers['content-length']) > MAX_POST_HANDLER_READ) closeIfUnread(req, res);
      listener(req, res);
    },
  );
  watchWrites(server, writeTimeout);
  server.on('checkExpectation', (req, res) => {
    req.resume();
    refuse(res.socket!, 417, '417 Expectation Failed');
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // Go cuts a request past its read deadline without a word, and reads nothing after a request that asked to close
    // the connection; a connection the client broke has no one to answer.
    if (error.code === 'HPE_CLOSED_CONNECTION') return void socket.end();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ECONNRESET' || !socket.writable)
      return void socket.destroy();
    const reason = String((error as { reason?: unknown }).reason ?? '');
    const refusal = REFUSALS.find(([code, pattern]) => code === error.code && (!pattern || pattern.test(reason)));
    refuse(socket, refusal?.[2] ?? 400, refusal?.[3] ?? '400 Bad Request');
  });
  return server;
}

/** Go's maxPostHandlerReadBytes: the most of a body its server reads and drops after an answer to keep a connection. */
const MAX_POST_HANDLER_READ = 256 * 1024;

/**
 * Go's server answers "Connection: close" and closes the connection when a handler answers with more than 256 KiB of
 * the body unread (a 404, 403 or 415 reads none of it). node:http kept such a connection, read on, and past some
 * hundreds of megabytes took part of the body for a new request (a stray 400 after the answer). Only requests that
 * declare such a body get this: the others' answers pay nothing for it.
 */
function closeIfUnread(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete) {
      this.setHeader('Connection', 'close');
      lingerOnClose(req.socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * node:http destroys a connection it closes as soon as the answer is written; a client still sending then gets a reset,
 * which may drop the answer before it reads it. Go's server (closeWriteAndWait) ends its side and reads on for 500 ms
 * (rstAvoidanceDelay) first; so does this.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    this.end();
    setTimeout(() => this.destroy(), 500).unref();
  };
}

const ANSWER = Symbol('answer');
const SINCE = Symbol('since');
/** A connection with the last answer it was given, and since when that answer has waited for the client. */
interface Answering extends Socket {
  [ANSWER]?: ServerResponse | undefined;
  [SINCE]?: [ServerResponse, number] | undefined;
}

/**
 * The write timeout: a connection whose answer has ended (all of it handed to node:http) but not finished (written out
 * to the OS) for `timeoutMs` is destroyed. Each connection is looked at a sixteenth of the timeout apart (between 5 ms
 * and a second), so the cut comes at most two such steps late. A timer and three listeners per answer were a cost on every call (bench/README.md,
 * perf15); a sweep over the open connections costs one property write per answer. An answer finished is dropped at the
 * next sweep, so an idle connection does not hold its last request (and its body) for long.
 */
function watchWrites(server: Server, timeoutMs: number): void {
  const connections = new Set<Answering>();
  let sweep: NodeJS.Timeout | undefined;
  const check = () => {
    const now = performance.now();
    for (const socket of connections) {
      const answer = socket[ANSWER];
      if (answer === undefined || !answer.writableEnded || answer.writableFinished) {
        if (answer?.writableFinished || answer?.destroyed) socket[ANSWER] = undefined;
        socket[SINCE] = undefined;
        continue;
      }
      const since = socket[SINCE];
      if (since?.[0] !== answer) socket[SINCE] = [answer, now];
      else if (now - since[1] >= timeoutMs) socket.destroy();
    }
  };
  server.on('connection', (socket: Answering) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      socket[ANSWER] = undefined;
      if (connections.size > 0) return;
      clearInterval(sweep);
      sweep = undefined;
    });
    if (sweep) return;
    sweep = setInterval(check, Math.max(5, Math.min(1000, timeoutMs / 16)));
    // An open connection never keeps the process alive on its own: node:http's own timers do not either.
    sweep.unref();
  });
}

/** Listens on `host:port` (port 0 picks a free one). */
export async function serveHttp(
  listener: RequestListener,
  port: number,
  host: string,
  options: ServeOptions = {},
): Promise<HttpServer> {
  const server = createHttpServer(listener, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { server, close };
}
