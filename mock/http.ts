/**
 * The mock node's HTTP/1.1 server: requests read whole off node:net sockets and handed to a router's `answer`,
 * framed the way the node's Go net/http server frames them. node:http's request and response objects cost more per
 * call than the mock's whole RPC layer: on loopback, the mock answering `avm.getBalance` here takes about the CPU
 * per request that a bare node:http server takes to send a fixed text, and load tests are one thing the mock is for.
 *
 * What it does, as net/http does: keep-alive (HTTP/1.0 only on request), pipelined requests answered in order,
 * bodies framed by Content-Length or chunked encoding, `Expect: 100-continue`, a `Date` on every answer, the
 * connection closed after `Connection: close` either way. Refusals are net/http's texts: 400 for a malformed request
 * (a missing or repeated Host included), 431 for a head over the limit, 501 for a transfer coding other than
 * chunked, 505 for another HTTP version, 417 for an unknown expectation, 413 for a body over the limit (answered at
 * once; up to 256 KiB more of it read and dropped before the connection closes). A request not answered within
 * `readTimeoutMs` of its first byte, or a connection idle for `idleTimeoutMs`, is closed without an answer, like
 * net/http's timeouts. A client that half-closes still gets the answers to what it sent; one that takes no answers
 * stops being read once 1 MiB of them waits.
 */
import { STATUS_CODES } from 'node:http';
import { type Server, type Socket, createServer } from 'node:net';
import type { HttpRequest, RpcReply } from '../generated/server/dist/index.js';
import { Inbox } from './inbox.ts';

export type HttpAnswer = (request: HttpRequest, body: Uint8Array) => RpcReply | Promise<RpcReply>;

export interface HttpOptions {
  /** Largest request head (request line and headers), as Go's MaxHeaderBytes. Default 1 MiB. */
  maxHeaderBytes?: number;
  /** Largest request body; larger ones get 413. Default 16 MiB, the RPC layer's. */
  maxBodyBytes?: number;
  /** Time from a request's first byte to its answer. Default 30 s (the node's --http-read-timeout). */
  readTimeoutMs?: number;
  /** Time a keep-alive connection may wait for its next request. Default 120 s (the node's --http-idle-timeout). */
  idleTimeoutMs?: number;
}

export interface HttpServer {
  server: Server;
  /** Stops listening and closes every connection, answered or not. */
  close(): Promise<void>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const names = new Map<string, string | null>();
/** A header name in lower case, or null when it is no token; the few names in use are looked at once each. */
function headerName(raw: string): string | null {
  let name = names.get(raw);
  if (name === undefined) {
    name = TOKEN.test(raw) ? raw.toLowerCase() : null;
    if (raw.length > 64) return name;
    if (names.size >= 1024) names.clear();
    const key = detached(raw);
    names.set(key, name === null ? null : detached(name));
  }
  return name;
}

/**
 * A copy of text cut from a request head that does not keep the head alive: V8 keeps a slice as a view of the whole
 * string, so a cache holding slices would hold every head (up to 1 MiB each) they came from.
 */
export function detached(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^\x00-\x20\x7f]+) HTTP\/(\d)\.(\d)$/;
// Header values may hold tabs and bytes from 0x80 up (read as latin1, as node:http does), no other control characters.
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
const EMPTY_BODY = Buffer.alloc(0);
const NON_ASCII = /[^\x00-\x7f]/;
// Repeats of these keep the first value, as node:http does; repeats of any other header are joined with ", " (two
// Transfer-Encoding lines so become a coding other than chunked, and every Connection line counts).
const SINGLE = new Set(['content-type', 'origin', 'authorization', 'user-agent', 'expect']);
/** How long a connection the server has ended may stay half-open before it is cut, about as long as Go lingers. */
const LINGER_MS = 500;
/** What an over-limit body's sender may still send after the 413, to be read and dropped, as Go's server allows. */
const DRAIN_LIMIT = 256 * 1024;
const CHUNK_LINE_LIMIT = 4096;
/** Answers waiting in the socket past this stop the reading of more requests until the client takes them. */
const WRITE_BACKLOG = 1 << 20;
const INTERNAL: RpcReply = { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'internal server error' };
const TOO_LARGE: RpcReply = { status: 413, headers: { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }, body: 'http: request body too large' };

/**
 * The time for deadlines, as of the last sweep over the connections: a clock read per request costs more than the
 * sweep's granularity (at most an eighth of the shortest timeout) is worth.
 */
let coarseNow = Date.now();

let dateText = '';
let dateSecond = -1;
/** The Date header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** A request net/http refuses before any handler sees it; the connection closes after the answer. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

const badRequest = (reason?: string) => new Refusal(400, reason ? `400 Bad Request: ${reason}` : '400 Bad Request');

type Body = { kind: 'length'; left: number } | { kind: 'chunked'; step: 'size' | 'data' | 'data-end' | 'trailer'; left: number } | { kind: 'none' };

const NO_BODY: Body = { kind: 'none' };

interface Pending {
  request: HttpRequest & { version: 0 | 1 };
  keepAlive: boolean;
  body: Body;
  /** The body so far, gathered in one growing store (not an object a piece); a body in one piece is not copied. */
  collected: Inbox | undefined;
  size: number;
  /** Over the body limit: answered with 413, the rest of the body read and dropped. */
  dropping: boolean;
  trailerBytes: number;
  /** Handed to the answer function, which may still be working on it. */
  asked: boolean;
  /** Its answer is written: once its body is in too, the next request may be read. */
  answered: boolean;
}

class Connection {
  private readonly input = new Inbox();
  private current: Pending | undefined;
  private pumping = false;
  private closing = false;
  private holding = false;
  /** The client has half-closed: what it sent in full is still answered, then the connection ends. */
  private ended = false;
  /** A request's first byte is in and the request is not yet answered: its read deadline runs. */
  private reading = false;
  /** When the connection is cut if nothing happens first: the request's deadline, or the idle one between requests. */
  deadline: number;

  constructor(
    readonly socket: Socket,
    private readonly answer: HttpAnswer,
    private readonly options: Required<HttpOptions>,
  ) {
    // Go's read deadline runs from when it starts reading a request, the first one included.
    this.deadline = coarseNow + options.readTimeoutMs;
    this.reading = true;
    socket.on('data', (chunk: Buffer) => {
      if (this.closing && !this.current) return;
      if (!this.reading) {
        this.reading = true;
        this.deadline = coarseNow + options.readTimeoutMs;
      }
      this.input.push(chunk);
      this.pump();
    });
    socket.on('end', () => {
      this.ended = true;
      this.pump();
    });
    socket.on('drain', () => this.pump());
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.current = undefined;
      this.input.clear();
    });
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.socket.destroyed) {
        if (!this.current) {
          if (this.closing) return void this.finish();
          if (this.input.length === 0 || !this.startRequest()) break;
        }
        const current = this.current!;
        if (current.body.kind !== 'none') {
          if (!this.readBody(current)) break;
          current.body = NO_BODY;
        }
        if (!current.asked) this.respond(current);
        if (!current.answered) break;
        this.current = undefined;
        this.reading = this.input.length > 0;
        this.deadline = coarseNow + (this.reading ? this.options.readTimeoutMs : this.options.idleTimeoutMs);
        // Answers the client is not taking stop the reading of more requests until it does ('drain' goes on).
        if (this.socket.writableLength > WRITE_BACKLOG) break;
      }
    } catch (error) {
      this.refuse(error instanceof Refusal ? error : badRequest());
    } finally {
      this.pumping = false;
    }
    const pending = this.current?.asked === true && !this.current.answered;
    if (this.ended && !pending && this.socket.writableLength <= WRITE_BACKLOG && !this.socket.destroyed) return void this.finish();
    // Pipelined requests wait while an answer is pending, and answers the client does not take stop the reading.
    const hold = this.input.length > this.options.maxHeaderBytes || this.socket.writableLength > WRITE_BACKLOG;
    if (hold !== this.holding && !this.socket.destroyed) {
      this.holding = hold;
      if (hold) this.socket.pause();
      else this.socket.resume();
    }
  }

  /** Reads one request head from the input; false while it is partial. */
  private startRequest(): boolean {
    // Empty lines ahead of a request line are ignored, as RFC 9112 asks and Go does.
    while (this.input.at(0) === 0x0d && this.input.at(1) === 0x0a) this.input.skip(2);
    if (this.input.length === 0) return false;
    const end = this.input.headEnd();
    const limit = this.options.maxHeaderBytes;
    if (end > limit || (end < 0 && this.input.length > limit)) throw new Refusal(431, '431 Request Header Fields Too Large');
    if (end < 0) return false;
    const lines = this.input.text(end).split('\r\n');
    this.input.skip(4);
    const start = REQUEST_LINE.exec(lines[0]!);
    if (!start) throw badRequest(lines[0]!.includes(' HTTP/') ? undefined : 'malformed HTTP request');
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? headerName(line.slice(0, colon)) : null;
      if (name === null) throw badRequest('malformed MIME header line');
      const value = trimSpaceAndTab(line.slice(colon + 1));
      if (BAD_VALUE.test(value)) throw badRequest('invalid header value');
      // Not `headers[name]`: a header named like an Object.prototype member (`constructor`) is new, not a repeat.
      const earlier = Object.hasOwn(headers, name) ? headers[name] : undefined;
      if (earlier === undefined) {
        if (name === '__proto__') Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
        else headers[name] = value;
      }
      else if (name === 'content-length' && earlier !== value) throw badRequest('invalid Content-Length');
      else if (name === 'host') throw badRequest('too many Host headers');
      else if (name !== 'content-length' && !SINGLE.has(name)) headers[name] = `${earlier}, ${value}`;
    }
    if (start[3] !== '1' || (start[4] !== '0' && start[4] !== '1')) throw new Refusal(505, '505 HTTP Version Not Supported: unsupported protocol version');
    const version = start[4] === '1' ? 1 : 0;
    if (version === 1 && headers.host === undefined) throw badRequest('missing required Host header');
    // HTTP/1.0 has no transfer codings: Go reads such a body by its length, as here.
    if (version === 0) delete headers['transfer-encoding'];
    const body = bodyOf(headers);
    const connection = headers.connection?.toLowerCase();
    const keepAlive = version === 1 ? !connection?.includes('close') : connection?.includes('keep-alive') === true;
    const expect = headers.expect;
    if (expect !== undefined && expect.toLowerCase() !== '100-continue') throw new Refusal(417, '417 Expectation Failed');
    const current: Pending = { request: { method: start[1]!, url: start[2]!, headers, version }, keepAlive, body, collected: undefined, size: 0, trailerBytes: 0, dropping: false, asked: false, answered: false };
    this.current = current;
    if (body.kind === 'length' && body.left > this.options.maxBodyBytes) {
      this.tooLarge(current);
      // A client waiting for 100 Continue sends no body: there is nothing to drain.
      if (expect !== undefined) current.body = NO_BODY;
    } else if (expect !== undefined && version === 1 && body.kind !== 'none' && this.input.length === 0) this.socket.write('HTTP/1.1 100 Continue\r\n\r\n');
    return true;
  }

  /** Takes the body's bytes as they come; true once all of it is in. */
  private readBody(current: Pending): boolean {
    const input = this.input;
    const body = current.body as Exclude<Body, { kind: 'none' }>;
    while (input.length > 0) {
      if (body.kind === 'length' || body.step === 'data') {
        const taken = Math.min(body.left, input.length);
        body.left -= taken;
        const bytes = input.take(taken);
        current.size += taken;
        if (current.dropping) {
          // Past what is drained, the connection ends (its Connection: close is already out) without reading on.
          if (current.size > DRAIN_LIMIT) return this.hangUp();
        } else if (current.size > this.options.maxBodyBytes) {
          this.tooLarge(current);
        } else (current.collected ??= new Inbox()).push(bytes);
        if (body.left > 0) return false;
        if (body.kind === 'length') return true;
        body.step = 'data-end';
      } else if (body.step === 'data-end') {
        if (input.length < 2) return false;
        if (input.at(0) !== 0x0d || input.at(1) !== 0x0a) throw badRequest('malformed chunked encoding');
        input.skip(2);
        body.step = 'size';
      } else {
        const eol = input.lineEnd();
        if (eol > CHUNK_LINE_LIMIT || (eol < 0 && input.length > CHUNK_LINE_LIMIT)) throw badRequest('malformed chunked encoding');
        if (eol < 0) return false;
        const line = input.text(eol);
        input.skip(2);
        if (body.step === 'trailer') {
          if (line === '') return true;
          current.trailerBytes += eol + 2;
          if (current.trailerBytes > this.options.maxHeaderBytes) throw new Refusal(431, '431 Request Header Fields Too Large');
          continue;
        }
        const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
        if (!size) throw badRequest('malformed chunked encoding');
        body.left = Number.parseInt(size[1]!, 16);
        body.step = body.left === 0 ? 'trailer' : 'data';
      }
    }
    return false;
  }

  /** 413 at once; the rest of the body is still read, so that a client still sending sees the answer, not a reset. */
  private tooLarge(current: Pending): void {
    current.dropping = true;
    current.asked = true;
    current.collected = undefined;
    current.size = 0;
    this.write(current, TOO_LARGE);
  }

  /** Ends the connection after what is written; what else arrives is dropped unread. */
  private hangUp(): false {
    this.current = undefined;
    this.input.clear();
    this.closing = true;
    this.finish();
    return false;
  }

  /** Ends the connection once what is written is out; the sweep cuts it if the client does not close its side soon. */
  private finish(): void {
    this.socket.end();
    this.deadline = Math.min(this.deadline, coarseNow + LINGER_MS);
  }

  /** Hands a request whose body is in to the router; the answer is written now or when it is ready. */
  private respond(current: Pending): void {
    current.asked = true;
    const body = current.collected?.take(current.size) ?? EMPTY_BODY;
    let reply: RpcReply | PromiseLike<RpcReply>;
    try {
      reply = this.answer(current.request, body);
    } catch {
      reply = INTERNAL;
    }
    if (typeof (reply as Partial<PromiseLike<RpcReply>> | null | undefined)?.then !== 'function') return this.write(current, reply as RpcReply);
    Promise.resolve(reply).then(
      (ready) => this.settle(current, ready),
      () => this.settle(current, INTERNAL),
    );
  }

  private settle(current: Pending, reply: RpcReply): void {
    if (this.current !== current) return;
    try {
      this.write(current, reply);
      this.pump();
    } catch {
      // Nothing may escape into an unhandled rejection: the connection goes instead.
      this.socket.destroy();
    }
  }

  /** Writes the answer, or a 500 where the reply is no valid answer. */
  private write(current: Pending, reply: RpcReply): void {
    current.answered = true;
    let answer: { data: string | Buffer; close: boolean };
    try {
      answer = serialize(current, reply);
    } catch {
      answer = serialize(current, INTERNAL);
    }
    if (answer.close) this.closing = true;
    if (!this.socket.destroyed) this.socket.write(answer.data);
  }

  private refuse(refusal: Refusal): void {
    // A framing error in a body whose 413 is already out: the connection just ends.
    if (!this.current?.answered) {
      this.socket.write(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${refusal.text}`);
    }
    this.current = undefined;
    this.input.clear();
    this.closing = true;
    this.finish();
  }
}

/** An answer as bytes on the wire, and whether the connection closes after it; throws for a reply that is none. */
function serialize(current: Pending, reply: RpcReply): { data: string | Buffer; close: boolean } {
  const { status, body } = reply;
  if (!Number.isInteger(status) || status < 100 || status > 999) throw new TypeError('status');
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('body');
  const bodiless = status === 204 || status === 304 || status < 200;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'status code'}\r\n`;
  let close = !current.keepAlive;
  for (const name in reply.headers) {
    const value = String(reply.headers[name]);
    // A header with a line break in it would split the answer: such a header is left out.
    const lower = headerName(name);
    if (lower === null || BAD_VALUE.test(value)) continue;
    if (lower === 'connection') close ||= /\bclose\b/i.test(value);
    // The length and the date are the server's to send, and a body sent whole has no transfer coding.
    else if (lower !== 'content-length' && lower !== 'date' && lower !== 'transfer-encoding') head += `${name}: ${value}\r\n`;
  }
  if (!bodiless) head += `Content-Length: ${typeof body === 'string' ? Buffer.byteLength(body) : body.length}\r\n`;
  head += `Date: ${httpDate()}\r\n`;
  // HTTP/1.0 keeps a connection only when asked to, and is told so; 1.1 needs no word.
  if (close) head += 'Connection: close\r\n';
  else if (current.request.version === 0) head += 'Connection: keep-alive\r\n';
  head += '\r\n';
  if (bodiless || current.request.method === 'HEAD' || body.length === 0) return { data: head, close };
  // Header bytes go out as they came in (latin1, as read); a string body as UTF-8, in one write when the head is ASCII.
  if (typeof body === 'string' && !NON_ASCII.test(head)) return { data: head + body, close };
  return { data: Buffer.concat([Buffer.from(head, 'latin1'), typeof body === 'string' ? Buffer.from(body) : body]), close };
}

/** Go trims only spaces and tabs around a header value; anything else left there makes the value invalid. */
function trimSpaceAndTab(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function bodyOf(headers: Record<string, string>): Body {
  const coding = headers['transfer-encoding'];
  const length = headers['content-length'];
  if (coding !== undefined) {
    if (coding.toLowerCase() !== 'chunked') throw new Refusal(501, 'Unsupported transfer encoding');
    if (length !== undefined) throw badRequest('both Transfer-Encoding and Content-Length');
    return { kind: 'chunked', step: 'size', left: 0 };
  }
  if (length === undefined) return NO_BODY;
  if (!/^\d{1,15}$/.test(length)) throw badRequest('invalid Content-Length');
  const left = Number(length);
  return left === 0 ? NO_BODY : { kind: 'length', left };
}

export async function serveHttp(answer: HttpAnswer, port: number, host: string, options: HttpOptions = {}): Promise<HttpServer> {
  const settings: Required<HttpOptions> = { maxHeaderBytes: 1 << 20, maxBodyBytes: 16 << 20, readTimeoutMs: 30_000, idleTimeoutMs: 120_000, ...options };
  const connections = new Set<Connection>();
  // As node:http: answers leave at once rather than waiting on the client's acknowledgement of the last one. Half-open,
  // so that a client that has sent its last byte still gets the answers it asked for.
  const server = createServer({ noDelay: true, allowHalfOpen: true }, (socket) => {
    const connection = new Connection(socket, answer, settings);
    connections.add(connection);
    socket.on('close', () => connections.delete(connection));
  });
  coarseNow = Date.now();
  // One sweep over every connection's deadline, rather than a timer per request.
  const tick = Math.max(5, Math.min(1000, Math.floor(Math.min(settings.readTimeoutMs, settings.idleTimeoutMs) / 8)));
  const sweep = setInterval(() => {
    const now = (coarseNow = Date.now());
    for (const connection of connections) if (now > connection.deadline) connection.socket.destroy();
  }, tick);
  sweep.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  }).catch((error: unknown) => {
    clearInterval(sweep);
    throw error;
  });
  // Errors of a listening server (accept failing for want of file descriptors, say) must not end the process.
  server.on('error', () => undefined);
  const close = () =>
    new Promise<void>((resolve) => {
      clearInterval(sweep);
      for (const connection of connections) connection.socket.destroy();
      server.close(() => resolve());
    });
  return { server, close };
}
