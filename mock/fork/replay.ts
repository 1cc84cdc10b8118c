/**
 * Recorded answers of a fork source, and a source that answers from them. The recorder is a 127.0.0.1 proxy in front
 * of a node that keeps the first answer to each JSON-RPC request (by path, method and params); the replay is a
 * 127.0.0.1 server that answers each recorded request as recorded and refuses any other with HTTP 404 naming it, so a
 * fork started on it reads exactly what the recording holds, as the node answered it then.
 *
 * To record a live node: `npm run fork-source -- record <node URL> <file>`, start a fork on the URL it prints, make
 * the calls the test will make, then stop the recorder (Ctrl-C writes the file); `npm run fork-source -- serve <file>`
 * answers from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface Recording {
  /** The node the answers came from, and when (ISO 8601). */
  source: string;
  recordedAt: string;
  /** Each request once, with the node's answer: its `result` or its `error`. */
  exchanges: { path: string; method: string; params: unknown; result?: unknown; error?: unknown }[];
}

const MAX_BODY = 1 << 20;
const keyOf = (path: string, method: unknown, params: unknown) => JSON.stringify([path, method, params ?? null]);

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** A proxy to `target` that records every JSON-RPC answer into `recording` (the first of each request). */
export async function startRecorder(target: string, recording: Recording): Promise<Running> {
  const seen = new Set(recording.exchanges.map((e) => keyOf(e.path, e.method, e.params)));
  return listen(async (path, body, respond) => {
    const upstream = await fetch(`${target}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      // Recorded as answered: a redirect is never followed to another host.
      redirect: 'manual',
    });
    const text = await upstream.text();
    const request = parse(body);
    const answer = parse(text);
    const key = keyOf(path, request?.method, request?.params);
    if (upstream.status === 200 && request && answer && !seen.has(key)) {
      seen.add(key);
      const { result, error } = answer;
      recording.exchanges.push({ path, method: String(request.method), params: request.params ?? null, result, error });
    }
    respond(upstream.status, text);
  });
}

/** A source answering from `recording` only. */
export async function startReplay(recording: Recording): Promise<Running> {
  const answers = new Map(recording.exchanges.map((e) => [keyOf(e.path, e.method, e.params), e]));
  return listen(async (path, body, respond) => {
    const request = parse(body);
    const found = request && answers.get(keyOf(path, request.method, request.params));
    if (!found) {
      const asked = request ? `${String(request.method)} ${JSON.stringify(request.params ?? null)}` : 'a body not JSON';
      return respond(404, `not recorded from ${recording.source}: ${path} ${asked.slice(0, 300)}`);
    }
    const answer = found.error === undefined ? { result: found.result } : { error: found.error };
    respond(200, JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, ...answer }));
  });
}

type Handler = (path: string, body: string, respond: (status: number, text: string) => void) => Promise<void>;

async function listen(handle: Handler): Promise<Running> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const respond = (status: number, text: string) => {
      if (res.headersSent) return;
      res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain' }).end(text);
    };
    if (req.method !== 'POST') return respond(405, 'POST JSON-RPC requests only');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        respond(413, `a request body is at most ${MAX_BODY} bytes`);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      handle(
        new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
        Buffer.concat(chunks).toString('utf8'),
        respond,
      ).catch((error: Error) => respond(502, `the recorded node failed: ${error.message}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const readRecording = (file: string): Recording => JSON.parse(readFileSync(file, 'utf8')) as Recording;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, first, second] = process.argv.slice(2);
  if (command === 'record' && first && second) {
    const recording: Recording = { source: first, recordedAt: new Date().toISOString(), exchanges: [] };
    const recorder = await startRecorder(first.replace(/\/+$/, ''), recording);
    console.log(`recording ${first} at ${recorder.url} (Ctrl-C writes ${second})`);
    process.on('SIGINT', () => {
      writeFileSync(second, `${JSON.stringify(recording, null, 1)}\n`);
      console.log(`${recording.exchanges.length} answers written to ${second}`);
      process.exit(0);
    });
  } else if (command === 'serve' && first && !second) {
    const replay = await startReplay(readRecording(first));
    console.log(`replaying ${first} at ${replay.url} (npm run mock -- --fork-url ${replay.url})`);
  } else {
    const usage = `Usage: npm run fork-source -- record <node URL> <file> | serve <file>
  record <node URL> <file>  a proxy on 127.0.0.1 to the node that keeps each first answer; Ctrl-C writes <file>
  serve <file>              answer on 127.0.0.1 only what <file> holds (HTTP 404 for anything else)
  --help, -h                this text`;
    const help = command === '--help' || command === '-h';
    (help ? console.log : console.error)(usage);
    process.exit(help ? 0 : 2);
  }
}
