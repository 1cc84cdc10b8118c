/**
 * The mock node's state: the simulated network (./world) and the engine that changes it, the keystore, admin state
 * (chain aliases are the world's; route aliases, logger levels, the CPU profiler, the VM registry), health, the
 * C-Chain. Its handlers, one object per endpoint, are in ./handlers.ts.
 */
import type { InfoGetNodeVersionResult } from '../generated/server/dist/index.js';
import { type AdminSetup, AdminState } from './admin.ts';
import { HealthState } from './health.ts';
import { mockModel } from './spec.ts';
import { Keystore } from './keystore.ts';
import { decodeBytes } from './shared/formatting.ts';
import { NETWORKS } from './world/networks.ts';
import { nodeIdentity } from './world/node-identity.ts';
import { healthReport } from './world/health-checks.ts';
import { nodeVersionOf } from './world/reads-info.ts';
import { DevControls } from './engine/dev.ts';
import type { World } from './world/world.ts';
import { Engine, type Mining } from './engine/engine.ts';
import { LazyCChain } from './lazy-cchain.ts';

/** The local network's X- and P-Chain, the default network's. */
export const X_CHAIN_ID = NETWORKS.local.xChainID;
export const P_CHAIN_ID = NETWORKS.local.pChainID;

/** A method's examples in the spec: every node's state reads a few at start. */
const examplesOf = (name: string) =>
  mockModel()
    .endpoints.flatMap((endpoint) => endpoint.methods)
    .find((method) => method.name === name)?.examples ?? [];

/** The loggers of the chains and `main` at the node's default level, with the levels `admin.getLoggerLevel` shows. */
function startingLoggers(): AdminSetup['loggers'] {
  const loggers: AdminSetup['loggers'] = { main: { logLevel: 'INFO', displayLevel: 'INFO' } };
  for (const chain of ['C', 'P', 'X']) loggers[chain] = { logLevel: 'INFO', displayLevel: 'INFO' };
  for (const { result } of examplesOf('admin.getLoggerLevel'))
    Object.assign(loggers, (result as unknown as { loggerLevels: AdminSetup['loggers'] }).loggerLevels);
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
  /** The C-Chain: its EVM, atomic API and RPC endpoint (./cchain/), loaded on its first call. */
  readonly cChain: LazyCChain;
  /** The development controls `/ext/dev` serves (when on) and `startMockNode` hands to test suites. */
  readonly dev: DevControls;

  readonly world: World;
  /**
   * The release the mock stands for (`--node-version`), which `info.getNodeVersion` reports; the spec's newest when
   * absent.
   */
  private readonly nodeVersion?: string;
  /** The paths served, which `admin.getConfig` reports. */
  readonly routes: string[];
  constructor(world: World, routes: string[], mining: Mining = { mode: 'auto' }, nodeVersion?: string) {
    this.world = world;
    this.routes = routes;
    this.nodeVersion = nodeVersion;
    const cChain = new LazyCChain(world, nodeVersion, mining.mode === 'auto');
    this.cChain = cChain;
    this.engine = new Engine(world, mining, nodeVersion, () => cChain.minePending());
    this.dev = new DevControls(world, this.engine, this.cChain);
    this.nodeID = nodeIdentity(world).nodeID;
    const imports = examplesOf('keystore.importUser');
    this.keystore = new Keystore(
      imports.map((example) => ({
        record: decodeBytes(String(example.params.user), String(example.params.encoding ?? 'hex').toLowerCase()),
        password: String(example.params.password),
      })),
    );
    this.admin = new AdminState({
      chains: world,
      loggers: startingLoggers(),
      routes,
    });
    this.health = new HealthState(
      (kind) => healthReport(world, kind, this.version().version),
      (name) => this.admin.lookup(name) !== undefined,
    );
  }

  /** `info.getNodeVersion` of the release the mock serves, so a client (or `npm run conform`) expects what it gets. */
  version(): InfoGetNodeVersionResult {
    return servedNodeVersion(this.nodeVersion);
  }
}

/** `info.getNodeVersion` of `--node-version` (the spec's example when none is given). */
export function servedNodeVersion(nodeVersion: string | undefined): InfoGetNodeVersionResult {
  const example = firstResult<InfoGetNodeVersionResult>('info.getNodeVersion');
  if (!nodeVersion) return example;
  const release = nodeVersionOf(nodeVersion);
  return { ...example, ...release, vmVersions: { ...example.vmVersions, ...release.vmVersions } };
}
