/**
 * An endpoint puts handlers behind the RPC layer: validators compiled at generation, the profile chosen once, and
 * `rpc.discover` answering the endpoint's bundled OpenRPC document. A router serves several endpoints on one server,
 * 404 for any other path, like the node's HTTP mux.
 */
import {
  type Answer,
  DEFAULT_MAX_BODY_BYTES,
  type NodeListener,
  type NodeRequest,
  type NodeResponse,
  fetchAdapter,
  firstHeader,
  nodeAdapter,
  sendNode,
  textReply,
  toResponse,
} from './http.ts';
import type { Shape, Violation } from './params.ts';
import {
  type DispatchOptions,
  type Dispatcher,
  type Handler,
  type MethodSpec,
  type Profile,
  type RpcReply,
  dispatch,
  goMethodName,
} from './rpc.ts';

export interface EndpointOptions {
  /** `node` (default): answer exactly as AvalancheGo does. `jsonrpc2`: plain JSON-RPC 2.0. */
  profile?: Profile | undefined;
  /** Check every result against the spec; a mismatch answers -32603. Meant for tests. Default false. */
  validateResults?: boolean | undefined;
  /** Largest request body accepted; larger ones get HTTP 413. Default 16 MiB. */
  maxBodyBytes?: number | undefined;
  /** Serve only these methods (wire names); the others answer as methods the node does not have. Default: all. */
  methods?: readonly string[] | undefined;
  /** Answer `rpc.discover` with the endpoint's OpenRPC document. Default true. */
  discover?: boolean | undefined;
  rejectParams?:
    | ((method: string, params: Record<string, unknown>, violations: Violation[]) => Error | undefined)
    | undefined;
  /** Node profile: params (by method) this node does not read; dropped before decoding, as Go ignores unknown keys. */
  ignoredParams?: ReadonlyMap<string, readonly string[]> | undefined;
  onError?: ((error: unknown, method: string) => void) | undefined;
  /** Sees each call answered with an error before any handler ran: the method as sent and the error's message. */
  onRefused?: ((method: string, message: string) => void) | undefined;
}

/** An OpenRPC document, as `rpc.discover` returns it. */
export type OpenrpcDocument = { readonly [key: string]: unknown };

export interface EndpointDefinition {
  /** The endpoint's name, e.g. `x-chain`. */
  name: string;
  methods: readonly MethodSpec[];
  document: OpenrpcDocument;
  /** The node's text for params that fail to decode (the spec's InvalidArgument error). */
  invalidArgument: string;
}

/** One endpoint of a generated package, as its `ENDPOINTS` table lists it. */
export interface EndpointEntry<Handlers> {
  create: (handlers: Handlers, options?: EndpointOptions) => Endpoint;
  methods: readonly MethodSpec[];
  document: OpenrpcDocument;
  /** The endpoint's path with its variables at their defaults, e.g. `/ext/bc/X`. */
  path: string;
  /** Other fixed paths the node serves it at (the spec's `x-aliases`), e.g. `/ext/X`. */
  aliases: readonly string[];
}

export interface Endpoint {
  readonly name: string;
  readonly profile: Profile;
  /** A node:http request listener: `http.createServer(endpoint.node)`. */
  readonly node: NodeListener;
  /** A fetch-style handler for runtimes built on Request and Response. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** The RPC layer without HTTP: one request body in, one reply out. */
  readonly answer: Answer;
  /** Largest request body accepted. */
  readonly maxBodyBytes: number;
}

const acceptAll = Object.assign(() => true, { errors: null });

export function createEndpoint(
  definition: EndpointDefinition,
  handlers: object,
  options: EndpointOptions = {},
): Endpoint {
  const dispatchOptions: DispatchOptions = {
    profile: options.profile ?? 'node',
    validateResults: options.validateResults ?? false,
    ...(options.rejectParams ? { rejectParams: options.rejectParams } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
  };
  const table = handlers as Record<string, Handler>;
  const served = options.methods ? new Set(options.methods) : undefined;
  const dispatcher: Dispatcher = {
    methods: new Map(),
    goNames: new Map(),
    services: new Set(),
    resolved: new Map(),
    lastMethod: undefined,
    lastOutcome: '',
    handlers: { ...table },
    options: dispatchOptions,
    invalidArgument: definition.invalidArgument,
  };
  const specs = [...definition.methods];
  if (options.discover ?? true) {
    const document = definition.document;
    dispatcher.handlers['rpc.discover'] = () => document;
    specs.push({
      name: 'rpc.discover',
      handler: 'rpc.discover',
      params: [],
      // No params, in either form: OpenRPC's clients send [] (service discovery), others {} or none.
      byName: false,
      shape: { properties: {} },
      validateParams: acceptAll,
      validateResult: acceptAll,
    });
  }
  for (const declared of specs) {
    // A service the node registers exists even when none of its methods is served here.
    dispatcher.services.add(declared.name.slice(0, declared.name.indexOf('.')));
    if (served && !served.has(declared.name) && declared.name !== 'rpc.discover') continue;
    if (typeof dispatcher.handlers[declared.handler] !== 'function') continue;
    const ignored = options.ignoredParams?.get(declared.name);
    const spec = ignored ? { ...declared, shape: withoutParams(declared.shape, ignored) } : declared;
    dispatcher.methods.set(spec.name, spec);
    dispatcher.goNames.set(goMethodName(spec.name), spec);
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const answer: Answer = (body, call) => dispatch(dispatcher, body, call);
  return {
    name: definition.name,
    profile: dispatchOptions.profile,
    node: nodeAdapter(answer, maxBodyBytes),
    fetch: fetchAdapter(answer, maxBodyBytes),
    answer,
    maxBodyBytes,
  };
}

/**
 * The shape without the params this node does not read: unknown to its args struct, they are skipped unread as Go
 * skips unknown keys, so no value of theirs is refused.
 */
function withoutParams(shape: Shape, ignored: readonly string[]): Shape {
  const properties = Object.fromEntries(
    Object.entries(shape.properties ?? {}).filter(([, property]) => !ignored.includes(property.name)),
  );
  return { ...shape, properties };
}

export interface RouterOptions {
  /** Headers added to every response, e.g. the node's `node-id`. */
  headers?: Record<string, string> | undefined;
  /** Answer CORS requests from any origin, as the node does by default (`--http-allowed-origins=*`). */
  cors?: boolean | undefined;
}

const CORS: Record<string, string> = {
  Vary: 'Origin',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Credentials': 'true',
};

export interface Router {
  readonly node: NodeListener;
  readonly fetch: (request: Request) => Promise<Response>;
}

/** Routes by exact path (query ignored) to an endpoint; any other path is 404, as the node's mux answers it. */
export function createRouter(
  routes: Record<string, Endpoint> | ((path: string) => Endpoint | undefined),
  options: RouterOptions = {},
): Router {
  const table = typeof routes === 'function' ? undefined : new Map(Object.entries(routes));
  const resolve = typeof routes === 'function' ? routes : (path: string) => table!.get(path);
  const pathOf = (url: string) => {
    if (url.charCodeAt(0) === 0x2f && url.indexOf('?') < 0) return url;
    const start = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    return url.slice(start, query < 0 ? undefined : query);
  };
  const fixed: Record<string, string> | undefined =
    options.headers && Object.keys(options.headers).length > 0 ? { ...options.headers } : undefined;
  const withCors: Record<string, string> = { ...fixed, ...CORS };
  const extra = (origin: string | undefined): Record<string, string> | undefined =>
    options.cors && origin ? withCors : fixed;
  const notFound = (): RpcReply => textReply(404, '404 page not found\n', { 'X-Content-Type-Options': 'nosniff' });
  type Preflight = [string | undefined, string | string[] | undefined] | undefined;
  /**
   * Where a request goes: an endpoint, or undefined for a reply of the router's own (ownReply). `preflight` holds the
   * Access-Control-Request-Method and -Headers of an OPTIONS request with an origin.
   */
  const route = (url: string, preflight: Preflight) => (preflight?.[0] ? undefined : resolve(pathOf(url)));
  const ownReply = (preflight: Preflight) => (preflight?.[0] ? preflightReply(preflight[0], preflight[1]) : notFound());
  const preflightOf = (method: string | undefined, origin: string | undefined, headers: NodeRequest['headers']) =>
    origin && method === 'OPTIONS'
      ? ([firstHeader(headers['access-control-request-method']), headers['access-control-request-headers']] as [
          string | undefined,
          string | string[] | undefined,
        ])
      : undefined;
  // The router's headers travel with the reply into one writeHead: headers set ahead of it take node:http's slow path.
  const node: NodeListener = (req, res) => {
    const origin = options.cors ? firstHeader(req.headers.origin) : undefined;
    const headers = extra(origin);
    const preflight = preflightOf(req.method, origin, req.headers);
    const endpoint = route(req.url ?? '/', preflight);
    if (!endpoint) {
      req.resume();
      return sendNode(res, ownReply(preflight), headers);
    }
    if (endpoint.node.length >= 3 || !headers) return endpoint.node(req, res, headers);
    for (const name in headers) res.setHeader(name, headers[name]!);
    endpoint.node(req, res);
  };
  const fetch = async (request: Request): Promise<Response> => {
    const origin = options.cors ? (request.headers.get('origin') ?? undefined) : undefined;
    const preflight: [string | undefined, string | undefined] | undefined =
      origin && request.method === 'OPTIONS'
        ? [
            request.headers.get('access-control-request-method') ?? undefined,
            request.headers.get('access-control-request-headers') ?? undefined,
          ]
        : undefined;
    const endpoint = route(request.url, preflight);
    const response = endpoint ? await endpoint.fetch(request) : toResponse(ownReply(preflight));
    for (const [name, value] of Object.entries(extra(origin) ?? {}))
      if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  };
  return { node, fetch };
}

/** rs/cors's answer to a preflight: the requested method when it is a simple one, and the requested headers. */
function preflightReply(method: string, headers: string | string[] | undefined): RpcReply {
  const allowed = ['GET', 'POST', 'HEAD'].includes(method.toUpperCase());
  const requested = Array.isArray(headers) ? headers.join(', ') : headers;
  return {
    status: 204,
    headers: {
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      ...(allowed ? { 'Access-Control-Allow-Methods': method.toUpperCase() } : {}),
      ...(allowed && requested ? { 'Access-Control-Allow-Headers': requested } : {}),
    },
    body: '',
  };
}

export type { NodeRequest, NodeResponse };
