/**
 * One JSON-RPC call, body bytes in, reply out, independent of the transport. Two profiles: `node` answers exactly as
 * AvalancheGo's RPC layer (gorilla/rpc json2 with the node's codec) does, `jsonrpc2` follows the JSON-RPC 2.0
 * specification (-32601, -32602, batches).
 */
import { goQuote, goStringify, joinParts } from './encode.ts';
import {
  type Shape,
  type ValidateFunction,
  type Violation,
  decodeParams,
  isDecodeFailure,
  onlyMissing,
  preferExact,
  violationsOf,
} from './params.ts';
import { type ServerRequest, readNodeRequest } from './request.ts';
import { answerStandard } from './standard.ts';

export type Profile = 'node' | 'jsonrpc2';

/** An error with a chosen JSON-RPC code; throw it from a handler. Any other Error is a handler error (-32000). */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.code = code;
    this.data = data;
    this.name = 'RpcError';
  }
}

/**
 * Another copy of this runtime (a handler library built against its source, a second install of the package) makes
 * RawJson answers too: they are told by this mark on the prototype, not by which copy's class made them, and no member
 * is private, so their types agree as well.
 */
const RAW_JSON = Symbol.for('avalanche-openrpc.RawJson');

/**
 * A result already written as JSON, answered as it is: a handler that gives the same answer again and again (a mock,
 * a cache) writes it once. Made by rawJson, which writes Go's encoding, so the bytes are the ones the node sends.
 */
export class RawJson<T = unknown> {
  /** The type of the value written, for type checks only: never set. */
  declare readonly type?: T;

  /** The JSON as text, when it was given so. */
  readonly text?: string | undefined;
  /** The JSON as UTF-8 bytes in pieces, when it was given so (RawJson.bytes). */
  readonly chunks?: readonly Uint8Array[] | undefined;
  private constructor(text: string | undefined, chunks?: readonly Uint8Array[] | undefined) {
    this.text = text;
    this.chunks = chunks;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RAW_JSON] === true;
  }

  /** The JSON text (decoded from the pieces when it was given as bytes). */
  get json(): string {
    if (this.text !== undefined) return this.text;
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    for (const chunk of this.chunks ?? []) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  static write<T>(value: T): RawJson<T> {
    return new RawJson<T>(goStringify(value));
  }

  /**
   * JSON the handler wrote itself, answered as it is: for what JSON.stringify cannot write, such as 64-bit integers
   * as bare numbers (Go's uint64). The text must be one valid, compact JSON value in Go's encoding.
   */
  static verbatim<T>(json: string): RawJson<T> {
    return new RawJson<T>(json);
  }

  /**
   * JSON the handler wrote itself as UTF-8 bytes, in pieces that follow one another (same rules as verbatim). The
   * node adapter copies them once, into the reply, and never makes a string of them: an answer of hundreds of
   * kilobytes built from parts the handler keeps (a page of encoded UTXOs) costs one copy instead of a
   * JSON.stringify, an escape pass and a UTF-8 encoding of the whole text.
   */
  static bytes<T>(chunks: readonly Uint8Array[]): RawJson<T> {
    return new RawJson<T>(undefined, chunks);
  }
}
Object.defineProperty(RawJson.prototype, RAW_JSON, { value: true });

export function rawJson<T>(value: T): RawJson<T> {
  return RawJson.write(value);
}

export interface MethodSpec {
  name: string;
  /** The key of the handler in the handlers object. */
  handler: string;
  /** Param names in order, for by-position calls in the jsonrpc2 profile. */
  params: string[];
  byName: boolean;
  shape: Shape;
  validateParams: ValidateFunction;
  validateResult: ValidateFunction;
  /** The result's JSON as goStringify writes it, or undefined where only goStringify can (compiled from the schema). */
  writeResult?: (value: unknown) => string | undefined;
}

export interface HandlerContext {
  /** The wire name of the method, e.g. `avm.getBalance`. */
  method: string;
  /** True when no answer will be sent (a request without `id`). */
  notification: boolean;
  /** Request headers by lower-case name (node:http's `req.headers`; repeated headers may be lists). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Aborted when the caller goes away (made on first use; absent where the transport has none). */
  readonly signal?: AbortSignal | undefined;
}

export type Handler = (params: never, context: HandlerContext) => unknown;

export interface DispatchOptions {
  profile: Profile;
  /** Check every result against the spec (for tests): a result that does not match answers -32603. */
  validateResults: boolean;
  /**
   * Node profile: the node's own error for params whose only faults are sizes or missing values, which the node's
   * handlers (not its decoder) reject. Return undefined for the decoder's "couldn't unmarshal an argument".
   */
  rejectParams?: (method: string, params: Record<string, unknown>, violations: Violation[]) => Error | undefined;
  /** Called with every error a handler throws that is not an RpcError (a bug). Errors it throws are ignored. */
  onError?: (error: unknown, method: string) => void;
  /**
   * Called for each call answered with an error before any handler ran (unknown method, params refused, a request
   * that is not one), with the method as sent (empty when none could be read) and the error's message. Errors it
   * throws are ignored.
   */
  onRefused?: (method: string, message: string) => void;
}

export interface Dispatcher {
  methods: Map<string, MethodSpec>;
  /** Node profile lookup by the Go method name the node's codec produces, e.g. `avm.GetBalance`. */
  goNames: Map<string, MethodSpec>;
  services: Set<string>;
  /** Method names already resolved by the node profile, with their outcome. */
  resolved: Map<string, MethodSpec | string>;
  /**
   * The last name resolved and its outcome, compared before the Map: a method read from a request is a new string,
   * which a lookup hashes whole.
   */
  lastMethod: string | undefined;
  lastOutcome: MethodSpec | string;
  handlers: Record<string, Handler>;
  options: DispatchOptions;
  /** The node's text for params that fail to decode (the spec's InvalidArgument error). */
  invalidArgument: string;
}

export interface RpcReply {
  status: number;
  /** Shared between replies: never changed once made. */
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array;
}

export interface CallInfo {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  signal?: AbortSignal | undefined;
  /**
   * Lends memory for a reply of `size` bytes, held until the reply is sent, where the transport can reuse it (the
   * node adapter, for large replies); undefined where it cannot.
   */
  replyBuffer?: ((size: number) => Uint8Array | undefined) | undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/**
 * The node profile's reply headers, by whether the handler ran (gorilla then has set nosniff) and whether a body is
 * sent: one object each, shared by every reply, so the HTTP adapter lays each pair out once (http.ts headerList).
 */
const RAN_JSON: Readonly<Record<string, string>> = { 'Content-Type': JSON_TYPE, 'X-Content-Type-Options': 'nosniff' };
const RAN_EMPTY: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };
const REFUSED_JSON: Readonly<Record<string, string>> = { 'Content-Type': JSON_TYPE };
const REFUSED_EMPTY: Readonly<Record<string, string>> = {};

export function goMethodName(name: string): string {
  const dot = name.indexOf('.');
  return `${name.slice(0, dot)}.${name[dot + 1]!.toUpperCase()}${name.slice(dot + 2)}`;
}

/** The reply; synchronous when the handler answered synchronously, so no promise is paid for when none is needed. */
export function dispatch(dispatcher: Dispatcher, body: Uint8Array, call: CallInfo): RpcReply | Promise<RpcReply> {
  return dispatcher.options.profile === 'node'
    ? answerNode(dispatcher, body, call)
    : answerStandard(dispatcher, body, call);
}

// A call a synchronous handler answers allocates no closure on this path: at tens of thousands of calls a second,
// each one shows.
function answerNode(dispatcher: Dispatcher, body: Uint8Array, call: CallInfo): RpcReply | Promise<RpcReply> {
  const request = readNodeRequest(body);
  if (request.typeError !== undefined)
    return refusal(dispatcher, request, -32700, request.typeError, requestData(request));
  if (request.version !== '2.0')
    return refusal(dispatcher, request, -32600, 'jsonrpc must be 2.0', requestData(request));

  const resolved = resolveNodeMethod(dispatcher, request.method);
  if (typeof resolved === 'string') return refusal(dispatcher, request, -32000, resolved);
  const params = decodeArgs(resolved, request.params);
  if (!params) return refusal(dispatcher, request, -32000, dispatcher.invalidArgument);
  if (!resolved.validateParams(params)) {
    const violations = violationsOf(resolved.validateParams);
    const rejection = isDecodeFailure(violations)
      ? undefined
      : dispatcher.options.rejectParams?.(resolved.name, params, violations);
    if (rejection) {
      // The node's handler ran and refused the params, so the answer carries the handler's headers.
      return errorOf(rejection, (code, message, data) => {
        notify(dispatcher.options.onRefused, request.method, message);
        return nodeFailure(request, true, code, message, [goStringify(data)]);
      });
    }
    // Go's decoder leaves a missing key at its zero value and the handler answers: a param the spec requires is the
    // caller's duty (the strict profiles refuse it), so only other failures are refused here.
    if (!onlyMissing(violations)) return refusal(dispatcher, request, -32000, dispatcher.invalidArgument);
  }
  const handed = request.exactParams
    ? preferExact(resolved.validateParams, params, decodeArgs(resolved, request.exactParams()))
    : params;
  const outcome = invoke(dispatcher, resolved, handed, call, request.id === undefined);
  return outcome instanceof Promise
    ? outcome.then((settled) => nodeOutcome(request, settled, call))
    : nodeOutcome(request, outcome, call);
}

/** The args struct Go's decoder fills from `given`, or undefined where it cannot (the node's invalid argument). */
function decodeArgs(method: MethodSpec, given: unknown): Record<string, unknown> | undefined {
  return decodeParams(given, method.shape);
}

/** An error answered before any handler ran. */
function refusal(
  dispatcher: Dispatcher,
  request: ServerRequest,
  code: number,
  message: string,
  data?: Array<string | Uint8Array>,
): RpcReply {
  notify(dispatcher.options.onRefused, request.method, message);
  return nodeFailure(request, false, code, message, data);
}

function nodeOutcome(request: ServerRequest, outcome: Outcome, call: CallInfo): RpcReply {
  if ('error' in outcome)
    return errorOf(outcome.error, (code, message, data) =>
      nodeFailure(request, true, code, message, [goStringify(data)]),
    );
  const id = request.id;
  if (id === undefined) return nodeReply(true, undefined);
  if (typeof id === 'string' && typeof outcome.json === 'string')
    return { status: 200, headers: RAN_JSON, body: `{"jsonrpc":"2.0","result":${outcome.json},"id":${id}}\n` };
  const json = outcome.json;
  if (typeof json !== 'string') {
    const parts = ['{"jsonrpc":"2.0","result":', ...json, ',"id":', id, '}\n'];
    return nodeReply(true, parts, (size) => call.replyBuffer?.(size));
  }
  return nodeReply(true, ['{"jsonrpc":"2.0","result":', json, ',"id":', id, '}\n']);
}

/** `ran`: the handler ran, so the reply carries the headers it sets; notifications get no body, except parse errors. */
function nodeReply(
  ran: boolean,
  parts: Array<string | Uint8Array> | undefined,
  allocate?: (size: number) => Uint8Array | undefined,
): RpcReply {
  if (!parts) return { status: 200, headers: ran ? RAN_EMPTY : REFUSED_EMPTY, body: '' };
  return { status: 200, headers: ran ? RAN_JSON : REFUSED_JSON, body: joinParts(parts, allocate) };
}

function nodeFailure(
  request: ServerRequest,
  ran: boolean,
  code: number,
  message: string,
  data: Array<string | Uint8Array> = ['null'],
): RpcReply {
  const id = request.id ?? 'null';
  return nodeReply(
    ran,
    request.id || code === -32700
      ? [
          '{"jsonrpc":"2.0","error":{"code":',
          String(code),
          ',"message":',
          goStringify(message),
          ',"data":',
          ...data,
          '},"id":',
          id,
          '}\n',
        ]
      : undefined,
  );
}

function requestData(request: ServerRequest): Array<string | Uint8Array> {
  const params = request.rawParams?.() ?? (request.params === undefined ? 'null' : goStringify(request.params));
  return [
    '{"jsonrpc":',
    goStringify(request.version),
    ',"method":',
    goStringify(request.method),
    ',"params":',
    params,
    ',"id":',
    request.id ?? 'null',
    '}',
  ];
}

/** The node's codec raises the initial of the part after the first dot; gorilla then looks up `service.Method`. */
function resolveNodeMethod(dispatcher: Dispatcher, method: string): MethodSpec | string {
  if (method === dispatcher.lastMethod) return dispatcher.lastOutcome;
  let outcome = dispatcher.resolved.get(method);
  if (outcome === undefined) {
    outcome = resolveUncached(dispatcher, method);
    // Callers use a handful of names; remembering them (boundedly) spares the Unicode work on every call.
    if (method.length > 128) return outcome;
    if (dispatcher.resolved.size >= 1024) dispatcher.resolved.clear();
    dispatcher.resolved.set(method, outcome);
  }
  dispatcher.lastMethod = method;
  dispatcher.lastOutcome = outcome;
  return outcome;
}

function resolveUncached(dispatcher: Dispatcher, method: string): MethodSpec | string {
  let goName = method;
  const dot = method.indexOf('.');
  if (dot >= 0) {
    const first = method.codePointAt(dot + 1);
    if (first !== undefined && first !== 0xfffd) {
      const initial = String.fromCodePoint(first);
      if (/\p{Lu}/u.test(initial)) return 'method must start with a non-uppercase letter';
      const raised = initial.toUpperCase();
      const head = [...raised].length === 1 ? raised : initial;
      goName = `${method.slice(0, dot + 1)}${head}${method.slice(dot + 1 + initial.length)}`;
    }
  }
  const parts = goName.split('.');
  if (parts.length !== 2) return `rpc: service/method request ill-formed: ${goQuote(goName)}`;
  if (!dispatcher.services.has(parts[0]!)) return `rpc: can't find service ${goQuote(goName)}`;
  return dispatcher.goNames.get(goName) ?? `rpc: can't find method ${goQuote(goName)}`;
}

/** A handler's result written as JSON: text, or UTF-8 pieces from RawJson.bytes; or what it threw. */
export type Outcome = { json: string | readonly Uint8Array[] } | { error: unknown };

/** The outcome's JSON as text. */
export function outcomeText(json: string | readonly Uint8Array[]): string {
  return typeof json === 'string' ? json : RawJson.bytes(json).json;
}

/** A handler's context; the abort signal is made only when read (see the HTTP adapter). */
class Context implements HandlerContext {
  readonly method: string;
  readonly notification: boolean;
  private readonly call: CallInfo;
  constructor(method: string, notification: boolean, call: CallInfo) {
    this.method = method;
    this.notification = notification;
    this.call = call;
  }

  get headers(): CallInfo['headers'] {
    return this.call.headers;
  }

  get signal(): AbortSignal | undefined {
    return this.call.signal;
  }
}

/** Runs a handler; its result is serialized here so a result that cannot be written is the handler's error. */
export function invoke(
  dispatcher: Dispatcher,
  spec: MethodSpec,
  params: Record<string, unknown>,
  call: CallInfo,
  notification: boolean,
): Outcome | Promise<Outcome> {
  let result: unknown;
  try {
    result = dispatcher.handlers[spec.handler]!.call(
      dispatcher.handlers,
      params as never,
      new Context(spec.name, notification, call),
    );
  } catch (error) {
    return failed(dispatcher, spec, error);
  }
  if (!isThenable(result)) return written(dispatcher, spec, result);
  return Promise.resolve(result).then(
    (value) => written(dispatcher, spec, value),
    (error: unknown) => failed(dispatcher, spec, error),
  );
}

function failed(dispatcher: Dispatcher, spec: MethodSpec, error: unknown): Outcome {
  if (!(error instanceof RpcError)) notify(dispatcher.options.onError, error, spec.name);
  return { error };
}

function written(dispatcher: Dispatcher, spec: MethodSpec, result: unknown): Outcome {
  try {
    const raw = result instanceof RawJson ? (result.chunks ?? result.json) : undefined;
    if (result === undefined) result = {};
    const json = raw ?? spec.writeResult?.(result) ?? goStringify(result);
    if (dispatcher.options.validateResults) {
      // What is checked is what the caller reads: the JSON written, which also holds a bigint's digits as a number.
      const value = JSON.parse(typeof json === 'string' ? json : outcomeText(json));
      if (!spec.validateResult(value)) {
        const violations = violationsOf(spec.validateResult);
        return {
          error: new RpcError(
            -32603,
            `result of ${spec.name} does not match its schema: ${violations.map((v) => v.message).join('; ')}`,
            violations,
          ),
        };
      }
    }
    return { json };
  } catch (error) {
    return failed(dispatcher, spec, error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Calls an observer's hook: one that throws is ignored, since the caller's answer must not depend on a log. */
export function notify<A extends unknown[]>(hook: ((...args: A) => void) | undefined, ...args: A): void {
  if (!hook) return;
  try {
    hook(...args);
  } catch {
    // Nothing to tell it to: the hook is where failures would be reported.
  }
}

export function errorOf<T>(error: unknown, answer: (code: number, message: string, data: unknown) => T): T {
  if (error instanceof RpcError) return answer(error.code, error.message, error.data);
  return answer(-32000, error instanceof Error ? error.message : String(error), null);
}
