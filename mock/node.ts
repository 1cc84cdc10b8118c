/**
 * A mock AvalancheGo node: the six endpoints of the spec on the generated server stubs (node profile), at the
 * node's paths and aliases, with the node's HTTP behaviour around them: the Host check (403 for host names not
 * allowed), CORS for any origin, a `node-id` header on every answer, 404 for any other path.
 */
import type { RequestListener, Server } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import type { DevClient } from '../generated/client/dist/index.js';
import { type Endpoint, type Profile, createRouter } from '../generated/server/dist/index.js';
import { sendNode } from '../generated/server/dist/runtime/http.js';
import { type Answer, createMockEndpoint, handlersByWireName } from './handlers.ts';
import { inRange, newestSpecVersion, servedBy } from '../generators/model/versions.ts';
import { patternsOf } from '../generators/model/patterns.ts';
import { serveHttp } from './server.ts';
import { ENDPOINTS, type EndpointName, endpointModel, mockModel, validatorSteps } from './spec.ts';
import { MockState } from './state.ts';
import { atRelease, prepareRelease, zeroFilled } from './versions.ts';
import { type WorldOptions, buildWorld } from './world/genesis.ts';
import type { World } from './world/world.ts';
import { remembered } from './world/reads.ts';
import type { Mining } from './engine/engine.ts';
import { lazyEndpoint } from './lazy-cchain.ts';
import { serveDevMethods } from './cchain/dev-rpc.ts';
import { patternSteps, whenIdle } from './when-idle.ts';
import { containerSteps } from './world/indexer.ts';
import { fundedAccount, fundedKeys } from './engine/dev.ts';

export interface MockNodeOptions {
  /** Serve `/ext/admin` (the node's default is off; the mock's is on). */
  adminEnabled?: boolean;
  /** Serve the development controls `/ext/dev` (openrpc/dev.json; default on, `--no-dev` turns them off). */
  devControls?: boolean;
  /** Serve `/ext/keystore` where the node version has it (the node's default is off; the mock's is on). */
  keystoreEnabled?: boolean;
  /** Serve the indexes at `/ext/index/...` (`--index-enabled`; off by default, as on the node: then they are 404). */
  indexEnabled?: boolean;
  /**
   * Answer as this release did, e.g. `v1.12.1`: its methods, params, result fields, shapes and enum values. Default:
   * the newest release the spec describes (as conformance assumes); `all` serves every release's methods at once.
   */
  nodeVersion?: string;
  /** The simulated network: `network` (local, fuji, mainnet; default local), `accounts`, `seed`, `utxosPerAccount`. */
  world?: WorldOptions | World;
  /** Block building: automine (default), on an interval, or only when asked (`/ext/dev`). */
  mining?: Mining;
  /** Host names accepted in the Host header (IP addresses always are), like `--http-allowed-hosts`. `*` allows all. */
  allowedHosts?: string[];
  maxBodyBytes?: number;
  /** Check every answer against the spec (for tests). */
  validateResults?: boolean;
  profile?: Profile;
  /** Receives one line per call: method and outcome, never params. */
  log?: (line: string) => void;
}

export interface MockNode {
  /** The node as a node:http request listener: `http.createServer(node.listener)`. */
  listener: RequestListener;
  state: MockState;
  world: World;
  nodeID: string;
  /** Endpoint paths served, e.g. `/ext/bc/X`, each with the endpoint's name. */
  routes: Map<string, EndpointName>;
  /** What each method's first call would work out (its release's view, ./versions.ts), for the node to do while idle. */
  idleSteps: Array<() => unknown>;
}

/**
 * An endpoint's paths: the spec's path and aliases, and the chain's path by its blockchain ID on this network
 * (`/ext/bc/<ID>/wallet` for `/ext/bc/X/wallet`).
 */
function pathsOf(name: EndpointName, chainIDs: Record<string, string>): string[] {
  const { path, aliases } = ENDPOINTS[name];
  const chain = CHAINS[name];
  const prefix = `/ext/bc/${chain}`;
  const byID =
    chain && (path === prefix || path.startsWith(`${prefix}/`))
      ? [`/ext/bc/${chainIDs[chain]}${path.slice(prefix.length)}`]
      : [];
  // proposervm is served for the C-Chain too, at its ID as at its aliases.
  if (name === 'proposervm') byID.push(`/ext/bc/${chainIDs.C}/proposervm`);
  return [path, ...aliases, ...byID];
}

/**
 * The C-Chain's paths for `suffix` (`/rpc`, `/ws`): the node aliases the chain's whole route, so they are its avax
 * service's paths (the spec's path, aliases and the chain's ID) with the service's name replaced.
 */
function cChainPaths(suffix: string, chainIDs: Record<string, string>): Set<string> {
  return new Set(pathsOf('c-avax', chainIDs).map((path) => path.slice(0, path.lastIndexOf('/')) + suffix));
}

const CHAINS: Partial<Record<EndpointName, string>> = {
  'x-chain': 'X',
  'x-wallet': 'X',
  'p-chain': 'P',
  'avm-static': 'X',
  proposervm: 'P',
  'c-avax': 'C',
};

export function createMockNode(options: MockNodeOptions = {}): MockNode {
  const world = options.world && 'journal' in options.world ? options.world : buildWorld(options.world ?? {});
  const mockOnly = (name: EndpointName) => endpointModel(name).mockOnly;
  const enabled = (name: EndpointName) =>
    mockOnly(name)
      ? (options.devControls ?? true)
      : name === 'admin'
        ? (options.adminEnabled ?? true)
        : name === 'keystore'
          ? (options.keystoreEnabled ?? true)
          : name === 'indexer'
            ? (options.indexEnabled ?? false)
            : true;
  const nodeVersion =
    options.nodeVersion === 'all' ? undefined : (options.nodeVersion ?? newestSpecVersion(mockModel()));
  const served = new Map<EndpointName, string[]>();
  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
    const methods = endpointModel(name)
      .methods.filter((m) => servedBy(m, nodeVersion))
      .map((m) => m.name);
    if (enabled(name) && methods.length > 0) served.set(name, methods);
  }
  const routes = new Map<string, EndpointName>();
  for (const name of served.keys()) for (const path of pathsOf(name, world.chainIDs)) routes.set(path, name);
  const state = new MockState(world, [...routes.keys()], options.mining, nodeVersion);
  // anvil's and Hardhat's names for the dev controls at /ext/bc/C/rpc, served while /ext/dev is.
  if (served.has('dev')) serveDevMethods(world, state.dev);
  // Without a log the calls skip even building their lines: this is the path every call of a load test takes.
  const log = options.log;

  // One endpoint per path group: an index, or a chain's proposervm, answers for the path it is called at.
  const endpoints = new Map<string, Endpoint>();
  const scopes = new Map<string, string[]>();
  for (const [path, name] of routes) {
    const key = `${name} ${scopeOf(name, path, world) ?? ''}`;
    scopes.set(key, [...(scopes.get(key) ?? []), path]);
  }
  const idleSteps: Array<() => unknown> = [];
  for (const [key, paths] of scopes) {
    const name = key.slice(0, key.indexOf(' ')) as EndpointName;
    const methods = served.get(name)!;
    const model = endpointModel(name);
    const answers = handlersByWireName(state, name, scopeOf(name, paths[0]!, world));
    const table: Record<string, Answer> = {};
    // Params the release did not read: its decoder ignored them, whatever their value.
    const ignoredParams = new Map<string, string[]>();
    const decoded = new Map(model.methods.map((method) => [method.name, zeroFilled(method)]));
    for (const method of model.methods) {
      const ignored = nodeVersion
        ? method.params.filter((p) => !inRange(p.versions, nodeVersion)).map((p) => p.name)
        : [];
      if (ignored.length > 0) ignoredParams.set(method.name, ignored);
      const local = answers.get(method.name)?.handler ?? notSimulated(method.name);
      const handler = world.fork ? world.fork.answerFor(method.name, local) : local;
      const release = atRelease(mockModel(), method, nodeVersion, handler);
      if (nodeVersion) idleSteps.push(() => prepareRelease(mockModel(), method, nodeVersion));
      const fill = decoded.get(method.name)!;
      // Each layer is a call on every request: one that changes nothing is left out.
      const answer = method.params.some((p) => 'zeroWhenAbsent' in p)
        ? (params: Record<string, unknown>) => release(fill(params))
        : release;
      table[method.shortName] = log ? logged(method.name, answer, log) : answer;
    }
    const endpoint = createMockEndpoint(name, table, {
      profile: options.profile ?? 'node',
      methods,
      validateResults: options.validateResults ?? false,
      ignoredParams,
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      // The node's handlers, not its decoder, check sizes and presence: the method's check words the refusal.
      rejectParams: (method: string, params: Record<string, unknown>) => {
        try {
          answers.get(method)?.check?.(decoded.get(method)?.(params) ?? params);
        } catch (error) {
          return error as Error;
        }
        return undefined;
      },
      // A refused call's method is whatever the caller sent (and error messages quote it): cut short, with line
      // breaks escaped, it cannot forge log lines or flood the log.
      ...(log
        ? {
            onRefused: (method: string, message: string) =>
              log(`${method ? loggable(method, 128) : '(no method)'} error: ${loggable(message, 512)}`),
          }
        : {}),
    });
    for (const path of paths) endpoints.set(path, endpoint);
  }

  // The C-Chain's EVM API is no endpoint of the spec's: its calls pass to the EVM engine (./cchain/rpc.ts).
  const cRpc = lazyEndpoint('c-chain-rpc', () => state.cChain.load().then((c) => c.rpc));
  const cRpcPaths = cChainPaths('/rpc', world.chainIDs);
  // A path read from a request is a new string, which a lookup hashes whole: the last path found is compared first.
  // Only the fixed paths are remembered so; aliases (admin.alias) come and go.
  let lastPath: string | undefined;
  let lastEndpoint: Endpoint | undefined;
  const resolve = (path: string, hops = 0): Endpoint | undefined => {
    if (path === lastPath) return lastEndpoint;
    const endpoint = cRpcPaths.has(path) ? cRpc : endpoints.get(path);
    if (endpoint) {
      lastPath = path;
      lastEndpoint = endpoint;
      return endpoint;
    }
    if (hops > 8) return undefined;
    for (const [alias, base] of state.admin.routeAliases) {
      if (path === alias || path.startsWith(`${alias}/`)) return resolve(base + path.slice(alias.length), hops + 1);
    }
    return undefined;
  };
  const nodeID = state.nodeID;
  const router = createRouter(resolve, { headers: { 'node-id': nodeID }, cors: true });
  const allowed = new Set((options.allowedHosts ?? ['localhost']).map((h) => h.toLowerCase()));
  // Each Host header's verdict is remembered, the last one compared first, as the last path is.
  const hostAllowed = remembered((header) => {
    const host = hostName(header);
    return !host || isIP(host) !== 0 || allowed.has('*') || allowed.has(host.toLowerCase());
  });
  const forbidden = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
  const health = served.has('health') ? state.health : undefined;
  const listener: RequestListener = (req, res) => {
    if (!hostAllowed(req.headers.host ?? '')) {
      req.resume();
      sendNode(res, { status: 403, headers: forbidden, body: 'invalid host specified\n' });
      return;
    }
    // The node serves the health reports over plain GET beside the JSON-RPC endpoint, with the headers of every reply.
    const url = req.url ?? '/';
    // Every path of the health reports starts so: other calls skip their lookup.
    const get = health && url.startsWith('/ext/health') ? health.getReply(req.method ?? '', url) : undefined;
    if (!get) return router.node(req, res);
    req.resume();
    sendNode(res, get, { 'node-id': nodeID, ...(req.headers.origin ? CORS : {}) });
  };
  return { listener, state, world, nodeID, routes, idleSteps };
}

/**
 * Which part of the world an endpoint answers for at a path: the index (`P/block`, `X/tx`, ...) at `/ext/index/...`,
 * the chain (`P`, `C`) of a proposervm path. Other endpoints answer the same at every path.
 */
function scopeOf(name: EndpointName, path: string, world: World): string | undefined {
  if (name === 'indexer') return path.slice('/ext/index/'.length);
  if (name === 'proposervm') return world.chainID(path.split('/').at(-2) ?? '') === world.chainIDs.C ? 'C' : 'P';
  return undefined;
}

/** A method of the spec the mock has no handler for: it says so. */
function notSimulated(name: string): Answer {
  return () => {
    throw new Error(`the mock node does not simulate ${name}`);
  };
}

/** The handler with a log line per call. Every handler error passes here, so the runtime's onError is not used. */
function logged(name: string, answer: Answer, log: (line: string) => void): Answer {
  const ok = `${name} ok`;
  const failed = (error: unknown) => log(`${name} error: ${loggable((error as Error).message, 512)}`);
  return (params) => {
    try {
      const result = answer(params);
      // An answer the C-Chain's engine (or a forked node) gives later is logged when it settles.
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            log(ok);
            return value;
          },
          (error) => {
            failed(error);
            throw error;
          },
        );
      }
      log(ok);
      return result;
    } catch (error) {
      failed(error);
      throw error;
    }
  };
}

const CORS = { Vary: 'Origin', 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Credentials': 'true' };

const LINE_BREAKING = /[\x00-\x1f\x7f\u0085\u2028\u2029]/g;

/** Text from a caller as one bounded log line: control and line-separator characters escaped, the rest cut off. */
function loggable(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(LINE_BREAKING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The host of a Host header, without port or IPv6 brackets. */
function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(1, header.indexOf(']'));
  const colon = header.lastIndexOf(':');
  return colon >= 0 && header.indexOf(':') === colon ? header.slice(0, colon) : header;
}

export interface RunningMockNode extends MockNode {
  server: Server;
  url: string;
  /** The development controls over HTTP (`/ext/dev`); in process they are `state.dev`. */
  dev: DevClient;
  /** Settles once the node has made or loaded, while idle, what first calls would (./when-idle.ts), or has closed. */
  preloaded: Promise<void>;
  close(): Promise<void>;
}

/** Serves the mock on node:http (./server.ts), with the node's default timeouts and limits. */
export async function startMockNode(
  options: MockNodeOptions & { port?: number; host?: string } = {},
): Promise<RunningMockNode> {
  const node = createMockNode(options);
  const host = options.host ?? '127.0.0.1';
  // Made or loaded before a first call would, as its caller waited (./when-idle.ts). Slices, between requests from the
  // start: one validator first, which makes the shared Ajv (ajv's code cold, ~15 ms, which the process's first call
  // would make); the funded keys' addresses; the C-Chain's modules one at a time (20-40 ms of a first C-Chain call);
  // the other validators, 1-5 ms each; the indexes' newest containers; patterns and release views. Loads, once the
  // node idles: avalanchejs, EDR and its engine, libsecp256k1 (each 6-25 ms in one piece, which no slice can cut).
  const served = new Set(node.routes.values());
  const [makeAjv, ...validators] = [...served].flatMap(validatorSteps);
  const cChain = served.has('c-avax') ? node.state.cChain.idleSteps() : { slices: [], loads: [] };
  const preload = whenIdle(
    [
      ...(makeAjv ? [makeAjv] : []),
      // The funded keys' addresses (mock/engine/dev.ts fundedAccount), remembered once derived: a key a slice.
      ...(served.has('dev') ? fundedKeys(node.world).map((key) => () => fundedAccount(node.world, key)) : []),
      ...cChain.slices,
      ...validators,
      ...(served.has('indexer') ? containerSteps(node.world) : []),
      // A pattern a step: RE2JS compiling the few it cannot prove linear takes milliseconds each.
      ...patternSteps(
        [...served].flatMap((name) => patternsOf(mockModel(), endpointModel(name))),
        1,
      ),
      ...node.idleSteps,
    ],
    cChain.loads,
  );
  const { server, close } = await serveHttp(
    (req, res) => {
      preload.track(res);
      node.listener(req, res);
    },
    options.port ?? 9650,
    host,
  ).catch((error: unknown) => {
    // A node that could not listen loads nothing for later.
    preload.stop();
    throw error;
  });
  preload.listening();
  const closeWebSockets = serveWebSocketsOnUpgrade(server, node);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    ...node,
    server,
    url,
    dev: lazyDevClient(url),
    preloaded: preload.done,
    close: () => {
      preload.stop();
      node.state.engine.stop();
      closeWebSockets();
      return Promise.all([close(), node.state.cChain.stop()]).then(() => undefined);
    },
  };
}

/**
 * The C-Chain's WebSocket (./cchain/ws.ts), loaded with the C-Chain on the first upgrade request, which it then
 * answers as every later one.
 */
function serveWebSocketsOnUpgrade(server: Server, node: MockNode): () => void {
  let close: (() => void) | undefined;
  let closed = false;
  const first = (...args: unknown[]) => {
    server.off('upgrade', first);
    Promise.all([node.state.cChain.load(), import('./cchain/ws.ts')]).then(
      ([{ chain }, { serveCChainWebSocket }]) => {
        if (closed) return;
        close = serveCChainWebSocket(server, chain, cChainPaths('/ws', node.world.chainIDs));
        server.emit('upgrade', ...args);
      },
      () => (args[1] as { destroy(): void }).destroy(),
    );
  };
  server.on('upgrade', first);
  return () => {
    closed = true;
    close?.();
  };
}

/** The dev controls' client (the generated one), loaded on its first call. */
function lazyDevClient(url: string): DevClient {
  let client: Promise<DevClient> | undefined;
  const load = () =>
    (client ??= import('../generated/client/dist/index.js').then(({ DevClient }) => new DevClient({ baseUrl: url })));
  return new Proxy({} as DevClient, {
    get: (_, method: string) =>
      method === 'then'
        ? undefined
        : (...args: unknown[]) =>
            load().then((dev) => (dev[method as keyof DevClient] as (...a: unknown[]) => unknown).apply(dev, args)),
  });
}
