/**
 * The C-Chain (./cchain/), loaded on its first use: its modules (and the fork's C-Chain part they import) are a good
 * share of the mock's start, which a node that is only asked about X and P never needs. The dev controls given
 * before it loads are kept, and handed over as it loads: as if it had been there, untouched, all along.
 * `/ext/bc/C/avax` loads apart: its reads answer from the world (shared memory, the accepted atomic txs), and only
 * its issueTx loads the EVM.
 */
import type { Endpoint } from '../generated/server/dist/index.js';
import type { AtomicApi } from './cchain/avax.ts';
import type { CChain } from './cchain/evm.ts';
import type { World } from './world/world.ts';
import { moduleSlices } from './when-idle.ts';

export interface CChainParts {
  /** The EVM (./cchain/evm.ts), whose engine is created on its first call. */
  chain: CChain;
  /** `/ext/bc/C/rpc` (./cchain/rpc.ts). */
  rpc: Endpoint;
  /** `dev.mine` on C and `dev.fund` of a C-Chain address (./cchain/dev.ts). */
  dev: typeof import('./cchain/dev.ts');
}

/**
 * The loads that no slice can cut, each one piece of the main thread's work that a first tx or C-Chain call would
 * otherwise wait for, and once per process: avalanchejs' bundle (every chain's codec; ~17 ms of CPU to evaluate,
 * noble-curves' set-up), EDR's native library (~3.5 ms), libsecp256k1 (a first signature check; its context's tables,
 * ~7 ms). The CLI takes them before it listens, as anvil and Hardhat's node start their EVM before they listen
 * (./cli-run.ts); `startMockNode`, whose start a test suite waits for, leaves them to the node's idle steps.
 */
export const START_UP_LOADS: ReadonlyArray<() => unknown> = [
  () => import('./shared/avalanche.ts').then(({ avalanche }) => avalanche()),
  () => import('./shared/edr.ts').then(({ edr }) => edr()),
  () => import('./world/signers.ts').then(({ loadSecp256k1 }) => loadSecp256k1()),
];

/**
 * What a first C-Chain call or atomic tx (and a first X or P tx, which share avalanchejs and libsecp256k1) would
 * load while its caller waits, one step each: START_UP_LOADS, the modules, EDR's context. Nothing is built, so the
 * chain, its engine and the dev controls' marks are as they were.
 */
export const C_CHAIN_MODULES: ReadonlyArray<() => unknown> = [
  ...START_UP_LOADS,
  () => import('./cchain/avax.ts'),
  () => import('./cchain/avax.ts').then(({ loadTxModules }) => loadTxModules()),
  () => import('./cchain/evm.ts'),
  () => import('./cchain/evm.ts').then(({ loadEngine }) => loadEngine()),
  () => Promise.all([import('./cchain/rpc.ts'), import('./cchain/dev.ts')]),
];

/** The modules C_CHAIN_MODULES imports, whose graphs the node loads a module at a time. */
const C_CHAIN_GRAPHS = [
  './cchain/avax.ts',
  './cchain/atomic.ts',
  './cchain/genesis-view.ts',
  './cchain/evm.ts',
  './cchain/rpc.ts',
  './cchain/dev.ts',
];

/** The folders of the sources those graphs are read from: the generated packages are loaded at start-up. */
const SOURCES = ['./', '../generators/', '../runtime/', '../conform/'];

export class LazyCChain {
  private parts: CChainParts | undefined;
  private loading: Promise<CChainParts> | undefined;
  private atomicApi: AtomicApi | undefined;
  private atomicLoading: Promise<AtomicApi> | undefined;
  /** Dev snapshots taken before the chain loaded, which it takes on loading as taken before its engine existed. */
  private readonly marks = new Set<string>();
  private automine: boolean;
  private readonly world: World;
  private readonly nodeVersion?: string;

  /**
   * `automine` false (`--no-mining`, `--block-time`): C's transactions wait in the engine's pool for `dev.mine` or the
   * interval's tick, as X's and P's do.
   */
  constructor(world: World, nodeVersion?: string, automine = true) {
    this.world = world;
    this.nodeVersion = nodeVersion;
    this.automine = automine;
  }

  /** The parts, once loaded. */
  get loaded(): CChainParts | undefined {
    return this.parts;
  }

  /** The one place the C-Chain's modules are loaded. */
  load(): Promise<CChainParts> {
    this.loading ??= Promise.all([
      import('./cchain/evm.ts'),
      import('./cchain/rpc.ts'),
      import('./cchain/dev.ts'),
    ]).then(([{ CChain }, { cChainRpcEndpoint }, dev]) => {
      const chain = new CChain(this.world, this.nodeVersion);
      for (const id of this.marks) chain.snapshot(id);
      void chain.setAutomine(this.automine);
      this.parts = { chain, rpc: cChainRpcEndpoint(chain), dev };
      return this.parts;
    });
    return this.loading;
  }

  /**
   * The steps a node takes while idle (../when-idle.ts). Slices: the modules of C_CHAIN_MODULES, one at a time.
   * Loads: C_CHAIN_MODULES (avalanchejs, EDR, libsecp256k1: each one piece of work, or a lookup once the CLI took it
   * at start-up; the modules then cost a lookup), then the chain's engine made ahead of its first call
   * (./cchain/evm.ts `prepare`), which builds nothing the node shows.
   */
  idleSteps(): { slices: Array<() => unknown>; loads: Array<() => unknown> } {
    return {
      slices: moduleSlices(
        C_CHAIN_GRAPHS.map((path) => new URL(path, import.meta.url).href),
        SOURCES.map((path) => new URL(path, import.meta.url).href),
      ),
      loads: [...C_CHAIN_MODULES, () => this.load().then(({ chain }) => chain.prepare())],
    };
  }

  /** `/ext/bc/C/avax` (./cchain/avax.ts), once loaded. */
  get atomic(): AtomicApi | undefined {
    return this.atomicApi;
  }

  /** Loads `/ext/bc/C/avax` without the EVM, which it asks for (at once when loaded) only to accept a tx. */
  loadAtomic(): Promise<AtomicApi> {
    this.atomicLoading ??= import('./cchain/avax.ts').then(({ AtomicApi }) => {
      const evm = {
        chain: () => this.parts?.chain ?? this.load().then((parts) => parts.chain),
        // While the modules load, a call that loads them may be about to queue its work on the engine.
        unstarted: () => (this.parts ? !this.parts.chain.started : this.loading === undefined),
      };
      this.atomicApi = new AtomicApi(this.world, evm, this.nodeVersion);
      return this.atomicApi;
    });
    return this.atomicLoading;
  }

  // The dev controls, passed on when loaded; before, what an untouched chain does with them (./cchain/evm.ts).

  snapshot(id: string): void {
    if (this.parts) this.parts.chain.snapshot(id);
    else this.marks.add(id);
  }

  revert(id: string): void {
    if (this.parts) void this.parts.chain.revert(id);
    else for (const other of this.marks) if (Number(other) > Number(id)) this.marks.delete(other);
  }

  reset(): void {
    this.atomicApi?.reset();
    if (this.parts) void this.parts.chain.reset();
    else this.marks.clear();
  }

  moveTime(mine: boolean): void {
    if (this.parts) void this.parts.chain.moveTime(mine);
  }

  /**
   * A tick of interval mining (../engine/engine.ts): a C block when the EVM's pool holds txs (a loaded state's too) or
   * the atomic mempool does.
   */
  minePending(): void {
    if (this.world.cChainPool.size > 0 || this.atomicApi?.pending())
      void this.load().then(({ chain }) => chain.minePending(), ignore);
  }

  /** The node closes: the C-Chain's runs on a second engine are killed (./cchain/second-engine.ts), their folders gone. */
  async stop(): Promise<void> {
    const parts = await this.loading?.catch(() => undefined);
    if (parts) await import('./cchain/second-engine.ts').then(({ stopDetached }) => stopDetached(parts.chain));
  }

  setAutomine(enabled: boolean): void {
    if (this.parts) void this.parts.chain.setAutomine(enabled);
    else this.automine = enabled;
  }
}

const ignore = (): void => undefined;

/** An endpoint that loads what answers on its first request; its body limit is known once loaded (0 before). */
export function lazyEndpoint(name: string, load: () => Promise<Endpoint>): Endpoint {
  let loaded: Endpoint | undefined;
  const endpoint = () => (loaded ? Promise.resolve(loaded) : load().then((e) => (loaded = e)));
  return {
    name,
    profile: 'node',
    get maxBodyBytes() {
      return loaded?.maxBodyBytes ?? 0;
    },
    node: (req, res, extra) => {
      if (loaded) return loaded.node(req, res, extra);
      // The body waits, unread, in the paused request until the endpoint reads it.
      endpoint().then(
        (e) => e.node(req, res, extra),
        (error: Error) => {
          req.resume();
          res.writeHead(500, { ...extra, 'Content-Type': 'text/plain; charset=utf-8' });
          res.end(`${error.message}\n`);
        },
      );
    },
    fetch: (request) => endpoint().then((e) => e.fetch(request)),
    answer: (body, call) => endpoint().then((e) => e.answer(body, call)),
  };
}
