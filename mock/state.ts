/**
 * The mock node's handlers: the X- and P-Chain's reads from the simulated network (./world), the keystore, admin
 * state (chain aliases are the world's; route aliases, logger levels, the CPU profiler, the VM registry), and, for
 * what the world does not answer yet, answers from the examples and the schemas.
 */
import type { EndpointModel } from '../generators/model/types.ts';
import type { MethodSpec } from '../generated/server/dist/index.js';
import { indexMethods } from '../generators/model/build.ts';
import { type AdminSetup, AdminState, checkAlias } from './admin.ts';
import { MethodAnswers } from './answers.ts';
import { type HealthKind, type HealthReport, HealthState } from './health.ts';
import { Keystore, decodeBytes } from './keystore.ts';
import { mockModel } from './spec.ts';
import type { Network } from './synth.ts';
import { NETWORKS } from './world/networks.ts';
import { type Read, encodingOf } from './world/reads.ts';
import { infoReads } from './world/reads-info.ts';
import { DevControls } from './engine/dev.ts';
import { pChainReads } from './world/reads-p.ts';
import { xChainReads } from './world/reads-x.ts';
import type { World } from './world/world.ts';
import { Engine, type Mining } from './engine/engine.ts';
import { issueHandlers } from './engine/handlers.ts';

/** The local network's X- and P-Chain, the default network's. */
export const X_CHAIN_ID = NETWORKS.local.xChainID;
export const P_CHAIN_ID = NETWORKS.local.pChainID;

export type Params = Record<string, unknown>;
export type MockHandler = (params: Params) => unknown;
export interface MockMethod {
  answer: MockHandler;
  check?: MockHandler;
}

const JSON_FORMS = new Set(['getTx', 'getBlock', 'getBlockByHeight']);

const examplesOf = (name: string) => indexMethods(mockModel()).get(name)?.method.examples ?? [];

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
  /** The node of `info.getNodeID`'s example (the local network's first staker), which every reply's `node-id` names. */
  readonly nodeID = firstResult<{ nodeID: string }>('info.getNodeID').nodeID;
  private readonly peers = firstResult<{ peers: Array<{ nodeID: string }> }>('info.peers').peers;
  readonly engine: Engine;
  /** The development controls `/ext/dev` serves (when on) and `startMockNode` hands to test suites. */
  readonly dev: DevControls;
  private readonly reads: Partial<Record<string, Record<string, Read>>>;

  constructor(
    readonly world: World,
    routes: string[],
    mining: Mining = { mode: 'auto' },
    /** The release the mock stands for (`--node-version`), which `info.getNodeVersion` reports; the spec's newest when absent. */
    private readonly nodeVersion?: string,
  ) {
    this.engine = new Engine(world, mining);
    this.dev = new DevControls(world, this.engine);
    this.reads = { 'x-chain': xChainReads(world), 'p-chain': pChainReads(world), info: infoReads(world) };
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
    const report = (kind: HealthKind) => firstResult<HealthReport>(`health.${kind}`);
    this.health = new HealthState(
      { health: report('health'), readiness: report('readiness'), liveness: report('liveness') },
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
  private version(): unknown {
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

  /** `info.peers`: the connected peers, only those named when `nodeIDs` names any. */
  private connectedPeers({ nodeIDs }: Params): { numPeers: string; peers: unknown[] } {
    const wanted = Array.isArray(nodeIDs) && nodeIDs.length > 0 ? new Set(nodeIDs) : undefined;
    const peers = wanted ? this.peers.filter((peer) => wanted.has(peer.nodeID)) : this.peers;
    return { numPeers: String(peers.length), peers };
  }

  /**
   * Every method of the endpoint by wire name: its handler, and for a method whose refusals the node words itself, a
   * check that throws the handler's error for params that break the schema without changing anything.
   */
  handlers(endpoint: EndpointModel, specs: readonly MethodSpec[], network: Network): Map<string, MockMethod> {
    const model = mockModel();
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
      'info.getNetworkID': { answer: () => ({ networkID: String(this.world.network.networkID) }) },
      'info.getNetworkName': { answer: () => ({ networkName: this.world.network.networkName }) },
      // Only an absent (or null) param passes the node's decoder and reaches the handler's refusal; a wrong type does not.
      'info.getBlockchainID': { answer: (p) => this.blockchainID(p), check: (p) => p.alias ?? this.blockchainID({}) },
      'info.isBootstrapped': {
        answer: (p) => this.isBootstrapped(p),
        check: (p) => p.chain ?? this.isBootstrapped({}),
      },
      'info.peers': { answer: (p) => this.connectedPeers(p) },
      'info.getNodeVersion': { answer: () => this.version() },
      'health.health': { answer: (p) => this.health.report('health', tagsOf(p)) },
      'health.readiness': { answer: (p) => this.health.report('readiness', tagsOf(p)) },
      'health.liveness': { answer: (p) => this.health.report('liveness', tagsOf(p)) },
      ...devHandlers(this.dev),
      ...issueHandlers(this.engine),
    };
    const out = new Map<string, MockMethod>();
    for (const method of endpoint.methods) {
      const spec = specs.find((s) => s.name === method.name);
      if (!spec) throw new Error(`the generated server has no method ${method.name}`);
      const read = this.reads[endpoint.name]?.[method.shortName];
      const answers = new MethodAnswers(model, method, spec, network);
      // The node's JSON form of transactions and blocks is not built from the world yet: bytes only (see README).
      const bytesOnly =
        read && JSON_FORMS.has(method.shortName)
          ? (p: Params) => {
              if (encodingOf(p) !== 'json') return read(p);
              // The refusals before the lookup (a nil or undecodable ID) are the world's; the JSON form itself is not
              // built from the world yet, so an ID it does not hold still gets an example's form.
              try {
                read({ ...p, encoding: 'hex' });
              } catch (error) {
                if (!/not found/.test((error as Error).message)) throw error;
              }
              return answers.answer(p);
            }
          : read;
      if (stateful[method.name]) out.set(method.name, stateful[method.name]!);
      // A read changes nothing, so it also words the refusal of params the schema rejects.
      else if (bytesOnly) out.set(method.name, { answer: bytesOnly, check: bytesOnly });
      else out.set(method.name, { answer: (p) => answers.answer(p) });
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
