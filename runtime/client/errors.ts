/**
 * How a call fails: one class per cause, all extending RpcError, each keeping what explains the failure. A package
 * may export RpcError under a name of its own (names.ts `clientErrorClassName`); the class is this one.
 */

/** Every failure of a call: the method and URL are always known. */
export class RpcError extends Error {
  /** The JSON-RPC method, as sent on the wire. */
  readonly method: string;
  /** The endpoint URL the call was sent to. */
  readonly url: string;

  constructor(message: string, method: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RpcError';
    this.method = method;
    this.url = url;
  }
}

/**
 * A method's documented errors by their spec names: the code and the server's message as a pattern (the parts that
 * vary between calls, such as IDs, names and numbers, are wildcards).
 */
export type DocumentedErrors = { readonly [name: string]: readonly [code: number, message: RegExp] };

/**
 * The server answered with a JSON-RPC error object. `message` is the server's own text; `documented` names the error
 * of the method's spec it is, so `error.is(name)`, with a name the spec gives the error, tells it from the others
 * without reading the text.
 */
export class JsonRpcError<Name extends string = string> extends RpcError {
  /** The JSON-RPC error code, e.g. -32602 for invalid params. */
  readonly code: number;
  /** The `data` member of the error object (null when the server sends none). */
  readonly data: unknown;
  /**
   * The spec's name of this error among the method's documented ones; undefined for an error the spec does not list.
   */
  readonly documented: Name | undefined;

  constructor(
    method: string,
    url: string,
    code: number,
    message: string,
    data: unknown,
    documented: DocumentedErrors = {},
  ) {
    super(message, method, url);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
    this.documented = Object.keys(documented).find(
      (name) => documented[name]![0] === code && documented[name]![1].test(message),
    ) as Name | undefined;
  }

  /** Whether this is the method's documented error of that name. */
  is(name: Name): boolean {
    return this.documented === name;
  }
}

/**
 * The endpoint answered with an HTTP status other than 200 (415 for a wrong Content-Type, 503 while bootstrapping,
 * ...).
 */
export class HttpStatusError extends RpcError {
  readonly status: number;
  /** The start of the response body, at most 200 characters. */
  readonly body: string;

  constructor(method: string, url: string, status: number, body: string) {
    super(`${method}: ${url} answered HTTP ${status}${body ? `: ${body}` : ''}`, method, url);
    this.name = 'HttpStatusError';
    this.status = status;
    this.body = body;
  }
}

/** The answer is not the JSON-RPC response to this call: not JSON, not a response object, or another call's id. */
export class InvalidResponseError extends RpcError {
  /** The start of the response body, at most 200 characters. */
  readonly body: string;

  constructor(method: string, url: string, problem: string, body: string) {
    super(`${method}: invalid response from ${url}: ${problem}${body ? `; body: ${body}` : ''}`, method, url);
    this.name = 'InvalidResponseError';
    this.body = body;
  }
}

/** No complete answer within the timeout. */
export class TimeoutError extends RpcError {
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number) {
    super(`${method}: no answer from ${url} within ${timeoutMs} ms`, method, url);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The client's `nodeVersion` does not serve the method: nothing was sent. `since` is the first release that serves it,
 * `removedIn` the first that no longer does (either may be absent).
 */
export class NotServedError extends RpcError {
  readonly nodeVersion: string;
  readonly since: string | undefined;
  readonly removedIn: string | undefined;

  constructor(
    method: string,
    url: string,
    nodeVersion: string,
    range: { since?: string; removedIn?: string; lastVersion?: string },
  ) {
    const why =
      range.since && compare(nodeVersion, range.since) < 0
        ? `added in ${range.since}`
        : range.removedIn
          ? `removed in ${range.removedIn}`
          : `last served by ${range.lastVersion}`;
    super(`${method}: not served by ${nodeVersion} (${why}); nothing was sent`, method, url);
    this.name = 'NotServedError';
    this.nodeVersion = nodeVersion;
    this.since = range.since;
    this.removedIn = range.removedIn;
  }
}

/** Orders release tags such as `v1.12.1`; a pre-release (`v1.15.0-fuji`) comes before its release. */
export function compare(a: string, b: string): number {
  const [coreA = '', preA] = a.replace(/^v/, '').split(/-(.*)/, 2);
  const [coreB = '', preB] = b.replace(/^v/, '').split(/-(.*)/, 2);
  const x = coreA.split('.').map(Number);
  const y = coreB.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

/**
 * The request did not reach the server or the answer was cut off (connection refused, DNS, TLS, reset); `cause` says
 * why.
 */
export class NetworkError extends RpcError {
  constructor(method: string, url: string, cause: unknown) {
    super(`${method}: request to ${url} failed: ${describe(cause)}`, method, url, { cause });
    this.name = 'NetworkError';
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as { cause?: unknown }).cause;
  return inner instanceof Error && inner.message ? `${cause.message} (${inner.message})` : cause.message;
}
