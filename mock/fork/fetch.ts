/**
 * The one way a fork reaches its source: a `fetch` for the generated clients that sends only to the fork URL, retries
 * with backoff on 429, 5xx and connection errors (a bounded number of tries, then one clear error), and keeps
 * answers on disk between runs, keyed by the source's network and fork point and by the request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FetchLike } from '../../generated/client/dist/index.js';

export const TRIES = 5;
/**
 * The largest answer read from the source: a whole page of 1,024 UTXOs or Mainnet's validators are a few MiB, and a
 * source that sends without end would otherwise take the mock's memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const FIRST_DELAY_MS = 50;
const MAX_DELAY_MS = 2_000;

export interface SourceStats {
  /** Requests sent to the source (each try counts). */
  sent: number;
  /** Answers read from the disk cache instead. */
  cached: number;
}

export class ForkSource {
  readonly url: string;
  readonly stats: SourceStats = { sent: 0, cached: 0 };
  /** `<network ID>/<P height>-<P block ID>-<X height>`: set once the fork point is known; no caching before. */
  scope: string | undefined;
  /**
   * The fork's C-Chain block, once known: the C-Chain's shared memory (`/ext/bc/C/avax`) is the source's at that block,
   * which the X and P fork point does not fix, so its answers are cached under it too, and not at all before.
   */
  cHeight: bigint | undefined;
  readonly cacheDir: string | undefined;
  private readonly delayMs: number;

  constructor(url: string, cacheDir: string | undefined, delayMs = FIRST_DELAY_MS) {
    this.url = url;
    this.cacheDir = cacheDir;
    this.delayMs = delayMs;
  }

  /** A fetch that never caches: for what the source says now (its tip). */
  readonly live: FetchLike = (url, init) => this.send(url, init);

  /** A fetch that answers from the cache when it can, and caches successful answers. */
  readonly cached: FetchLike = async (url, init) => {
    const file = this.fileOf(url, init.body);
    if (file) {
      let stored: string | undefined;
      try {
        stored = readFileSync(file, 'utf8');
        JSON.parse(stored);
      } catch {
        // Missing, or not JSON (written by hand, or a disk's fault): asked of the source again, and written anew.
        stored = undefined;
      }
      if (stored !== undefined) {
        this.stats.cached++;
        const id = (JSON.parse(init.body) as { id?: unknown }).id ?? null;
        return answer(200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${stored}}`);
      }
    }
    const response = await this.send(url, init);
    const text = await response.text();
    if (file && response.status === 200) {
      const result = resultOf(text);
      if (result !== undefined) writeAtomically(file, result);
    }
    return answer(response.status, text);
  };

  /** The source's C-Chain tip now (`eth_blockNumber`). */
  async cBlockNumber(): Promise<bigint> {
    const url = `${this.url}/ext/bc/C/rpc`;
    const response = await this.live(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(60_000),
    });
    let result: unknown;
    try {
      result = (JSON.parse(await response.text()) as { result?: unknown } | null)?.result;
    } catch {}
    if (response.status !== 200 || typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(result))
      throw new Error(`the fork source ${url} answered eth_blockNumber with no block number (HTTP ${response.status})`);
    return BigInt(result);
  }

  /**
   * The source's C-Chain config (coreth's `eth_getChainConfig`); undefined when the source answers it with an error (a
   * node that does not serve it).
   */
  async cChainConfig(): Promise<Record<string, unknown> | undefined> {
    const answer = await this.cCall('eth_getChainConfig', []);
    if ('error' in answer) return undefined;
    const { result } = answer;
    if (!result || typeof result !== 'object' || Array.isArray(result))
      throw new Error(`the fork source ${this.url} answered eth_getChainConfig with no config`);
    return result as Record<string, unknown>;
  }

  /**
   * The source's answer to a C-Chain read of what it holds at or below the fork's C-Chain block (so cached under it):
   * its `result`, or its `error` as it gave it.
   */
  async cCall(method: string, params: unknown[]): Promise<{ result: unknown } | { error: unknown }> {
    const url = `${this.url}/ext/bc/C/rpc`;
    const response = await this.cached(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    const parsed = ((): Record<string, unknown> | null => {
      try {
        return JSON.parse(text) as Record<string, unknown> | null;
      } catch {
        return null;
      }
    })();
    if (response.status === 200 && parsed && 'error' in parsed) return { error: parsed.error };
    if (response.status !== 200 || !parsed || !('result' in parsed))
      throw new Error(`the fork source ${url} answered ${method} with no JSON-RPC result (HTTP ${response.status})`);
    return { result: parsed.result };
  }

  private fileOf(url: string, body: string): string | undefined {
    if (!this.cacheDir || !this.scope) return undefined;
    const path = url.slice(this.url.length);
    const onC = path.startsWith('/ext/bc/C/');
    if (onC && this.cHeight === undefined) return undefined;
    const { method, params } = JSON.parse(body) as { method?: unknown; params?: unknown };
    const key = createHash('sha256')
      .update(JSON.stringify([path, method, params ?? null]))
      .digest('hex');
    return join(this.cacheDir, onC ? `${this.scope}-C${this.cHeight}` : this.scope, `${key}.json`);
  }

  private async send(url: string, init: Parameters<FetchLike>[1]) {
    // The clients are built on this URL; anything else would be a bug sending traffic elsewhere.
    if (url !== this.url && !url.startsWith(`${this.url}/`))
      throw new Error(`the fork sends only to ${this.url}, not to ${url}`);
    const method = (JSON.parse(init.body) as { method?: string }).method ?? '(no method)';
    let last = '';
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      if (attempt > 1) await sleep(Math.min(this.delayMs * 2 ** (attempt - 2), MAX_DELAY_MS), init.signal);
      this.stats.sent++;
      try {
        // A redirect is answered as it is (an HTTP error to the caller), never followed to another host.
        const response = await fetch(url, { ...init, redirect: 'manual' });
        if (response.status !== 429 && response.status < 500)
          return answer(response.status, await boundedText(response, () => `${this.url} to ${method}`));
        await response.body?.cancel();
        last = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      } catch (error) {
        if (init.signal.aborted || error instanceof TooLarge) throw error;
        last = `${(error as Error).message}${(error as { cause?: Error }).cause ? `: ${(error as { cause: Error }).cause.message}` : ''}`;
      }
    }
    throw new Error(`the fork source ${this.url} failed ${TRIES} tries of ${method} (last: ${last})`);
  }
}

const answer = (status: number, text: string) => ({ status, text: async () => text });

class TooLarge extends Error {}

/** The body as text, read no further than MAX_ANSWER_BYTES (a larger answer is refused, never retried). */
async function boundedText(response: Response, what: () => string): Promise<string> {
  const tooLarge = () => new TooLarge(`the fork source ${what()} answered more than ${MAX_ANSWER_BYTES} bytes`);
  if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    // Leaving the loop cancels the stream (the iterator's return).
    if (size > MAX_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The `result` of a JSON-RPC answer as JSON text, or undefined when it is an error (errors are never cached). */
function resultOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { result?: unknown; error?: unknown };
    return parsed.error === undefined && 'result' in parsed ? JSON.stringify(parsed.result) : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** Written under a name no one else uses, then renamed: a reader (or another run) sees the whole answer or none. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs the next run a request.
    rmSync(temporary, { force: true });
  }
}
