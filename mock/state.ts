/**
 * The mock node's handlers: the X- and P-Chain's reads and the node's Info and Health answers from the simulated
 * network (./world), the keystore, admin state (chain aliases are the world's; route aliases, logger levels, the CPU
 * profiler, the VM registry). Nothing is answered from the examples or the schemas: a method without a handler
 * says so in its error.
 */
import type { EndpointModel } from '../generators/model/types.ts';
import type { MethodSpec } from '../generated/server/dist/index.js';
import { indexMethods } from '../generators/model/build.ts';
import { type AdminSetup, AdminState, checkAlias } from './admin.ts';
import { HealthState } from './health.ts';
import { dbGet, nodeConfig } from './admin-node.ts';
import { allValidatorsAt } from './world/warp-sets.ts';
import { mockModel } from './spec.ts';
import { Keystore, decodeBytes } from './keystore.ts';
import { NETWORKS } from './world/networks.ts';
import type { Read } from './world/reads.ts';
import { infoReads } from './world/reads-info.ts';
import { nodeIdentity } from './world/node-identity.ts';
import { healthReport } from './world/health-checks.ts';
import { nodeReads } from './world/reads-node.ts';
import { DevControls } from './engine/dev.ts';
import { pChainReads } from './world/reads-p.ts';
import { staticReads } from './world/reads-static.ts';
import { xChainReads } from './world/reads-x.ts';
import { indexReads, proposervmReads } from './world/reads-index.ts';
import type { IndexName } from './world/indexer.ts';
import type { World } from './world/world.ts';
import { Engine, type Mining } from './engine/engine.ts';
import { issueHandlers } from './engine/handlers.ts';
import { CChain } from './cchain/evm.ts';
import { AtomicApi } from './cchain/avax.ts';

/** The local network's X- and P-Chain, the default network's. */
export const X_CHAIN_ID = NETWORKS.local.xChainID;
export const P_CHAIN_ID = NETWORKS.local.pChainID;

export type Params = Record<string, unknown>;
export type MockHandler = (params: Params) => unknown;
export interface MockMethod {
  answer: MockHandler;
  check?: MockHandler;
}

/** The spec's methods by name, indexed once per process: every node's state reads a few examples at start. */
let methodIndex: ReturnType<typeof indexMethods> | undefined;
const examplesOf = (name: string) => (methodIndex ??= indexMethods(mockModel())).get(name)?.method.examples ?? [];

/** The loggers of the chains and `main` at the node's default level, with the levels `admin.getLoggerLevel` shows. */
function startingLoggers(): AdminSetup['loggers'] {
  const loggers: AdminSetup['loggers'] = { main: { logLevel: 'INFO', displayLevel: 'INFO' } };
  for (const chain of ['C', 'P', 'X']) loggers[chain] = { logLevel: 'INFO', displayLevel: 'INFO' };
  for (const { result } of examplesOf('admin.getLoggerLevel'))
    Object.assign(loggers, (result as { loggerLevels: AdminSetup['loggers'] }).loggerLevels);
  return loggers;
}

/** The first example's result of a method: how a fresh node answers a call without params. */
const firstResult = <T>(name: string): T => {
  const example = examplesOf(name)[0];
  if (!example) throw new Error(`${name} has no example to start the mock from`);
  return example.result as T;
};

export class MockState {
  readonly keystore: Keystore;
  readonly admin: AdminState;
  readonly health: HealthState;
  /** The node (the network's first genesis staker, ./world/node-identity.ts), which every reply's `node-id` names. */
  readonly nodeID: string;
  readonly engine: Engine;
  /** The C-Chain's EVM (./cchain/evm.ts), created on its first call. */
  readonly cchain: CChain;
  /** The C-Chain's atomic API, `/ext/bc/C/avax` (./cchain/avax.ts). */
  readonly atomic: AtomicApi;
  /** The development controls `/ext/dev` serves (when on) and `startMockNode` hands to test suites. */
  readonly dev: DevControls;
  private readonly reads: Partial<Record<string, Record<string, Read>>>;

  readonly world: World;
  /**
   * The release the mock stands for (`--node-version`), which `info.getNodeVersion` reports; the spec's newest when
   * absent.
   */
  private readonly nodeVersion?: string;
  private readonly routes: string[];
  constructor(world: World, routes: string[], mining: Mining = { mode: 'auto' }, nodeVersion?: string) {
    this.world = world;
    this.routes = routes;
    this.nodeVersion = nodeVersion;
    this.engine = new Engine(world, mining, nodeVersion);
    this.cchain = new CChain(world);
    this.atomic = new AtomicApi(world, this.cchain, nodeVersion);
    this.dev = new DevControls(world, this.engine, this.cchain);
    this.reads = {
      'x-chain': xChainReads(world),
      'p-chain': { ...pChainReads(world), getAllValidatorsAt: (p) => allValidatorsAt(world, p) },
      'avm-static': staticReads(),
      info: { ...infoReads(world), ...nodeReads(world, () => this.version().version) },
    };
    this.nodeID = nodeIdentity(world).nodeID;
    const imports = examplesOf('keystore.importUser');
    this.keystore = new Keystore(
      imports.map((example) => ({
        record: decodeBytes(String(example.params.user), String(example.params.encoding ?? 'hex').toLowerCase()),
        password: String(example.params.password),
      })),
    );
    const firstLoad = examplesOf('admin.loadVMs')[0]?.result as AdminSetup['firstLoad'] | undefined;
    this.admin = new AdminState({
      chains: world,
      loggers: startingLoggers(),
      firstLoad: firstLoad ?? { newVMs: {} },
      routes,
    });
    this.health = new HealthState(
      (kind) => healthReport(world, kind, this.version().version),
      (name) => this.admin.lookup(name) !== undefined,
    );
  }

  /** `info.getBlockchainID`: the chain an alias names, as the node's chain manager resolves it. */
  private blockchainID({ alias = '' }: Params): { blockchainID: string } {
    const chainID = this.admin.lookup(String(alias));
    if (!chainID) throw new Error(`there is no ID with alias: ${String(alias)}`);
    return { blockchainID: chainID };
  }

  private isBootstrapped({ chain = '' }: Params): { isBootstrapped: boolean } {
    if (chain === '') throw new Error("argument 'chain' not given");
    if (!this.admin.lookup(String(chain))) throw new Error(`there is no chain with alias/ID '${String(chain)}'`);
    return { isBootstrapped: true };
  }

  /** `info.getNodeVersion` of the release the mock serves, so a client (or `npm run conform`) expects what it gets. */
  private version(): { version: string; vmVersions: Record<string, string> } {
    const example = firstResult<{ version: string; vmVersions: Record<string, string> }>('info.getNodeVersion');
    if (!this.nodeVersion) return example;
    const built = example.version.replace(/\/.*/, `/${this.nodeVersion.slice(1)}`);
    const vmVersions = Object.fromEntries(
      Object.entries(example.vmVersions).map(([vm, v]) => [
        vm,
        v === `v${example.version.split('/')[1]}` ? this.nodeVersion! : v,
      ]),
    );
    return { ...example, version: built, vmVersions };
  }

  /** The reads of an endpoint; of an index or a chain's proposervm, those of the one `scope` names (`P/block`, `C`). */
  private readsAt(name: string, scope: string | undefined): Record<string, Read> | undefined {
    if (name === 'indexer') return indexReads(this.world, scope as IndexName);
    if (name === 'proposervm') return proposervmReads(this.world, scope === 'C' ? 'C' : 'P');
    return this.reads[name];
  }

  /**
   * Every method of the endpoint by wire name: its handler, and for a method whose refusals the node words itself, a
   * check that throws the handler's error for params that break the schema without changing anything.
   */
  handlers(endpoint: EndpointModel, specs: readonly MethodSpec[], scope?: string): Map<string, MockMethod> {
    const alias: MockHandler = (p) => checkAlias(String(p.alias ?? ''));
    const stateful: Record<string, MockMethod> = {
      'keystore.createUser': { answer: (p) => this.keystore.createUser(p), check: (p) => this.keystore.checkCreate(p) },
      'keystore.deleteUser': { answer: (p) => this.keystore.deleteUser(p), check: (p) => this.keystore.checkDelete(p) },
      'keystore.exportUser': { answer: (p) => this.keystore.exportUser(p), check: (p) => this.keystore.exportUser(p) },
      'keystore.importUser': { answer: (p) => this.keystore.importUser(p), check: (p) => this.keystore.checkImport(p) },
      'keystore.listUsers': { answer: () => this.keystore.listUsers() },
      'admin.alias': { answer: (p) => this.admin.alias(p), check: alias },
      'admin.aliasChain': { answer: (p) => this.admin.aliasChain(p), check: alias },
      'admin.getChainAliases': { answer: (p) => this.admin.getChainAliases(p) },
      'admin.getLoggerLevel': { answer: (p) => this.admin.getLoggerLevel(p) },
      'admin.setLoggerLevel': { answer: (p) => this.admin.setLoggerLevel(p) },
      'admin.startCPUProfiler': { answer: () => this.admin.startCPUProfiler() },
      'admin.stopCPUProfiler': { answer: () => this.admin.stopCPUProfiler() },
      'admin.loadVMs': { answer: () => this.admin.loadVMs() },
      'admin.getConfig': { answer: () => nodeConfig(this.world, this.routes) },
      'admin.dbGet': { answer: dbGet, check: dbGet },
      // The node writes the goroutines' stacks to a file and answers nothing more.
      'admin.stacktrace': { answer: () => ({}) },
      // The node writes the profile to a file and answers nothing more.
      'admin.lockProfile': { answer: () => ({}) },
      'admin.memoryProfile': { answer: () => ({}) },
      'info.getNetworkID': { answer: () => ({ networkID: String(this.world.network.networkID) }) },
      'info.getNetworkName': { answer: () => ({ networkName: this.world.network.networkName }) },
      // Only an absent (or null) param passes the node's decoder and reaches the handler's refusal; a wrong type does
      // not.
      'info.getBlockchainID': { answer: (p) => this.blockchainID(p), check: (p) => p.alias ?? this.blockchainID({}) },
      'info.isBootstrapped': {
        answer: (p) => this.isBootstrapped(p),
        check: (p) => p.chain ?? this.isBootstrapped({}),
      },
      'info.getNodeVersion': { answer: () => this.version() },
      'health.health': { answer: (p) => this.health.report('health', tagsOf(p)) },
      'health.readiness': { answer: (p) => this.health.report('readiness', tagsOf(p)) },
      'health.liveness': { answer: (p) => this.health.report('liveness', tagsOf(p)) },
      ...devHandlers(this.dev),
      ...issueHandlers(this.engine),
      ...this.atomic.handlers(),
    };
    const reads = this.readsAt(endpoint.name, scope);
    const out = new Map<string, MockMethod>();
    for (const method of endpoint.methods) {
      const spec = specs.find((s) => s.name === method.name);
      if (!spec) throw new Error(`the generated server has no method ${method.name}`);
      const read = reads?.[method.shortName];
      if (stateful[method.name]) out.set(method.name, stateful[method.name]!);
      // A read changes nothing, so it also words the refusal of params the schema rejects.
      else if (read) out.set(method.name, { answer: read, check: read });
      else
        out.set(method.name, {
          answer: () => {
            throw new Error(`the mock node does not simulate ${method.name}`);
          },
        });
    }
    return out;
  }
}

const DEV_METHODS = [
  'snapshot',
  'revert',
  'setTime',
  'increaseTime',
  'mine',
  'fund',
  'setFeeState',
  'reset',
  'setAutomine',
  'setIntervalMining',
  'listAccounts',
  'impersonate',
  'stopImpersonating',
  'simulateTx',
  'dumpState',
  'loadState',
  'addUtxo',
  'removeUtxo',
  'addStaker',
  'setConnection',
  'addSubnet',
  'setSubnetOwner',
] as const;

function devHandlers(dev: DevControls): Record<string, MockMethod> {
  return Object.fromEntries(
    DEV_METHODS.map((name) => [
      `dev.${name}`,
      { answer: (p: Params) => (dev[name] as (p: Params) => unknown).call(dev, p) },
    ]),
  );
}

const tagsOf = ({ tags }: Params): string[] => (Array.isArray(tags) ? tags.map(String) : []);
