/**
 * The options of a mock node, one set for both ways of starting one: `startMockNode` (mock/package/index.ts) takes
 * them as they are, and the CLI (./cli-run.ts) turns its flags into them. Same names, same defaults, same checks; an
 * option nobody knows is refused by its name rather than ignored.
 */
import { VERSION_PATTERN } from '../generators/model/versions.ts';
import type { Mining } from './engine/engine.ts';
import { loadWorld, saveWorld } from './engine/state-file.ts';
import { type MockNodeOptions, type RunningMockNode, startMockNode } from './node.ts';
import type { NetworkName } from './world/networks.ts';
import type { WorldOptions } from './world/genesis.ts';
import { checkWorldOptions } from './world/world-options.ts';
import { type ForkOptions, type ResolvedFork, checkFork } from './fork/options.ts';

export interface StartOptions {
  /** `local` (default), `fuji` or `mainnet` (`--network`). */
  network?: NetworkName;
  /** Funded keys beyond the network's own, 2,500 AVAX each on X and P (`--accounts`; default 10). */
  accounts?: number;
  /** Seeds the funded keys (`--seed`; default `avalanche-mock`): the same seed, the same keys and world. */
  seed?: string;
  /** UTXOs each account's funds are split into, per chain (`--utxos-per-account`; default 1). */
  utxosPerAccount?: number;
  /** Answer as this release did, e.g. `v1.11.0`, or `all` (`--node-version`; default the newest the spec has). */
  nodeVersion?: string;
  /** Build a block from the pool every `blockTime` ms (`--block-time`; default automine). */
  blockTime?: number;
  /** `false`: blocks only on `dev.mine` (`--no-mining`); or a Mining mode as the engine takes it. Default automine. */
  mining?: boolean | Mining;
  /** Serve `/ext/dev` (default true; `--no-dev`). */
  devControls?: boolean;
  /** Serve `/ext/admin` (default true; `--api-admin-enabled`). */
  adminEnabled?: boolean;
  /** Serve `/ext/keystore` where the release has it (default true; `--api-keystore-enabled`). */
  keystoreEnabled?: boolean;
  /** Serve the indexes `/ext/index/...` (default false, as the node's `--index-enabled`). */
  indexEnabled?: boolean;
  /** Load the world saved in this file if it exists, save it there on close (`--state`). */
  state?: string;
  /**
   * Start from a live node's state (`--fork-url`, `--fork-height`, `--fork-cache-dir`, `--no-fork-cache`): its
   * network, tips, validators, subnets and fees at start, UTXOs as they are first used (mock/fork/).
   */
  fork?: ForkOptions;
  /** Port of `host` (`--port`): 0, a free one, is startMockNode's default; the CLI's is 9650. */
  port?: number;
  /** Address to listen on (`--host`; default 127.0.0.1). */
  host?: string;
  /** Host names accepted in the Host header (`--http-allowed-hosts`; default localhost; `*` for any). */
  allowedHosts?: string[];
  /** Largest request body in bytes (`--http-max-body-bytes`; default 16 MiB). */
  maxBodyBytes?: number;
  /** Receives one line per call: method and outcome, never params (the CLI prints them unless `--quiet`). */
  log?: (line: string) => void;
}

type Key = keyof StartOptions;
const KEYS: Record<Key, true> = {
  network: true,
  accounts: true,
  seed: true,
  utxosPerAccount: true,
  nodeVersion: true,
  blockTime: true,
  mining: true,
  devControls: true,
  adminEnabled: true,
  keystoreEnabled: true,
  indexEnabled: true,
  state: true,
  fork: true,
  port: true,
  host: true,
  allowedHosts: true,
  maxBodyBytes: true,
  log: true,
};
/** node:timers' longest interval: a longer one fires after 1 ms. */
const MAX_BLOCK_TIME = 0x7fff_ffff;

export interface StartedNode extends RunningMockNode {
  /** The world's options (a loaded state file's, or the ones given). */
  worldOptions: WorldOptions;
  /** Whether the world came from the `state` file. */
  loaded: boolean;
}

/** What `startWithOptions` starts: the node's options, checked, and the world's. */
export interface Resolved {
  serve: MockNodeOptions & { port: number; host: string };
  worldOptions: WorldOptions;
  network?: NetworkName;
  state?: string;
  fork?: ResolvedFork;
}

/**
 * `options` checked, every one, and completed with the defaults; `name` words an option as its caller knows it (the
 * CLI: its flag). Throws an Error naming the first option refused.
 */
export function resolveOptions(options: StartOptions, name: (key: Key) => string, defaultPort: number): Resolved {
  const given = options as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !Object.hasOwn(KEYS, key));
  if (unknown.length > 0)
    throw new Error(
      `unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${Object.keys(KEYS).join(', ')})`,
    );
  const fail = (key: Key, rule: string): never => {
    const value = given[key];
    throw new Error(`${name(key)} ${rule}, not ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  };
  const is = (key: Key, type: string) =>
    given[key] === undefined || typeof given[key] === type || fail(key, `must be a ${type}`);
  for (const key of ['devControls', 'adminEnabled', 'keystoreEnabled', 'indexEnabled'] as const) is(key, 'boolean');
  for (const key of ['state', 'host', 'nodeVersion'] as const) is(key, 'string');
  is('log', 'function');
  const { nodeVersion, blockTime, mining, port = defaultPort, maxBodyBytes, allowedHosts } = options;
  if (nodeVersion !== undefined && nodeVersion !== 'all' && !VERSION_PATTERN.test(nodeVersion))
    fail('nodeVersion', 'must look like v1.12.1 (or be all)');
  if (blockTime !== undefined && !(Number.isInteger(blockTime) && blockTime > 0 && blockTime <= MAX_BLOCK_TIME))
    fail('blockTime', `must be a whole number of milliseconds from 1 to ${MAX_BLOCK_TIME}`);
  if (mining !== undefined && typeof mining !== 'boolean' && !isMining(mining))
    fail('mining', "must be true, false or { mode: 'auto' | 'manual' | 'interval', blockTimeMs }");
  if (blockTime !== undefined && mining !== undefined && mining !== true)
    throw new Error(`${name('blockTime')} and ${name('mining')} exclude each other`);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) fail('port', 'must be a port number');
  if (maxBodyBytes !== undefined && !(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0))
    fail('maxBodyBytes', 'must be a positive integer');
  if (allowedHosts !== undefined && !(Array.isArray(allowedHosts) && allowedHosts.every((h) => typeof h === 'string')))
    fail('allowedHosts', 'must be a list of host names');
  const fork =
    options.fork === undefined
      ? undefined
      : checkFork(options.fork, (key) => {
          const base = name('fork');
          if (key === 'fork') return base;
          return base.startsWith('--')
            ? `--fork-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
            : `${base}.${key}`;
        });
  if (fork && options.state !== undefined)
    throw new Error(`${name('fork')} and ${name('state')} exclude each other: a forked world is not saved`);
  const worldOptions = checkWorldOptions(
    {
      network: options.network ?? 'local',
      accounts: options.accounts ?? 10,
      utxosPerAccount: options.utxosPerAccount ?? 1,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    (key) => name(key as Key),
  );
  const serve: Resolved['serve'] = {
    port,
    host: options.host ?? '127.0.0.1',
    mining: blockTime
      ? { mode: 'interval', blockTimeMs: blockTime }
      : mining === false
        ? { mode: 'manual' }
        : typeof mining === 'object'
          ? mining
          : { mode: 'auto' },
    ...(options.devControls === undefined ? {} : { devControls: options.devControls }),
    ...(options.adminEnabled === undefined ? {} : { adminEnabled: options.adminEnabled }),
    ...(options.keystoreEnabled === undefined ? {} : { keystoreEnabled: options.keystoreEnabled }),
    ...(options.indexEnabled === undefined ? {} : { indexEnabled: options.indexEnabled }),
    ...(nodeVersion === undefined ? {} : { nodeVersion }),
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
    ...(options.log ? { log: options.log } : {}),
  };
  return {
    serve,
    worldOptions,
    ...(options.network ? { network: options.network } : {}),
    ...(options.state ? { state: options.state } : {}),
    ...(fork ? { fork } : {}),
  };
}

/** Starts a node as resolved, on the world in its `state` file if there is one; close() saves the world there. */
export async function startWithOptions(resolved: Resolved): Promise<StartedNode> {
  const { state, network, fork } = resolved;
  if (fork) return startForked(resolved, fork);
  const loaded = state ? loadWorld(state) : undefined;
  if (loaded && network !== undefined && loaded.options.network !== network)
    throw new Error(`${state} holds a ${loaded.options.network} world, not ${network}`);
  const node = await startMockNode({ ...resolved.serve, world: loaded?.world ?? resolved.worldOptions });
  const worldOptions = loaded?.options ?? resolved.worldOptions;
  return {
    ...node,
    worldOptions,
    loaded: loaded !== undefined,
    close: async () => {
      await node.close();
      // The C-Chain's part is in the world (its blocks and edits), which a load replays into a fresh EVM.
      if (state) saveWorld(node.world, worldOptions, state);
    },
  };
}

/** A node on a world forked from a live node (never saved: `state` is refused with `fork`). */
async function startForked(resolved: Resolved, fork: ResolvedFork): Promise<StartedNode> {
  // The fork's modules are loaded only for a fork.
  const { forkWorld } = await import('./fork/start.ts');
  const world = await forkWorld(fork, resolved.worldOptions);
  if (resolved.network !== undefined && resolved.network !== world.network.name)
    throw new Error(`${fork.url} serves ${world.network.name}, not ${resolved.network}`);
  const node = await startMockNode({ ...resolved.serve, world });
  return { ...node, worldOptions: { ...resolved.worldOptions, network: world.network.name }, loaded: false };
}

function isMining(value: unknown): value is Mining {
  const m = value as { mode?: unknown; blockTimeMs?: unknown };
  if (!m || typeof m !== 'object') return false;
  if (m.mode === 'auto' || m.mode === 'manual') return true;
  const ms = m.blockTimeMs;
  return m.mode === 'interval' && Number.isInteger(ms) && (ms as number) > 0 && (ms as number) <= MAX_BLOCK_TIME;
}
