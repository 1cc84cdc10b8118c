/**
 * The C-Chain's EVM: Hardhat's EDR (@nomicfoundation/edr), a real engine run in process, never an EVM written here.
 * It is loaded and its chain created on the first C-Chain call (EDR's load and a chain cost ~40 ms, more than the
 * rest of the mock's start-up), and every call goes through one queue, in order: the atomic transactions read the
 * EVM's state, verify and write it back without another call in between, and dev controls (snapshot, revert, time)
 * take effect exactly between the calls issued before and after them.
 */
import { createRequire } from 'node:module';
import type { Provider } from '@nomicfoundation/edr';
import { acceptIntoIndexes } from '../world/indexer.ts';
import type { World } from '../world/world.ts';
import { type RpcBlock, blockBytes, blockIDOf } from './blocks.ts';
import { type CGenesis, X2C_RATE, cGenesis } from './genesis.ts';

type Edr = typeof import('@nomicfoundation/edr');

/** An error the engine answered, passed on as it gave it. */
export class EvmError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** ACP-176's minimum gas price (vms/evm/acp176 MinGasPrice): the base fee of a fresh chain, 1 wei. */
const MIN_GAS_PRICE = 1n;
/** ACP-176's gas limit at the minimum target: 1,000,000 gas/s × TargetToMax 2 × TimeToFillCapacity 5. */
const BLOCK_GAS_LIMIT = 10_000_000n;

let edr: { module: Edr; context: Promise<InstanceType<Edr['EdrContext']>> } | undefined;

/** One EdrContext per process ("Should only be called once!"), with the L1 chain type registered. */
function loadEdr(): NonNullable<typeof edr> {
  if (!edr) {
    const module = createRequire(import.meta.url)('@nomicfoundation/edr') as Edr;
    const context = new module.EdrContext();
    edr = {
      module,
      context: context.registerProviderFactory(module.L1_CHAIN_TYPE, module.l1ProviderFactory()).then(() => context),
    };
  }
  return edr;
}

const hex = (n: bigint) => `0x${n.toString(16)}`;
/** The dev controls fire their C-Chain parts and answer at once; a failure there leaves the engine as it was. */
const ignore = (): void => undefined;

export class CChain {
  private genesisCache: CGenesis | undefined;
  private provider: Promise<Provider> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  /** Dev snapshot IDs to the engine's; undefined: taken before the engine existed, so reverting means a fresh chain. */
  private readonly marks = new Map<string, Promise<string | undefined>>();
  private automine = true;
  /** Set when a call is queued: the engine exists, or will before the next queued op runs. */
  private touched = false;
  /**
   * Whether the EVM's state moved from its genesis (a transaction, a block, a funding, an atomic tx): what `--state`
   * cannot save, since the engine has no state dump.
   */
  changed = false;

  private readonly world: World;

  constructor(world: World) {
    this.world = world;
  }

  /** Worked out on the first C-Chain call: the funded accounts' EVM addresses need the codec's secp256k1. */
  get genesis(): CGenesis {
    this.genesisCache ??= cGenesis(this.world);
    return this.genesisCache;
  }

  /** Whether the engine exists (some C-Chain call was made). */
  get started(): boolean {
    return this.touched;
  }

  /** A new engine at the genesis, which the indexer takes as the C-Chain's pre-fork genesis. */
  private async create(): Promise<Provider> {
    const provider = await this.createEngine();
    await this.acceptNewBlocks(provider);
    return provider;
  }

  private createEngine(): Promise<Provider> {
    const { module, context } = loadEdr();
    const genesis = this.genesis;
    return context.then((ctx) =>
      ctx.createProvider(
        module.L1_CHAIN_TYPE,
        {
          allowBlocksWithSameTimestamp: true,
          allowUnlimitedContractSize: false,
          bailOnCallFailure: false,
          bailOnTransactionFailure: false,
          chainId: genesis.chainID,
          coinbase: Buffer.alloc(20),
          defaultTransactionGasLimit: BLOCK_GAS_LIMIT,
          genesisState: genesis.alloc.map((a) => ({
            address: Buffer.from(a.address, 'hex'),
            balance: a.balance,
            ...(a.code ? { code: Buffer.from(a.code.slice(2), 'hex') } : {}),
          })),
          // coreth enables Cancun with Etna; it has no later Ethereum fork.
          hardfork: 'cancun',
          initialBaseFeePerGas: MIN_GAS_PRICE,
          minGasPrice: 0n,
          mining: {
            autoMine: this.automine,
            blockGasLimit: BLOCK_GAS_LIMIT,
            memPool: { order: module.MineOrdering.Fifo },
          },
          network: { genesisBlockGasLimit: genesis.gasLimit, genesisBlockTime: this.world.time.get() },
          networkId: genesis.chainID,
          observability: {},
          ownedAccounts: [],
          precompileOverrides: [],
        },
        { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
        { subscriptionCallback: () => {} },
        new module.ContractDecoder(),
      ),
    );
  }

  /** Runs `op` on the engine after every call queued before it. */
  run<T>(op: (provider: Provider) => Promise<T>): Promise<T> {
    this.touched = true;
    const next = this.tail.then(() => {
      this.provider ??= this.create();
      return this.provider.then(op);
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `op`, which may build blocks, then hands each new block to the indexer (./blocks.ts): the one way the C-Chain's
   * blocks reach `/ext/index/C/block` and proposervm. `extData` holds the atomic txs of the block `op` builds.
   */
  write<T>(op: (provider: Provider) => Promise<T>, extData?: () => Uint8Array | undefined): Promise<T> {
    this.changed = true;
    return this.run(async (provider) => {
      try {
        return await op(provider);
      } finally {
        await this.acceptNewBlocks(provider, extData?.());
      }
    });
  }

  /**
   * The engine's blocks after the last indexed one, oldest first, into the indexes (genesis too, when the engine is
   * new). The world's C/block index holds one block per height after genesis, so its length is the last indexed height.
   */
  private async acceptNewBlocks(provider: Provider, extData?: Uint8Array): Promise<void> {
    const latest = Number(await this.call(provider, 'eth_blockNumber'));
    const indexed = this.world.preForkGenesis.get('C') ? this.world.indexes['C/block'].length : -1;
    for (let height = indexed + 1; height <= latest; height++) {
      const block = (await this.call(provider, 'eth_getBlockByNumber', [hex(BigInt(height)), true])) as RpcBlock;
      acceptIntoIndexes(this.world, 'C', {
        id: blockIDOf(block.hash),
        height,
        timestamp: BigInt(block.timestamp),
        bytes: blockBytes(block, height === latest ? extData : undefined),
      });
    }
  }

  /** One JSON-RPC request, as JSON, to the engine: its answer, `{"result":…}` or `{"error":…}`, as JSON. */
  raw(provider: Provider, request: string): Promise<string> {
    return provider.handleRequest(request).then((response) => {
      const data = response.data;
      return typeof data === 'string' ? data : JSON.stringify(data);
    });
  }

  /** A call on the engine inside a queued op: its result, or its error thrown as EvmError. */
  async call(provider: Provider, method: string, params: unknown[] = []): Promise<unknown> {
    const answer = JSON.parse(await this.raw(provider, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (answer.error) throw new EvmError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result;
  }

  /** A call queued on its own. */
  request(method: string, params: unknown[] = []): Promise<unknown> {
    return this.run((p) => this.call(p, method, params));
  }

  /** The base fee of the next block, in wei (what coreth's eth_baseFee and its atomic fees use). */
  async nextBaseFee(provider: Provider): Promise<bigint> {
    const history = (await this.call(provider, 'eth_feeHistory', ['0x1', 'latest', []])) as {
      baseFeePerGas: string[];
    };
    return BigInt(history.baseFeePerGas.at(-1)!);
  }

  async balance(provider: Provider, address: string): Promise<bigint> {
    return BigInt((await this.call(provider, 'eth_getBalance', [`0x${address}`, 'latest'])) as string);
  }

  async nonce(provider: Provider, address: string): Promise<bigint> {
    return BigInt((await this.call(provider, 'eth_getTransactionCount', [`0x${address}`, 'latest'])) as string);
  }

  async setBalance(provider: Provider, address: string, wei: bigint): Promise<void> {
    await this.call(provider, 'hardhat_setBalance', [`0x${address}`, hex(wei)]);
  }

  async setNonce(provider: Provider, address: string, nonce: bigint): Promise<void> {
    await this.call(provider, 'hardhat_setNonce', [`0x${address}`, hex(nonce)]);
  }

  /** Mines one block (holding what the pool has) inside a `write`: its number. */
  async mineBlock(provider: Provider): Promise<bigint> {
    await this.call(provider, 'evm_mine');
    return BigInt((await this.call(provider, 'eth_blockNumber')) as string);
  }

  // Dev controls: each queued, so that it lands between the calls before and after it.

  snapshot(id: string): void {
    this.marks.set(
      id,
      this.touched ? this.run((p) => this.call(p, 'evm_snapshot') as Promise<string>) : Promise.resolve(undefined),
    );
  }

  /** Back to the state of snapshot `id`; it stays (EDR drops a snapshot it reverts to, so a new one replaces it). */
  revert(id: string): Promise<void> {
    const mark = this.marks.get(id);
    for (const other of [...this.marks.keys()]) if (Number(other) > Number(id)) this.marks.delete(other);
    if (!mark) return Promise.resolve();
    if (!this.touched) return mark.then(() => undefined);
    const again = this.run(async (p) => {
      const engineID = await mark;
      if (engineID === undefined) {
        this.provider = undefined;
        this.touched = false;
        this.changed = false;
        return undefined;
      }
      await this.call(p, 'evm_revert', [engineID]);
      return (await this.call(p, 'evm_snapshot')) as string;
    });
    this.marks.set(id, again);
    return again.then(ignore, ignore);
  }

  /** The chain as it started: the next call creates it anew. */
  reset(): Promise<void> {
    this.marks.clear();
    if (!this.touched) return Promise.resolve();
    const done = this.run(async () => {
      this.provider = undefined;
    });
    this.touched = false;
    this.changed = false;
    return done.catch(ignore);
  }

  /** The next C-Chain block is at `timestamp` (or later, never before the last); `mine` builds it now. */
  setTime(timestamp: bigint, mine: boolean): Promise<void> {
    if (!this.touched) return Promise.resolve();
    const move = async (p: Provider) => {
      const latest = (await this.call(p, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
      const at = timestamp > BigInt(latest.timestamp) ? timestamp : BigInt(latest.timestamp);
      await this.call(p, 'evm_setNextBlockTimestamp', [hex(at)]);
      if (mine) await this.call(p, 'evm_mine');
    };
    return (mine ? this.write(move) : this.run(move)).catch(ignore);
  }

  setAutomine(enabled: boolean): Promise<void> {
    this.automine = enabled;
    if (!this.touched) return Promise.resolve();
    return this.run(async (p) => {
      await this.call(p, 'evm_setAutomine', [enabled]);
    }).catch(ignore);
  }

  /** Adds `nAVAX` to an EVM address (40-hex): its balance after, in wei. */
  fund(address: string, nAVAX: bigint): Promise<bigint> {
    this.changed = true;
    return this.run(async (p) => {
      const balance = (await this.balance(p, address)) + nAVAX * X2C_RATE;
      await this.setBalance(p, address, balance);
      return balance;
    });
  }
}
