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
import { Keystore, decodeBytes } from './keystore.ts';
import { mockModel } from './spec.ts';
import type { Network } from './synth.ts';
import { NETWORKS } from './world/networks.ts';
import { type Read, encodingOf } from './world/reads.ts';
import { infoReads } from './world/reads-info.ts';
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
  for (const { result } of examplesOf('admin.getLoggerLevel')) Object.assign(loggers, (result as { loggerLevels: AdminSetup['loggers'] }).loggerLevels);
  return loggers;
}

export class MockState {
  readonly keystore: Keystore;
  readonly admin: AdminState;
  readonly engine: Engine;
  private readonly reads: Partial<Record<string, Record<string, Read>>>;

  constructor(
    readonly world: World,
    routes: string[],
    mining: Mining = { mode: 'auto' },
  ) {
    this.engine = new Engine(world, mining);
    // `info` answers once the Info API's endpoint is served (its examples then hold the static fees the world lacks).
    const txFees = examplesOf('info.getTxFee')[0]?.result as Record<string, string> | undefined;
    this.reads = { 'x-chain': xChainReads(world), 'p-chain': pChainReads(world), ...(txFees ? { info: infoReads(world, txFees) } : {}) };
    const imports = examplesOf('keystore.importUser');
    this.keystore = new Keystore(
      imports.map((example) => ({
        record: decodeBytes(String(example.params.user), String(example.params.encoding ?? 'hex').toLowerCase()),
        password: String(example.params.password),
      })),
    );
    const firstLoad = examplesOf('admin.loadVMs')[0]?.result as AdminSetup['firstLoad'] | undefined;
    this.admin = new AdminState({ chains: world, loggers: startingLoggers(), firstLoad: firstLoad ?? { newVMs: {} }, routes });
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
      ...issueHandlers(this.engine),
    };
    const out = new Map<string, MockMethod>();
    for (const method of endpoint.methods) {
      const spec = specs.find((s) => s.name === method.name);
      if (!spec) throw new Error(`the generated server has no method ${method.name}`);
      const read = this.reads[endpoint.name]?.[method.shortName];
      const answers = new MethodAnswers(model, method, spec, network);
      // The node's JSON form of transactions and blocks is not built from the world yet: bytes only (see README).
      const bytesOnly = read && JSON_FORMS.has(method.shortName) ? (p: Params) => (encodingOf(p) === 'json' ? answers.answer(p) : read(p)) : read;
      if (stateful[method.name]) out.set(method.name, stateful[method.name]!);
      // A read changes nothing, so it also words the refusal of params the schema rejects.
      else if (bytesOnly) out.set(method.name, { answer: bytesOnly, check: bytesOnly });
      else out.set(method.name, { answer: (p) => answers.answer(p) });
    }
    return out;
  }
}
