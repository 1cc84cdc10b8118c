/**
 * `npm run proxy`: a transparent HTTP proxy in front of one node. Bytes, status and headers pass through unchanged;
 * a request's body is read whole before it goes upstream (./proxy-intake.ts), an answer is streamed as it arrives. A
 * copy of each body is validated against the spec only after the answer has been delivered, so checking never
 * delays, alters or drops traffic. It only ever connects to the one upstream URL given.
 * The caller's Host header goes upstream as sent, so the node's host allowlist still applies. Whatever one exchange
 * does (a value nested thousands deep, a silent upstream, a failure while checking) fails that exchange only.
 */
import {
  Agent as HttpAgent,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
  createServer,
  request as httpRequest,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  UPSTREAM_SOCKETS,
  limitConnections,
  readBody,
  refusalText,
} from './proxy-intake.ts';
import { type Exchange, type ProxyViolation, inspectExchange } from './inspect.ts';
import { ProxyStats } from './proxy-stats.ts';
import { Redactor } from './redact.ts';
import { INSPECT_LIMIT, Tap, endToEnd } from './proxy-relay.ts';
import { TranscriptRecorder, exchangeTranscript, keptBody } from './transcript.ts';
import { upgradeRelay } from './proxy-upgrade.ts';
import type { SpecValidator } from './validate.ts';

export type { ProxyViolation } from './inspect.ts';

export interface ProxyOptions {
  upstream: string;
  /**
   * The spec's validator, or its promise: the proxy listens and forwards at once, and checks the exchanges it has
   * forwarded once the validator is there (loading the toolkit's spec takes seconds).
   */
  validator: SpecValidator | Promise<SpecValidator>;
  port?: number;
  host?: string;
  /** Folder for one transcript file per exchange. */
  record?: string;
  onViolation?: (violation: ProxyViolation) => void;
  /** An exchange answered 502 or 504 by the proxy itself. */
  onUpstreamError?: (message: string) => void;
  /** A failure of the proxy's own while handling one exchange (that exchange only is lost). */
  onInternalError?: (message: string) => void;
  /**
   * The first call of each method the spec does not describe (it passes through unchecked), by its row's name in the
   * statistics: cut and escaped (./proxy-stats.ts), or OTHER_METHODS once the rows for such names are all taken.
   */
  onUnknownMethod?: (method: string, seq: number) => void;
  /**
   * Milliseconds the upstream may stay silent (before and while answering) before the caller gets 504. Default 30 s.
   */
  timeoutMs?: number;
  /**
   * Milliseconds the whole answer may take, from the call sent upstream to the answer's last byte: past it the caller
   * gets 504, or, once the answer has begun, its connection is cut. Bounds an upstream that keeps a call alive without
   * ever finishing it (a byte now and then, endless 100 Continue heads), which the silence timeout never sees.
   * Default 120 s: four times the node's --http-write-timeout, within which a real node ends every answer.
   */
  answerTimeoutMs?: number;
  /** The Host header to send upstream instead of the caller's. */
  hostHeader?: string;
  /** Request bodies larger than this are answered 413 (each is read whole before it goes upstream). Default 32 MiB. */
  maxBodyBytes?: number;
  /** Caller connections held at once; one more is answered 503 (./proxy-intake.ts). Default MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Time a caller's connection may stay idle between calls. Default 120 s, as the node's --http-idle-timeout. */
  idleTimeoutMs?: number;
  /** Time a caller has to send a whole request. Default 30 s. */
  readTimeoutMs?: number;
  /** A caller refused for want of connections, with the text it was sent. */
  onRefused?: (message: string) => void;
  /** An upgrade (WebSocket) the upstream accepted, now relayed unchecked (./proxy-upgrade.ts); `count` so far. */
  onWebSocket?: (path: string, count: number) => void;
}

export interface ValidatingProxy {
  url: string;
  stats: ProxyStats;
  /** Resolves once every finished exchange has been validated and recorded. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Matches any string: run on a short one, it makes V8 let go of the last subject a regular expression matched. */
const FORGET_LAST_MATCH = /(?:)/;

export async function startProxy(options: ProxyOptions): Promise<ValidatingProxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`the upstream must be an http(s) URL, not ${upstream.protocol}`);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: UPSTREAM_SOCKETS };
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const send = secure ? httpsRequest : httpRequest;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const recorder = options.record ? new TranscriptRecorder(options.record) : undefined;
  const checking = Promise.resolve(options.validator).then((validator) => ({
    validator,
    redactor: new Redactor(validator.model),
  }));
  // A spec that fails to load is its loader's to report (the CLI exits); the exchanges go unchecked meanwhile.
  checking.catch(() => {});
  const timeoutMs = options.timeoutMs ?? 30_000;
  const answerTimeoutMs = options.answerTimeoutMs ?? 120_000;
  const where = `the upstream node at ${upstream.origin}${basePath}`;
  const internalError = (seq: number, what: string, error: unknown) => {
    // The error's name only: its message may quote the request, and with it a secret.
    options.onInternalError?.(
      `exchange #${seq}: ${what} failed (${error instanceof Error ? error.name : typeof error}); the proxy carries on`,
    );
  };
  const stats = new ProxyStats();
  const pending = new Set<Promise<void>>();
  // One number per exchange, claimed on arrival (names follow arrival order even if answers overlap): `#n` in a
  // violation line is the recorded file's number.
  let seq = recorder?.lastSeq ?? 0;

  const afterwards = (exchange: Exchange) => {
    let step = 'checking';
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => checking)
      .then(async ({ validator, redactor }) => {
        const { method, label, violations, specified } = inspectExchange(validator, exchange);
        const opened = stats.count(label, specified, violations.length, !specified && method !== undefined);
        if (opened !== undefined) options.onUnknownMethod?.(opened, exchange.seq);
        for (const violation of violations) options.onViolation?.(violation);
        step = 'recording';
        // Last: the transcript redacts the parsed bodies the checks above read.
        if (recorder) await recorder.write(exchange.seq, exchangeTranscript(exchange, method, redactor));
      })
      .catch((error: unknown) => internalError(exchange.seq, step, error))
      // The last string a pattern matched stays reachable (RegExp.input): a whole answer, held until the next match.
      .finally(() => FORGET_LAST_MATCH.test(''));
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, id: number) => {
    res.sendDate = false;
    if (refused(req.socket)) return;
    const tooLarge = () =>
      res
        .writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end(`413 Payload Too Large: the proxy takes request bodies of at most ${maxBodyBytes} bytes\n`);
    void readBody(req, maxBodyBytes, tooLarge).then(
      (body) => body && guard(id, res, 'forwarding the request', forward)(req, res, id, body),
    );
  };

  /** Sends a request, its body read whole, upstream and its answer back as it streams in. */
  const forward = (req: IncomingMessage, res: ServerResponse, id: number, body: Buffer) => {
    const upstreamRequest = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: basePath + (req.url ?? '/'),
      headers: endToEnd(req.rawHeaders, options.hostHeader, upstream.host) as unknown as OutgoingHttpHeaders,
      agent,
    });
    let timedOut: 'silent' | 'overdue' | undefined;
    // Idle time on the upstream socket, both before the answer starts and between its chunks.
    upstreamRequest.setTimeout(timeoutMs, () => {
      timedOut = 'silent';
      upstreamRequest.destroy(new Error('timeout'));
    });
    const overdue = setTimeout(() => {
      timedOut = 'overdue';
      const late = `${where} did not finish its answer within ${answerTimeoutMs / 1000} s`;
      if (!res.headersSent) return upstreamRequest.destroy(new Error('overdue'));
      stats.upstreamFailures += 1;
      options.onUpstreamError?.(`the caller's connection cut: ${late}`);
      upstreamRequest.destroy();
      res.destroy();
    }, answerTimeoutMs);
    let callerGone = false;
    upstreamRequest.end(body);
    res.on('close', () => {
      clearTimeout(overdue);
      if (res.writableFinished) return;
      callerGone = true;
      upstreamRequest.destroy();
    });
    upstreamRequest.on(
      'response',
      guard(id, res, 'forwarding the answer', (answer: IncomingMessage) => {
        const responseTap = new Tap();
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
            request: body.length > INSPECT_LIMIT ? undefined : keptBody(body.toString('utf8')),
            status: answer.statusCode ?? 0,
            contentType: answer.headers['content-type'],
            response: responseTap.overflow ? undefined : keptBody(responseTap.text()),
          });
        });
      }),
    );
    upstreamRequest.on(
      'error',
      guard(id, res, 'answering an upstream failure', (error: NodeJS.ErrnoException) => {
        if (callerGone) return;
        if (res.headersSent) {
          // The answer was already under way: cutting the connection is the only honest signal left.
          res.destroy(error);
          return;
        }
        stats.upstreamFailures += 1;
        const [status, message] =
          timedOut === 'silent'
            ? [504, `${where} did not answer within ${timeoutMs / 1000} s`]
            : timedOut === 'overdue'
              ? [504, `${where} did not finish its answer within ${answerTimeoutMs / 1000} s`]
              : error.code?.startsWith('HPE_')
                ? [502, `${where} answered something that is not HTTP (${error.code})`]
                : [502, `${where} could not be reached (${error.code ?? error.message})`];
        options.onUpstreamError?.(`${status} to the caller: ${message}`);
        res
          .writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`${status} ${status === 502 ? 'Bad Gateway' : 'Gateway Timeout'}: ${message}\n`);
      }),
    );
  };

  /** Runs one step of an exchange; if it throws, that exchange alone ends (502 if nothing was sent yet, else cut). */
  function guard<A extends unknown[]>(
    id: number,
    res: ServerResponse,
    what: string,
    step: (...args: A) => void,
  ): (...args: A) => void {
    return (...args: A) => {
      try {
        step(...args);
      } catch (error) {
        internalError(id, what, error);
        if (!res.headersSent)
          res
            .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
            .end('502 Bad Gateway: the proxy failed on this exchange\n');
        else res.destroy();
      }
    };
  }

  // A caller has this long to send its whole request, head and body (AvalancheGo's --http-read-timeout): a body
  // trickling in holds a connection no longer.
  const readTimeout = options.readTimeoutMs ?? 30_000;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const id = ++seq;
    guard(id, res, 'reading the request', handle)(req, res, id);
  };
  const server = createServer(
    {
      requestTimeout: readTimeout,
      headersTimeout: readTimeout,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, readTimeout / 8)),
    },
    onRequest,
  );
  // An Expect the proxy does not know is the node's to refuse, in its words: node:http would answer 417 itself.
  server.on('checkExpectation', onRequest);
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const refused = limitConnections(server, maxConnections, () => {
    stats.refused += 1;
    options.onRefused?.(refusalText(maxConnections).trim());
  });
  // Callers keep connections open as they would to the node (AvalancheGo's idle timeout is 120 s). Node's default of
  // 5 s closes a connection whose caller is still reading a large answer, and its next call on it is then reset.
  server.keepAliveTimeout = options.idleTimeoutMs ?? 120_000;
  const relay = upgradeRelay(server, refused, {
    send,
    target: { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, basePath },
    ...(options.hostHeader ? { hostHeader: options.hostHeader } : {}),
    timeoutMs,
    onRelayed: (path, count) => {
      stats.websockets = count;
      options.onWebSocket?.(path, count);
    },
    onFailed: (message) => {
      stats.upstreamFailures += 1;
      options.onUpstreamError?.(message);
    },
  });
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
        relay.closeAll();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      agent.destroy();
      await settled();
    },
  };
}
