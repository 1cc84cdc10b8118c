/**
 * What every client shares: the JSON-RPC 2.0 call over HTTP POST with plain `fetch`, no dependencies, on Node >= 22.18
 * and in browsers.
 */
import {
  type DocumentedErrors,
  HttpStatusError,
  InvalidResponseError,
  JsonRpcError,
  NetworkError,
  NotServedError,
  TimeoutError,
  compare,
} from './errors.ts';

/** The subset of `fetch` the clients use; pass your own (a proxy, a test double, an instrumented fetch). */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<FetchResponseLike>;

/** The subset of a fetch `Response` the clients read. */
export interface FetchResponseLike {
  readonly status: number;
  text(): Promise<string>;
}

export interface ClientOptions {
  /** Scheme, host and port of the server, e.g. `https://rpc.example.com`. Default: the spec's server. */
  baseUrl?: string | undefined;
  /** The fetch to send requests with. Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** Extra HTTP headers for every request (`Authorization`, ...). */
  headers?: Record<string, string> | undefined;
  /**
   * How long each call may take, in milliseconds, before it fails with a {@link TimeoutError}. Default 30000; 0 waits
   * forever.
   */
  timeoutMs?: number | undefined;
  /**
   * The server's release, e.g. `v1.12.1`: a method the spec says that release does not serve fails with a
   * {@link NotServedError} before anything is sent. Default: none, every method is sent.
   */
  nodeVersion?: string | undefined;
}

/** The releases that serve each method that has a range (from the spec's `x-node-versions`). */
export type MethodReleases = Record<string, { since?: string; lastVersion?: string; removedIn?: string }>;

export interface CallOptions {
  /** Aborts the call; it then rejects with the signal's reason, as `fetch` does. */
  signal?: AbortSignal | undefined;
  /** This call's timeout in milliseconds, instead of the client's. 0 waits forever. */
  timeoutMs?: number | undefined;
}

const EXCERPT_LENGTH = 200;

/**
 * `"password": "..."` (any key in `keys`, case-insensitively, escapes included) in any body,
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

/** How a paginated method pages (the spec's `x-pagination`; the generator's model holds the same). */
export interface Pagination {
  /** The param that takes where to continue, and the result field that returns it. */
  cursorParam: string;
  cursorField: string;
  /** The param that sets the page size, and the largest page the server sends (also when the param is omitted). */
  pageSizeParam: string;
  maxPageSize: number;
  /** The result field that holds the page's items. */
  itemsField: string;
}

const isObject = (value: unknown): value is { [key: string]: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` (the caller's, or the server's default) and below it the path a server URL template adds. The base decides
 * scheme, host and port; the spec's template may only add a path, so text that would go on with the authority
 * (`@evil.invalid/x` making the base user info, `.evil.invalid` or `:8080` changing host or port, `rpc` running into
 * the port) starts the path instead. A relative base (a browser page's `/api`) stays relative.
 */
function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path === '' || /^[/?#]/.test(path) ? path : `/${path}`);
}

/**
 * The base of every generated client: one endpoint URL, one JSON-RPC 2.0 call per method. `Errors` names, per client
 * method, the errors its spec documents, so `failed(error, method, name)` is checked at compile time.
 */
export class JsonRpcClient<Errors extends { [method: string]: string } = { [method: string]: string }> {
  /** The endpoint URL every call of this client is sent to, but a method's with a server of its own. */
  readonly url: string;
  readonly #baseUrl: string | undefined;
  readonly #values: Record<string, string>;
  readonly #fetch: FetchLike;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #nodeVersion: string | undefined;
  readonly #releases: MethodReleases;
  readonly #secrets: RegExp | undefined;
  #nextId = 1;
  /** Each client method's JSON-RPC method, e.g. `getBalance: 'eth_getBalance'` (set by the generated client). */
  protected readonly wireNames: { readonly [method: string]: string } = {};
  /**
   * The base URL and path of each JSON-RPC method that has a server of its own (OpenRPC `servers`), e.g.
   * `get_pet: ['http://127.0.0.1:8080', '/pets']` (set by the generated client): a `baseUrl` option replaces the base.
   */
  protected readonly methodServers: { readonly [method: string]: readonly [string, string] } = {};
  /**
   * Whether a method takes its params by name (OpenRPC `paramStructure`), so `call()` sends it `{}` when given none,
   * else `[]`: true when every method of the spec does (and then any other method too), else the wire names of those
   * that do (set by the generated client).
   */
  protected readonly paramsByName: boolean | readonly string[] = true;

  /**
   * @param defaultBaseUrl - Scheme, host and port, when `options.baseUrl` is not given; `{name}` parts are replaced by
   *   `values[name]` (`http://{host}:{port}`).
   * @param path - The endpoint's path; `{name}` parts are replaced by `values[name]`, URL-encoded.
   * @param sensitiveKeys - Keys whose values (passwords, private keys) error excerpts show as "<redacted>".
   */
  constructor(
    options: ClientOptions,
    defaultBaseUrl: string,
    path: string,
    values: Record<string, string> = {},
    releases: MethodReleases = {},
    sensitiveKeys: readonly string[] = [],
  ) {
    this.#baseUrl = options.baseUrl;
    this.#values = values;
    this.url = this.#urlAt(defaultBaseUrl, path);
    const globalFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetch = options.fetch ?? globalFetch?.bind(globalThis);
    if (typeof fetch !== 'function') throw new TypeError('this runtime has no global fetch: pass options.fetch');
    this.#fetch = fetch;
    this.#headers = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(options.headers ?? {})) this.#headers[name.toLowerCase()] = value;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    if (options.nodeVersion !== undefined && !/^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(options.nodeVersion))
      throw new TypeError(`nodeVersion must look like v1.12.1, not "${options.nodeVersion}"`);
    this.#nodeVersion = options.nodeVersion;
    this.#releases = releases;
    this.#secrets = secretPattern(sensitiveKeys);
  }

  /** The URL at a server's base URL and path, the variables filled in: the caller's base URL, if given, instead. */
  #urlAt(defaultBaseUrl: string, path: string): string {
    const fill = (template: string, encode: (value: string) => string) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => encode(this.#values[name] ?? ''));
    const base = this.#baseUrl ?? fill(defaultBaseUrl, (value) => value);
    return joinUrl(base, fill(path, encodeURIComponent));
  }

  /** Where the JSON-RPC method `method` is called. */
  #urlOf(method: string): string {
    // Own keys only: a method named like an Object.prototype member (`isPrototypeOf`) has no servers of its own.
    const server = Object.hasOwn(this.methodServers, method) ? this.methodServers[method] : undefined;
    return server ? this.#urlAt(...server) : this.url;
  }

  /**
   * A by-position method's params, `names` giving their order: an array, a param left out before a given one sent as
   * null (as go-ethereum reads an absent optional argument), trailing ones left out.
   */
  protected positional(params: object, names: readonly string[]): unknown[] {
    const values = names.map((name) => (params as { readonly [name: string]: unknown })[name]);
    while (values.length > 0 && values.at(-1) === undefined) values.pop();
    return values.map((value) => (value === undefined ? null : value));
  }

  /** The start of a body for an error, secrets hidden first so a cut never shows part of one. */
  #excerpt(body: string): string {
    const shown = this.#secrets ? body.replace(this.#secrets, '$1"<redacted>"') : body;
    const flat = shown.replace(/\s+/g, ' ').trim();
    return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}...` : flat;
  }

  /**
   * Calls a method the spec does not describe (or one of its methods, untyped): `params` are sent as given, the result
   * comes back unchecked. Without `params`, a method that takes them by name is sent `{}`, any other `[]`, as its
   * typed method sends them. Fails as every method does.
   */
  call(method: string, params?: object, options?: CallOptions): Promise<unknown> {
    const byName = typeof this.paramsByName === 'boolean' ? this.paramsByName : this.paramsByName.includes(method);
    return this.request<unknown>(method, params ?? (byName ? {} : []), options);
  }

  /**
   * Whether `error` is the documented error `name` of this client's method `method`, e.g.
   * `client.failed(error, 'getBlock', 'BlockNotFound')`; a name the method does not document does not compile.
   */
  failed<Method extends keyof Errors & string>(
    error: unknown,
    method: Method,
    name: Errors[Method],
  ): error is JsonRpcError<Errors[Method]> {
    return (
      error instanceof JsonRpcError &&
      error.method === this.wireNames[method] &&
      error.url === this.#urlOf(error.method) &&
      error.is(name)
    );
  }

  /**
   * Every item of a paginated method (the spec's `x-pagination`), page after page: each page continues where the last
   * one ended (its `cursorField` sent back as `cursorParam`); a page shorter than the page size is the last. Pages may
   * repeat an item (a server may restart a listing at the cursor's item), so an item already given is skipped: equal
   * items are equal JSON.
   */
  protected async *paginate<Item>(
    method: string,
    first: object,
    options: CallOptions | undefined,
    errors: DocumentedErrors | undefined,
    paging: Pagination,
  ): AsyncGenerator<Item, void, undefined> {
    const params = first as { [name: string]: unknown };
    const requested = Number(params[paging.pageSizeParam] ?? 0);
    const pageSize = requested > 0 && requested <= paging.maxPageSize ? requested : paging.maxPageSize;
    const seen = new Set<string>();
    let next = params;
    for (;;) {
      const page = await this.request<{ [field: string]: unknown }>(method, next, options, errors);
      const items = page[paging.itemsField];
      if (!Array.isArray(items))
        throw new InvalidResponseError(
          method,
          this.#urlOf(method),
          `the result has no ${paging.itemsField} list`,
          this.#excerpt(JSON.stringify(page)),
        );
      for (const item of items as Item[]) {
        const key = typeof item === 'string' ? item : JSON.stringify(item);
        if (seen.has(key)) continue;
        seen.add(key);
        yield item;
      }
      const cursor = page[paging.cursorField];
      // A full page whose cursor did not move would be fetched again forever.
      if (
        items.length < pageSize ||
        cursor === undefined ||
        JSON.stringify(cursor) === JSON.stringify(next[paging.cursorParam])
      )
        return;
      next = { ...params, [paging.cursorParam]: cursor };
    }
  }

  /**
   * Sends one call and returns its `result`; every failure rejects with an `RpcError` (errors.ts) or the abort
   * reason. A JSON-RPC error is named from `errors`, the method's documented ones.
   */
  protected async request<Result>(
    method: string,
    params: object,
    options: CallOptions = {},
    errors?: DocumentedErrors,
  ): Promise<Result> {
    const id = this.#nextId++;
    const url = this.#urlOf(method);
    const answer = await this.#post(method, url, { jsonrpc: '2.0', id, method, params }, options);
    return this.#read<Result>(method, url, id, answer.status, answer.text, errors);
  }

  /**
   * Sends a notification: a request without an id, for a method without a result (JSON-RPC 2.0, section 4.1). It
   * settles once the server has taken it (any 2xx status, the body unread as the server owes none); it fails as a call
   * does when it cannot be delivered.
   */
  protected async notify(method: string, params: object, options: CallOptions = {}): Promise<void> {
    const url = this.#urlOf(method);
    const { status, text } = await this.#post(method, url, { jsonrpc: '2.0', method, params }, options);
    if (status < 200 || status > 299) throw new HttpStatusError(method, url, status, this.#excerpt(text));
  }

  /** POSTs one request object to `url` under the call's signal and timeout; the status and body that answer it. */
  async #post(
    method: string,
    url: string,
    request: object,
    options: CallOptions,
  ): Promise<{ status: number; text: string }> {
    const { signal } = options;
    signal?.throwIfAborted();
    const range = this.#nodeVersion === undefined ? undefined : this.#releases[method];
    if (range && !served(range, this.#nodeVersion!)) throw new NotServedError(method, url, this.#nodeVersion!, range);
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const body = JSON.stringify(request);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    // A custom fetch may ignore the signal; the call still ends when it fires.
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
    );
    aborted.catch(() => undefined);
    try {
      const fetch = this.#fetch;
      const send = async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...this.#headers },
          body,
          signal: controller.signal,
        });
        return { status: response.status, text: await response.text() };
      };
      try {
        return await Promise.race([send(), aborted]);
      } catch (error) {
        if (timedOut) throw new TimeoutError(method, url, timeoutMs);
        if (signal?.aborted) throw signal.reason;
        throw new NetworkError(method, url, error);
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #read<Result>(
    method: string,
    url: string,
    id: number,
    status: number,
    text: string,
    errors: DocumentedErrors | undefined,
  ): Result {
    if (status !== 200) throw new HttpStatusError(method, url, status, this.#excerpt(text));
    let response: unknown;
    try {
      response = JSON.parse(text);
    } catch {
      throw new InvalidResponseError(method, url, 'the body is not JSON', this.#excerpt(text));
    }
    if (!isObject(response) || (response as ResponseObject).jsonrpc !== '2.0')
      throw new InvalidResponseError(method, url, 'not a JSON-RPC 2.0 response object', this.#excerpt(text));
    return this.#result<Result>(method, url, id, response as ResponseObject, text, errors);
  }

  #result<Result>(
    method: string,
    url: string,
    id: number,
    response: ResponseObject,
    text: string,
    errors: DocumentedErrors | undefined,
  ): Result {
    const { error } = response;
    // An error the server could not tie to a request carries id null (JSON-RPC 2.0, section 5).
    if (isObject(error) && (response.id === id || response.id === null)) {
      const code = typeof error.code === 'number' ? error.code : NaN;
      throw new JsonRpcError(
        method,
        url,
        code,
        typeof error.message === 'string' ? error.message : JSON.stringify(error.message),
        error.data ?? null,
        errors,
      );
    }
    if (response.id !== id)
      throw new InvalidResponseError(
        method,
        url,
        `the response id ${JSON.stringify(response.id)} does not match the request id ${id}`,
        this.#excerpt(text),
      );
    if (!('result' in response))
      throw new InvalidResponseError(method, url, 'the response has neither result nor error', this.#excerpt(text));
    return response.result as Result;
  }
}

function served(range: MethodReleases[string], version: string): boolean {
  if (range.since && compare(version, range.since) < 0) return false;
  if (range.removedIn && compare(version, range.removedIn) >= 0) return false;
  return !(range.lastVersion && compare(version, range.lastVersion) > 0);
}
