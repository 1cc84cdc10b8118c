/**
 * The mock node's handlers: stateful where the API description defines behaviour (keystore users, chain and route
 * aliases, logger levels, the CPU profiler, the VM registry, UTXO pages), answers from the examples and the schemas
 * everywhere else. The starting state is the one the spec's examples show, so each example holds on a fresh node.
 */
import { hexDecode } from '../generators/formats.ts';
import type { EndpointModel, MethodModel } from '../generators/model/types.ts';
import type { MethodSpec } from '../generated/server/dist/index.js';
import { AdminState } from './admin.ts';
import { MethodAnswers } from './answers.ts';
import { Keystore, decodeBytes } from './keystore.ts';
import { mockModel } from './spec.ts';
import type { Network } from './synth.ts';
import { UtxoSet } from './utxos.ts';

/** The chains of the spec's examples: the X-Chain of a local network, the P-Chain, the C-Chain, and one Subnet chain. */
export const X_CHAIN_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
export const C_CHAIN_ID = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const SUBNET_CHAIN_ID = 'sV6o671RtkGBcno1FiaDbVcFv2sG5aVXMZYzKdP4VQAWmJQnM';

export type Params = Record<string, unknown>;
export type MockHandler = (params: Params) => unknown;

function findMethod(name: string): MethodModel | undefined {
  for (const endpoint of mockModel().endpoints) {
    const method = endpoint.methods.find((m) => m.name === name);
    if (method) return method;
  }
  return undefined;
}

export class MockState {
  readonly keystore: Keystore;
  readonly admin: AdminState;
  private readonly utxoSets = new Map<string, UtxoSet>();

  constructor(
    readonly hrp: string,
    routes: string[],
  ) {
    const imports = findMethod('keystore.importUser')?.examples ?? [];
    this.keystore = new Keystore(
      imports.map((example) => ({
        record: decodeBytes(String(example.params.user), String(example.params.encoding ?? 'hex').toLowerCase()),
        password: String(example.params.password),
      })),
    );
    const firstLoad = findMethod('admin.loadVMs')?.examples[0]?.result as { newVMs: Record<string, string[]> } | undefined;
    this.admin = new AdminState({
      chains: [
        { id: X_CHAIN_ID, aliases: ['X', 'avm', X_CHAIN_ID] },
        { id: P_CHAIN_ID, aliases: ['P', 'platform', P_CHAIN_ID] },
        { id: C_CHAIN_ID, aliases: ['C', 'evm', C_CHAIN_ID] },
        { id: SUBNET_CHAIN_ID, aliases: [SUBNET_CHAIN_ID] },
      ],
      loggers: {
        C: { logLevel: 'DEBUG', displayLevel: 'INFO' },
        P: { logLevel: 'INFO', displayLevel: 'INFO' },
        X: { logLevel: 'INFO', displayLevel: 'INFO' },
        main: { logLevel: 'INFO', displayLevel: 'INFO' },
      },
      firstLoad: firstLoad ?? { newVMs: {} },
      routes,
    });
  }

  private utxos(method: MethodModel, chain: string): UtxoSet {
    let set = this.utxoSets.get(method.name);
    if (!set) {
      const example = method.examples.flatMap((e) => ((e.result as { utxos?: string[] }).utxos ?? [])).find((u) => hexDecode(u));
      if (!example) throw new Error(`${method.name} has no example UTXO to build UTXOs from`);
      set = new UtxoSet(chain, this.hrp, example, (alias) => this.admin.lookup(alias)?.id);
      this.utxoSets.set(method.name, set);
    }
    return set;
  }

  /** Every handler of the endpoint, by wire name. */
  handlers(endpoint: EndpointModel, specs: readonly MethodSpec[], network: Network): Map<string, MockHandler> {
    const model = mockModel();
    const stateful: Record<string, MockHandler> = {
      'keystore.createUser': (p) => this.keystore.createUser(p),
      'keystore.deleteUser': (p) => this.keystore.deleteUser(p),
      'keystore.exportUser': (p) => this.keystore.exportUser(p),
      'keystore.importUser': (p) => this.keystore.importUser(p),
      'keystore.listUsers': () => this.keystore.listUsers(),
      'admin.alias': (p) => this.admin.alias(p),
      'admin.aliasChain': (p) => this.admin.aliasChain(p),
      'admin.getChainAliases': (p) => this.admin.getChainAliases(p),
      'admin.getLoggerLevel': (p) => this.admin.getLoggerLevel(p),
      'admin.setLoggerLevel': (p) => this.admin.setLoggerLevel(p),
      'admin.startCPUProfiler': () => this.admin.startCPUProfiler(),
      'admin.stopCPUProfiler': () => this.admin.stopCPUProfiler(),
      'admin.loadVMs': () => this.admin.loadVMs(),
    };
    const out = new Map<string, MockHandler>();
    for (const method of endpoint.methods) {
      const spec = specs.find((s) => s.name === method.name);
      if (!spec) throw new Error(`the generated server has no method ${method.name}`);
      const answers = new MethodAnswers(model, method, spec, network);
      if (stateful[method.name]) out.set(method.name, stateful[method.name]!);
      else if (method.shortName === 'getUTXOs') out.set(method.name, (p) => answers.example(p) ?? this.utxos(method, network.chain).page(p));
      else out.set(method.name, (p) => answers.answer(p));
    }
    return out;
  }
}
