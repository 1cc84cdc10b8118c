/**
 * What every client shares: the JSON-RPC 2.0 call over HTTP POST with plain `fetch`, no dependencies, on Node >= 20
 * and in browsers.
 */
import { HttpStatusError, InvalidResponseError, JsonRpcError, NetworkError, TimeoutError } from './errors.js';

/** The subset of `fetch` the clients use; pass your own (a proxy, a test double, an instrumented fetch). */
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<FetchResponseLike>;

/** The subset of a fetch `Response` the clients read. */
export interface FetchResponseLike {
  readonly status: number;
  text(): Promise<string>;
}

export interface ClientOptions {
  /** Scheme, host and port of the node's HTTP API, e.g. `https://api.avax.network`. Default: the spec's server. */
  baseUrl?: string;
  /** The fetch to send requests with. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Extra HTTP headers for every request (`Authorization`, ...). */
  headers?: Record<string, string>;
  /** How long each call may take, in milliseconds, before it fails with a {@link TimeoutError}. Default 30000; 0 waits forever. */
  timeoutMs?: number;
}

export interface CallOptions {
  /** Aborts the call; it then rejects with the signal's reason, as `fetch` does. */
  signal?: AbortSignal;
  /** This call's timeout in milliseconds, instead of the client's. 0 waits forever. */
  timeoutMs?: number;
}

const EXCERPT_LENGTH = 200;

/**
 * `"password": "..."` (any key in `keys`, case-insensitively as the node reads keys, escapes included) in any body,
 * JSON or cut short, so the string after the key can be hidden before an excerpt is taken.
 */
function secretPattern(keys: readonly string[]): RegExp | undefined {
  if (keys.length === 0) return undefined;
  const names = keys.map((key) => key.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`));
  return new RegExp(`("(?:${names.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, 'gi');
}

/** What a JSON-RPC 2.0 response may hold; every member is checked before use. */
interface ResponseObject {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

const isObject = (value: unknown): value is { [key: string]: unknown } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The base of every generated client: one endpoint URL, one JSON-RPC 2.0 call per method. */
export class JsonRpcClient {
  /** The endpoint URL every call of this client is sent to. */
  readonly url: string;
  readonly #fetch: FetchLike;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #secrets: RegExp | undefined;
  #nextId = 1;

  /**
   * @param path - The endpoint's path; `{name}` parts are replaced by `values[name]`, URL-encoded.
   * @param sensitiveKeys - Keys whose values (passwords, exported users) error excerpts show as "<redacted>".
   */
  constructor(options: ClientOptions, defaultBaseUrl: string, path: string, values: Record<string, string> = {}, sensitiveKeys: readonly string[] = []) {
    const expanded = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
    this.url = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '') + expanded;
    const globalFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetch = options.fetch ?? globalFetch?.bind(globalThis);
    if (typeof fetch !== 'function') throw new TypeError('this runtime has no global fetch: pass options.fetch');
    this.#fetch = fetch;
    this.#headers = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(options.headers ?? {})) this.#headers[name.toLowerCase()] = value;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#secrets = secretPattern(sensitiveKeys);
  }

  /** The start of a body for an error, secrets hidden first so a cut never shows part of one. */
  #excerpt(body: string): string {
    const shown = this.#secrets ? body.replace(this.#secrets, '$1"<redacted>"') : body;
    const flat = shown.replace(/\s+/g, ' ').trim();
    return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}...` : flat;
  }

  /** Sends one call and returns its `result`; every failure rejects with an `AvalancheRpcError` (errors.ts) or the abort reason. */
  protected async request<Result>(method: string, params: object, options: CallOptions = {}): Promise<Result> {
    const { signal } = options;
    signal?.throwIfAborted();
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = timeoutMs > 0 && Number.isFinite(timeoutMs) ? setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs) : undefined;
    // A custom fetch may ignore the signal; the call still ends when it fires.
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    aborted.catch(() => undefined);
    try {
      const fetch = this.#fetch;
      const send = async () => {
        const response = await fetch(this.url, { method: 'POST', headers: { ...this.#headers }, body, signal: controller.signal });
        return { status: response.status, text: await response.text() };
      };
      let answer: { status: number; text: string };
      try {
        answer = await Promise.race([send(), aborted]);
      } catch (error) {
        if (timedOut) throw new TimeoutError(method, this.url, timeoutMs);
        if (signal?.aborted) throw signal.reason;
        throw new NetworkError(method, this.url, error);
      }
      return this.#read<Result>(method, id, answer.status, answer.text);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #read<Result>(method: string, id: number, status: number, text: string): Result {
    if (status !== 200) throw new HttpStatusError(method, this.url, status, this.#excerpt(text));
    let response: unknown;
    try {
      response = JSON.parse(text);
    } catch {
      throw new InvalidResponseError(method, this.url, 'the body is not JSON', this.#excerpt(text));
    }
    if (!isObject(response) || response.jsonrpc !== '2.0') throw new InvalidResponseError(method, this.url, 'not a JSON-RPC 2.0 response object', this.#excerpt(text));
    return this.#result<Result>(method, id, response as ResponseObject, text);
  }

  #result<Result>(method: string, id: number, response: ResponseObject, text: string): Result {
    const { error } = response;
    // An error the server could not tie to a request carries id null (JSON-RPC 2.0, section 5).
    if (isObject(error) && (response.id === id || response.id === null)) {
      const code = typeof error.code === 'number' ? error.code : NaN;
      throw new JsonRpcError(method, this.url, code, typeof error.message === 'string' ? error.message : JSON.stringify(error.message), error.data ?? null);
    }
    if (response.id !== id) throw new InvalidResponseError(method, this.url, `the response id ${JSON.stringify(response.id)} does not match the request id ${id}`, this.#excerpt(text));
    if (!('result' in response)) throw new InvalidResponseError(method, this.url, 'the response has neither result nor error', this.#excerpt(text));
    return response.result as Result;
  }
}
