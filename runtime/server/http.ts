/**
 * The HTTP side of an endpoint, as the node's gorilla/rpc server does it: POST only (405), a JSON content type
 * (415, matched case-insensitively before any `;`), then the body, capped at `maxBodyBytes` (413). Plain-text
 * refusals carry no trailing newline, like gorilla's WriteError. Two adapters share it: node:http and fetch.
 */
import { concatBytes } from './encode.ts';
import type { CallInfo, RpcReply } from './rpc.ts';

/** The parts of node:http's IncomingMessage used here, so the types need no @types/node. */
export interface NodeRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  resume(): unknown;
  readonly complete?: boolean | undefined;
}

/** The parts of node:http's ServerResponse used here. */
export interface NodeResponse {
  writeHead(status: number, headers?: Record<string, string> | string[]): unknown;
  setHeader(name: string, value: string): unknown;
  end(body?: string | Uint8Array): unknown;
  on(event: 'close' | 'finish', listener: () => void): unknown;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  destroyed?: boolean | undefined;
  socket?: { destroy(): void } | null | undefined;
  /** The request answered (node:http's `res.req`), for its HTTP version. */
  readonly req?: { readonly httpVersionMajor: number; readonly httpVersionMinor: number } | undefined;
}

/**
 * A node:http request listener. A router passes the headers it adds to every reply as a third argument to listeners
 * that declare one (like Express telling error handlers by their length); others get them set on the response.
 */
export type NodeListener = (req: NodeRequest, res: NodeResponse, headers?: Readonly<Record<string, string>>) => void;
export type Answer = (body: Uint8Array, call: CallInfo) => RpcReply | Promise<RpcReply>;

export const DEFAULT_MAX_BODY_BYTES: number = 16 * 1024 * 1024;
const TEXT = 'text/plain; charset=utf-8';

export function textReply(status: number, text: string, headers: Record<string, string> = {}): RpcReply {
  return { status, headers: { 'Content-Type': TEXT, ...headers }, body: text };
}

/** The refusal for a request that never reaches the RPC layer, or undefined when it does. */
export function refuse(method: string | undefined, contentType: string | null | undefined): RpcReply | undefined {
  if (method !== 'POST') return textReply(405, `rpc: POST method required, received ${method ?? ''}`);
  if (contentType === 'application/json') return undefined;
  const type = (contentType ?? '').split(';', 1)[0]!;
  if (type.toLowerCase() !== 'application/json') return textReply(415, `rpc: unrecognized Content-Type: ${type}`);
  return undefined;
}

/** The refusal of a request whose body is `length` bytes (declared or read), or undefined when it goes on. */
export function refuseBefore(
  method: string | undefined,
  contentType: string | null | undefined,
  length: number,
  maxBodyBytes: number,
): RpcReply | undefined {
  return refuse(method, contentType) ?? (length > maxBodyBytes ? tooLarge() : undefined);
}

export function tooLarge(): RpcReply {
  return textReply(413, 'http: request body too large', { Connection: 'close' });
}

function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  for (const own in headers) if (own.length === name.length && own.toLowerCase() === name.toLowerCase()) return true;
  return false;
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Go's net/http holds the first 2,048 bytes a handler writes (bufferBeforeChunkingSize): an answer that fits, written
 * before the handler returns, gets its Content-Length; a larger write goes out at once, chunked, since its end is not
 * known yet. The node's handlers set no length and write their answer in one write (json2's json.NewEncoder(w).Encode,
 * gorilla's WriteError), so an answer of more than 2,048 bytes is chunked.
 */
const BUFFER_BEFORE_CHUNKING = 2048;

/**
 * Sends a reply framed as Go's server frames it (above) and `extra` headers (a router's), which give way to the reply's
 * own of the same name: as set ahead of writeHead, without the cost of setting them ahead.
 */
export function sendNode(res: NodeResponse, reply: RpcReply, extra?: Readonly<Record<string, string>>): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const length = typeof reply.body === 'string' ? byteLength(reply.body) : reply.body.length;
  res.writeHead(reply.status, headerList(reply.headers, extra, length > BUFFER_BEFORE_CHUNKING && chunks(res), length));
  // Headers, the one chunk and the last chunk leave in one write: node:http corks the socket for end().
  res.end(reply.body);
}

/**
 * Whether the answer may be chunked: HTTP/1.1 only (HTTP/1.0 has no chunks, HTTP/2 frames bodies itself), and only
 * where the request is known (a runtime imitating node:http gets the length).
 */
function chunks(res: NodeResponse): boolean {
  const req = res.req;
  return req !== undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
}

/**
 * The reply's headers as writeHead's flat list: `extra` ones of names the reply has none of, the reply's own, then the
 * length or the chunked encoding. Replies share their header objects (rpc.ts), so the list is made once for each pair
 * and only its last header changes; writeHead copies the list into the head before it returns, so lending the same
 * array every time is safe.
 */
function headerList(
  own: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>> | undefined,
  chunked: boolean,
  length: number,
): string[] {
  if (own !== listed.own || extra !== listed.extra) {
    const list: string[] = [];
    for (const name in extra) if (!hasHeader(own, name)) list.push(name, extra[name]!);
    for (const name in own) list.push(name, own[name]!);
    list.push('Content-Length', '');
    listed = { own, extra, list };
  }
  const list = listed.list;
  list[list.length - 2] = chunked ? 'Transfer-Encoding' : 'Content-Length';
  list[list.length - 1] = chunked ? 'chunked' : String(length);
  return list;
}

let listed: {
  own?: Readonly<Record<string, string>>;
  extra?: Readonly<Record<string, string>> | undefined;
  list: string[];
} = { list: [] };

/**
 * The call as the RPC layer sees it. The abort signal exists only once a handler asks for it: a controller and a
 * close listener per request would cost more than the rest of the RPC layer.
 */
class NodeCall implements CallInfo {
  private controller: AbortController | undefined;

  private readonly req: NodeRequest;
  private readonly res: NodeResponse;
  constructor(req: NodeRequest, res: NodeResponse) {
    this.req = req;
    this.res = res;
  }

  get headers(): CallInfo['headers'] {
    return this.req.headers;
  }

  /** Memory from the adapter's pool for a large reply, back in the pool once the reply is sent. */
  replyBuffer(size: number): Uint8Array | undefined {
    if (size < POOLED_MIN || size > POOLED_MAX) return undefined;
    const at = pool.findIndex((buffer) => buffer.length >= size);
    const buffer = at >= 0 ? pool.splice(at, 1)[0]! : new Uint8Array(Math.ceil(size / POOLED_MIN) * POOLED_MIN);
    // Sent means handed to the socket whole: node:http finishes a reply after its last write completed. A reply never
    // sent (the connection gone) keeps its buffer out of the pool.
    this.res.on('finish', () => {
      if (pool.length >= POOLED_COUNT) pool.sort((a, b) => b.length - a.length).pop();
      pool.push(buffer);
    });
    return buffer.subarray(0, size);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.res;
      if (res.destroyed && !res.writableEnded) controller.abort();
      else res.on('close', () => res.writableEnded || controller.abort());
    }
    return this.controller.signal;
  }
}

/**
 * Reply buffers lent to large replies (a page of 1,024 UTXOs is 250 KB) and reused: memory that is new to the
 * process costs a page fault per 4 KB when first written, which on a virtual machine was most of such a reply's
 * cost. At most POOLED_COUNT buffers of at most POOLED_MAX bytes are kept, so the pool holds 16 MiB at the most.
 */
const POOLED_MIN = 64 * 1024;
const POOLED_MAX = 4 * 1024 * 1024;
const POOLED_COUNT = 4;
const pool: Uint8Array[] = [];

const encoder = new TextEncoder();
/** node:http runs where Buffer is, and its count is native; the loop is for runtimes that only imitate node:http. */
const nativeByteLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer
  ?.byteLength;

function byteLength(text: string): number {
  if (nativeByteLength) return nativeByteLength(text, 'utf8');
  // Most answers are ASCII, whose length is its byte count; only the others need encoding to count.
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return encoder.encode(text).length;
  return text.length;
}

const ignore = (): void => undefined;
const internal = (): RpcReply => textReply(500, 'internal server error');

export function nodeAdapter(answer: Answer, maxBodyBytes: number): NodeListener {
  return (req, res, extra) => {
    const refusal = refuse(req.method, firstHeader(req.headers['content-type']));
    if (refusal) {
      req.resume();
      return sendNode(res, refusal, extra);
    }
    const declared = Number(firstHeader(req.headers['content-length']));
    if (declared > maxBodyBytes) return refuseLarge(req, res, extra);
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = false;
    const call = new NodeCall(req, res);
    // No 'error' listener: node:http emits a request's error (an upload cut short) only to listeners it has.
    req.on('data', (chunk) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        over = true;
        chunks.length = 0;
        refuseLarge(req, res, extra);
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      const body = chunks.length === 1 ? chunks[0]! : concatBytes(chunks, size);
      let reply: RpcReply | Promise<RpcReply>;
      try {
        reply = answer(body, call);
      } catch {
        return sendNode(res, internal(), extra);
      }
      // Answered in the same turn when the handler was synchronous: Node then sends head and body in one write.
      if (reply instanceof Promise)
        reply.then(
          (r) => sendNode(res, r, extra),
          () => sendNode(res, internal(), extra),
        );
      else sendNode(res, reply, extra);
    });
  };
}

/**
 * Answers 413 and closes the connection once the answer is out; the rest of the body is read and dropped meanwhile,
 * because a client still sending would otherwise see a reset instead of the answer.
 */
function refuseLarge(req: NodeRequest, res: NodeResponse, extra: Readonly<Record<string, string>> | undefined): void {
  req.on('data', ignore);
  res.on('finish', () => setTimeout(() => res.socket?.destroy(), 1000));
  sendNode(res, tooLarge(), extra);
}

export function toResponse(reply: RpcReply): Response {
  const body = reply.status === 204 || reply.body.length === 0 ? null : reply.body;
  return new Response(body as BodyInit | null, { status: reply.status, headers: reply.headers });
}

export function fetchAdapter(answer: Answer, maxBodyBytes: number): (request: Request) => Promise<Response> {
  return async (request) => {
    const refusal = refuseBefore(
      request.method,
      request.headers.get('content-type'),
      Number(request.headers.get('content-length')),
      maxBodyBytes,
    );
    if (refusal) return toResponse(refusal);
    const body = await readLimited(request, maxBodyBytes);
    if (!body) return toResponse(tooLarge());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    try {
      return toResponse(await answer(body, { headers, signal: request.signal }));
    } catch {
      return toResponse(internal());
    }
  };
}

async function readLimited(request: Request, maxBodyBytes: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.length;
    if (size > maxBodyBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}
