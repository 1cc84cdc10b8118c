/**
 * The Admin API's state (api/admin/service.go): chain aliases, which also add API routes (`/ext/bc/<alias>`), route
 * aliases (`admin.alias`), logger levels, the CPU profiler (one at a time), and `loadVMs` of a node whose plugin
 * directory holds nothing. The starting state is the one the spec's examples describe.
 */
import { posix } from 'node:path';
import type { AdminLogAndDisplayLevels as Levels, AdminLogLevel as Level } from '../generated/server/dist/index.js';
import { goQuote } from '../generated/server/dist/runtime/encode.js';
import { mockModel } from './spec.ts';
import { idError, parseID } from './world/reads.ts';

const { AdminAlias, AdminLogLevel } = mockModel().schemas;
/** The spec's `maxLength`, which the node counts in UTF-8 bytes. */
const MAX_ALIAS_BYTES = AdminAlias!.maxLength as number;
const LEVELS = AdminLogLevel!.enum as Level[];

/** The chains and their aliases: the world's, so that every endpoint resolves an alias the same way. */
export interface ChainAliases {
  /** The chain ID an alias (or ID) names. */
  chainID(alias: string): string | undefined;
  /** A chain's aliases in the order they were added (its own ID among them). */
  aliasesOf: { get(chainID: string): readonly string[] | undefined };
  addChainAlias(chainID: string, alias: string): void;
}

export interface AdminSetup {
  chains: ChainAliases;
  /** Logger levels at start, by logger name. */
  loggers: Record<string, Levels>;
  /** API routes under /ext that exist, e.g. `/ext/bc/X`, for `admin.alias` conflicts. */
  routes: string[];
}

/** Go's path.Join, as the node builds a chain alias's route: cleaned, no trailing slash, so alias "" is `/ext/bc`. */
const goPathJoin = (base: string, name: string) => posix.join(base, name).replace(/(.)\/+$/, '$1');

/** The one refusal of `admin.alias` and `admin.aliasChain` that depends on the alias alone. */
export function checkAlias(alias: string): void {
  if (Buffer.byteLength(alias) > MAX_ALIAS_BYTES) throw new Error('alias length is too long');
}

export class AdminState {
  readonly chains: ChainAliases;
  private readonly loggers: Map<string, Levels>;
  private profiling = false;
  private readonly reserved: Set<string>;
  /** `/ext/<alias>` -> `/ext/<endpoint>`, for the router. */
  readonly routeAliases = new Map<string, string>();

  constructor(setup: AdminSetup) {
    this.chains = setup.chains;
    this.loggers = new Map(Object.entries(setup.loggers).map(([name, levels]) => [name, { ...levels }]));
    this.reserved = new Set(setup.routes);
  }

  /** The chain ID an ID or alias names. */
  lookup(chain: string): string | undefined {
    return this.chains.chainID(chain);
  }

  private addRoute(base: string, alias: string): void {
    if (this.reserved.has(alias))
      throw new Error(`route is either already aliased or already maps to a handle: ${alias}`);
    this.reserved.add(alias);
    this.routeAliases.set(alias, base);
  }

  alias({ endpoint = '', alias = '' }: { endpoint?: string; alias?: string }): Record<string, never> {
    checkAlias(alias);
    this.addRoute(`/ext/${endpoint}`, `/ext/${alias}`);
    return {};
  }

  aliasChain({ chain = '', alias = '' }: { chain?: string; alias?: string }): Record<string, never> {
    checkAlias(alias);
    const target = this.lookup(chain);
    // The chain manager's ids.Aliaser words (ids/aliases.go:71 Lookup, :105 Alias; v1.11.0 on).
    if (!target) throw new Error(`there is no ID with alias: ${chain}`);
    if (this.lookup(alias)) throw new Error(`alias already mapped to an ID: ${alias}`);
    this.chains.addChainAlias(target, alias);
    this.addRoute(`/ext/bc/${target}`, goPathJoin('/ext/bc', alias));
    return {};
  }

  getChainAliases({ chain = '' }: { chain?: string }): { aliases: string[] | null } {
    // The node reads the chain with ids.FromString: no alias, and a string that is not a cb58 ID fails there.
    if (parseID(chain) === undefined) throw new Error(idError(chain));
    const aliases = this.chains.aliasesOf.get(chain);
    return { aliases: aliases ? [...aliases] : null };
  }

  private levelsOf(loggerName: string | undefined): Record<string, Levels> {
    if (loggerName) {
      const levels = this.loggers.get(loggerName);
      if (!levels) throw new Error(`logger with name ${goQuote(loggerName)} not found`);
      return { [loggerName]: { ...levels } };
    }
    return Object.fromEntries(
      [...this.loggers].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, levels]) => [name, { ...levels }]),
    );
  }

  getLoggerLevel({ loggerName }: { loggerName?: string }): {
    loggerLevels: Record<string, Levels>;
  } {
    return { loggerLevels: this.levelsOf(loggerName) };
  }

  setLoggerLevel({
    loggerName,
    logLevel,
    displayLevel,
  }: {
    loggerName?: string;
    logLevel?: string;
    displayLevel?: string;
  }) {
    if (logLevel === undefined && displayLevel === undefined)
      throw new Error('need to specify either displayLevel or logLevel');
    const affected = this.levelsOf(loggerName);
    for (const name of Object.keys(affected)) {
      const levels = this.loggers.get(name)!;
      if (logLevel !== undefined) levels.logLevel = parseLevel(logLevel);
      if (displayLevel !== undefined) levels.displayLevel = parseLevel(displayLevel);
    }
    return { loggerLevels: this.levelsOf(loggerName) };
  }

  startCPUProfiler(): Record<string, never> {
    if (this.profiling) throw new Error('cpu profiler already running');
    this.profiling = true;
    return {};
  }

  stopCPUProfiler(): Record<string, never> {
    if (!this.profiling) throw new Error("cpu profiler doesn't exist");
    this.profiling = false;
    return {};
  }

  /**
   * The mock runs no plugin VM: like a node with an empty plugin directory (the default one, which config/config.go
   * getPluginDir creates), every rescan finds nothing new and nothing failed. api/admin/service.go:326 writes `newVMs`
   * as the map ids.GetRelevantAliases makes, `{}`, and leaves the empty `failedVMs` out (`omitempty`).
   */
  loadVMs(): { newVMs: Record<string, string[]> } {
    return { newVMs: {} };
  }
}

function parseLevel(level: string): Level {
  const upper = LEVELS.find((known) => known === level.toUpperCase());
  if (!upper) throw new Error(`unknown log level: ${level}`);
  return upper;
}
