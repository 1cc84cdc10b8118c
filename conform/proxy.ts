/**
 * `npm run proxy`: a transparent HTTP proxy in front of one node. Bytes, status and headers pass through unchanged
 * and are streamed as they arrive; a copy of each body is validated against the spec only after the answer has been
 * delivered, so checking never delays, alters or drops traffic. It only ever connects to the one upstream URL given.
 */
import { Agent as HttpAgent, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Exchange, type ProxyViolation, inspectExchange } from './inspect.ts';
import { ProxyStats } from './proxy-stats.ts';
import { NOT_RECORDED, type Transcript, TranscriptRecorder, transcriptBody, transcriptResponse } from './transcript.ts';
import type { SpecValidator } from './validate.ts';

export type { ProxyViolation } from './inspect.ts';

export interface ProxyOptions {
  upstream: string;
  validator: SpecValidator;
  port?: number;
  host?: string;
  /** Folder for one transcript file per exchange. */
  record?: string;
  onViolation?: (violation: ProxyViolation) => void;
  onUpstreamError?: (message: string) => void;
  /** Bodies larger than this are forwarded but not validated. Default 32 MiB. */
  maxInspectBytes?: number;
}

export interface ValidatingProxy {
  url: string;
  stats: ProxyStats;
  /** Resolves once every finished exchange has been validated and recorded. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1); each hop sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

function endToEnd(raw: string[], replaceHost?: string): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    // The upstream sees its own host name, as behind any reverse proxy (a node rejects unknown host names with 403).
    out.push(raw[i]!, replaceHost !== undefined && name === 'host' ? replaceHost : raw[i + 1]!);
  }
  return out;
}

/** Collects a copy of a stream's bytes up to a limit, for validation after the fact. */
class Tap {
  chunks: Buffer[] = [];
  size = 0;
  overflow = false;
  constructor(private readonly limit: number) {}
  push = (chunk: Buffer) => {
    if (this.overflow) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflow = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  };
  bytes = () => Buffer.concat(this.chunks);
}

export async function startProxy(options: ProxyOptions): Promise<ValidatingProxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`the upstream must be an http(s) URL, not ${upstream.protocol}`);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const limit = options.maxInspectBytes ?? 32 * 1024 * 1024;
  const recorder = options.record ? new TranscriptRecorder(options.record) : undefined;
  const stats = new ProxyStats();
  const pending = new Set<Promise<void>>();
  // One number per exchange, claimed on arrival (names follow arrival order even if answers overlap): `#n` in a
  // violation line is the recorded file's number.
  let seq = recorder?.lastSeq ?? 0;

  const afterwards = (exchange: Exchange) => {
    const work = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const { method, label, violations, specified } = inspectExchange(options.validator, exchange);
      stats.count(label, specified, violations.length);
      for (const violation of violations) options.onViolation?.(violation);
      if (recorder) await recorder.write(exchange.seq, toTranscript(exchange, method));
    });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const id = ++seq;
    res.sendDate = false;
    const requestTap = new Tap(limit);
    const upstreamRequest = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: basePath + (req.url ?? '/'),
      headers: endToEnd(req.rawHeaders, upstream.host) as unknown as OutgoingHttpHeaders,
      agent,
    });
    let callerGone = false;
    req.on('data', requestTap.push);
    req.on('error', () => upstreamRequest.destroy());
    req.pipe(upstreamRequest);
    res.on('close', () => {
      if (res.writableFinished) return;
      callerGone = true;
      upstreamRequest.destroy();
    });
    upstreamRequest.on('response', (answer) => {
      const responseTap = new Tap(limit);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
      answer.on('data', responseTap.push);
      // The upstream broke off mid-answer: the caller's connection is cut too, never left waiting for the rest.
      answer.on('error', (error) => res.destroy(error));
      answer.pipe(res);
      answer.on('end', () => {
        afterwards({
          seq: id,
          endpoint: req.url ?? '/',
          httpMethod: req.method ?? 'GET',
          request: requestTap.overflow ? undefined : requestTap.bytes(),
          status: answer.statusCode ?? 0,
          contentType: answer.headers['content-type'],
          response: responseTap.overflow ? undefined : responseTap.bytes(),
        });
      });
    });
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      if (callerGone) return;
      if (res.headersSent) {
        // The answer was already under way: cutting the connection is the only honest signal left.
        res.destroy(error);
        return;
      }
      stats.upstreamFailures += 1;
      const message = `the upstream node at ${upstream.origin}${basePath} could not be reached (${error.code ?? error.message})`;
      options.onUpstreamError?.(message);
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`502 Bad Gateway: ${message}\n`);
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return {
    url: `http://${host}:${address.port}`,
    stats,
    settled,
    close: async () => {
      // Calls in flight may finish (for a moment); idle keep-alive connections close now.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      agent.destroy();
      await settled();
    },
  };
}

function toTranscript(exchange: Exchange, method: string | undefined): Transcript {
  const request = exchange.request ? transcriptBody(exchange.request) : { text: NOT_RECORDED };
  return {
    endpoint: exchange.endpoint,
    httpMethod: exchange.httpMethod,
    ...(method ? { method } : {}),
    ...('json' in request ? { request: request.json } : {}),
    ...('text' in request ? { requestText: request.text } : {}),
    response: transcriptResponse(exchange.status, exchange.contentType, exchange.response),
  };
}
