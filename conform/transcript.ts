/**
 * Recorded exchanges: one JSON file per call, named `<seq>-<method>.json` (seq zero-padded, so names sort in call
 * order), holding the endpoint path, the request and the response as they crossed the proxy. Replaying one sends the
 * same request to another node (the mock in tests) and returns its answer for comparison.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Exchange } from './inspect.ts';
import { stringifyJson } from '../generators/common/json.ts';
import { REDACTED, type RequestReading, type Redactor } from './redact.ts';

export interface Transcript {
  /** Path below the node's base URL, e.g. `/ext/bc/P` (query string included, if any). */
  endpoint: string;
  httpMethod: string;
  /** The JSON-RPC method, or undefined when the request named none. */
  method?: string;
  /** The request body parsed as JSON, secrets redacted (conform/redact.ts). */
  request?: unknown;
  /** Why the request, or part of it, was not recorded. */
  requestNote?: string;
  response: {
    status: number;
    contentType?: string;
    body?: unknown;
    bodyText?: string;
  };
}

const SEQ_DIGITS = 6;
const NOT_RECORDED = '(not recorded: larger than the inspection limit)';
// Cut: a caller's method name may be longer than a file name can be.
const safeName = (method: string | undefined) => (method ?? 'no-method').slice(0, 100).replace(/[^A-Za-z0-9._-]/g, '_');

export class TranscriptRecorder {
  /** The highest sequence number the folder already holds: numbering continues after it. */
  readonly lastSeq: number;
  private readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    // Continues after what the folder already holds: a second recording never overwrites the first.
    const taken = readdirSync(dir)
      .map((name) => /^(\d+)-/.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    this.lastSeq = taken.length > 0 ? Math.max(...taken) : 0;
  }

  async write(seq: number, transcript: Transcript): Promise<void> {
    const file = join(this.dir, `${String(seq).padStart(SEQ_DIGITS, '0')}-${safeName(transcript.method)}.json`);
    // Transcripts may hold what a caller sent: readable by their owner only.
    await writeFile(file, `${stringifyJson(transcript, 2)}\n`, { mode: 0o600 });
  }
}

/** A body as a transcript holds it: parsed when it is JSON, verbatim text otherwise, nothing when empty. */
export interface ParsedBody {
  json?: unknown;
  text?: string;
}

/**
 * A body kept for checking after the exchange, parsed on first need and never again: the checks, the redaction and
 * the transcript share the one value (a body of 10^6 keys takes V8 a second to parse). The redaction changes that
 * value in place, so it reads it last.
 */
export type KeptBody = () => ParsedBody;

export function keptBody(text: string): KeptBody {
  let kept: string | undefined = text;
  let parsed: ParsedBody | undefined;
  return () => {
    if (parsed === undefined) {
      parsed = transcriptBody(kept!);
      kept = undefined;
    }
    return parsed;
  };
}

/** The one parse of a body. */
export function transcriptBody(body: Buffer | string): ParsedBody {
  if (body.length === 0) return {};
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { text };
  }
}

export function readTranscripts(dir: string): Array<{ file: string; transcript: Transcript }> {
  return readdirSync(dir)
    .filter((name) => /^\d+-.*\.json$/.test(name))
    .sort()
    .map((name) => ({
      file: join(dir, name),
      transcript: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Transcript,
    }));
}

/** Sends a transcript's request to `baseUrl` and returns the answer in the transcript's own response form. */
export async function replayTranscript(transcript: Transcript, baseUrl: string): Promise<Transcript['response']> {
  const body = transcript.request === undefined ? undefined : stringifyJson(transcript.request);
  const response = await fetch(baseUrl.replace(/\/+$/, '') + transcript.endpoint, {
    method: transcript.httpMethod,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return transcriptResponse(
    response.status,
    response.headers.get('content-type') ?? undefined,
    transcriptBody(Buffer.from(await response.arrayBuffer())),
  );
}

/** An answer in a transcript's form; `body` undefined when it was not kept. */
function transcriptResponse(
  status: number,
  contentType: string | undefined,
  body: ParsedBody | undefined,
): Transcript['response'] {
  const parsed = body ?? { text: NOT_RECORDED };
  return {
    status,
    ...(contentType ? { contentType } : {}),
    ...('json' in parsed ? { body: parsed.json } : {}),
    ...('text' in parsed ? { bodyText: parsed.text } : {}),
  };
}

/**
 * The exchange as a transcript holds it, with the spec's secrets (x-sensitive) redacted (./redact.ts) in its parsed
 * bodies themselves: nothing may read them after.
 */
export function exchangeTranscript(exchange: Exchange, method: string | undefined, redactor: Redactor): Transcript {
  const request = exchange.request?.();
  const reading: RequestReading =
    request === undefined
      ? { note: NOT_RECORDED, secretive: true }
      : !('json' in request || 'text' in request)
        ? { secretive: false }
        : redactor.request(request);
  const response = transcriptResponse(exchange.status, exchange.contentType, exchange.response?.());
  const named = method ?? reading.method;
  return {
    endpoint: exchange.endpoint,
    httpMethod: exchange.httpMethod,
    ...(named !== undefined ? { method: named } : {}),
    ...('json' in reading ? { request: reading.json } : {}),
    ...(reading.note ? { requestNote: reading.note } : {}),
    response: {
      ...response,
      ...('body' in response ? { body: redactor.response(reading, response.body) } : {}),
      ...(response.bodyText !== undefined && response.bodyText !== NOT_RECORDED && reading.secretive
        ? { bodyText: `(${REDACTED}: not JSON, the answer to a request that may hold secrets)` }
        : {}),
    },
  };
}
