/** How a call fails: one class per cause, all extending AvalancheRpcError, each keeping what explains the failure. */

/** Every failure of a call: the method and URL are always known. */
export class AvalancheRpcError extends Error {
  /** The JSON-RPC method, e.g. `platform.getHeight`. */
  readonly method: string;
  /** The endpoint URL the call was sent to. */
  readonly url: string;

  constructor(message: string, method: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AvalancheRpcError';
    this.method = method;
    this.url = url;
  }
}

/** The node answered with a JSON-RPC error object. */
export class JsonRpcError extends AvalancheRpcError {
  /** The JSON-RPC error code, e.g. -32000 for every error of the node's handlers. */
  readonly code: number;
  /** The `data` member of the error object (null when the node sends none). */
  readonly data: unknown;

  constructor(method: string, url: string, code: number, message: string, data: unknown) {
    super(`${method} failed: ${message} (JSON-RPC error ${code})`, method, url);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }
}

/** The endpoint answered with an HTTP status other than 200 (415 for a wrong Content-Type, 503 while bootstrapping, ...). */
export class HttpStatusError extends AvalancheRpcError {
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
export class InvalidResponseError extends AvalancheRpcError {
  /** The start of the response body, at most 200 characters. */
  readonly body: string;

  constructor(method: string, url: string, problem: string, body: string) {
    super(`${method}: invalid response from ${url}: ${problem}${body ? `; body: ${body}` : ''}`, method, url);
    this.name = 'InvalidResponseError';
    this.body = body;
  }
}

/** No complete answer within the timeout. */
export class TimeoutError extends AvalancheRpcError {
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number) {
    super(`${method}: no answer from ${url} within ${timeoutMs} ms`, method, url);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The request did not reach the node or the answer was cut off (connection refused, DNS, TLS, reset); `cause` says why. */
export class NetworkError extends AvalancheRpcError {
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
