/**
 * The C-Chain's EVM: Hardhat's EDR (@nomicfoundation/edr), a real engine run in process, never an EVM written here.
 * It is loaded and its chain created on the first C-Chain call (EDR's load and a chain cost ~40 ms, more than the
 * rest of the mock's start-up), and every call goes through one queue, in order: the atomic transactions read the
 * EVM's state, verify and write it back without another call in between, and dev controls (snapshot, revert, time)
 * take effect exactly between the calls issued before and after them.
 */
import type { ForkConfig, Provider, ProviderConfig } from '@nomicfoundation/edr';
import { edr as requireEdr } from '../shared/edr.ts';
import { acceptIntoIndexes } from '../world/indexer.ts';
import type { CChainEdit, World } from '../world/world.ts';
import { type RpcBlock, blockIDOf, keccakHex, useNativeKeccak } from './blocks.ts';
import { CORETH_PREVRANDAO, type CorethExtra, corethBlockBytes, corethExtraOf } from './coreth-block.ts';
import { CHECK_BLOCKS, FeeRules, type TipInfo } from './fees.ts';
import { withCorethLogs } from './filter-criteria.ts';
import { INITIAL_BASE_FEE } from './fees-window.ts';
import { type CGenesis, X2C_RATE, cGenesis } from './genesis.ts';
import { dropFromEngine } from './engine-pool.ts';
import { forgetReplaced, queueOverflow } from './nonce-queue.ts';
import { OpQueue } from './op-queue.ts';
import { poolSent, replayChain } from './replay.ts';

/** What the fee rules keep of each block of the engine's chain (./fees.ts), and what coreth adds to it. */
interface BlockFees extends TipInfo {
  extra: CorethExtra;
}

/** A block's extra content beside the EVM's: its atomic txs (ExtData) and the gas they used. */
export interface AtomicExtra {
  extData: Uint8Array;
  gasUsed: bigint;
}

/**
 * coreth's block extension (./avax.ts): the atomic mempool's txs a block takes, verified on the state its EVM txs
 * left (FinalizeAndAssemble runs after them), their effects made after the block (`height`).
 */
export interface AtomicBuilder {
  pending(): boolean;
  build(chain: CChain, provider: Provider, block: RpcBlock): Promise<AtomicExtra | undefined>;
}

type Edr = typeof import('@nomicfoundation/edr');

/** How the engine's pool held a tx sent while automining: behind a nonce gap, or pending a lower base fee. */
export type Held = 'queued' | 'pending';

/** An engine as made, before the chain's history is replayed into it. */
interface NewEngine {
  provider: Provider;
  genesis: RpcBlock;
}

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

let edr: { module: Edr; context: Promise<InstanceType<Edr['EdrContext']>> } | undefined;

/**
 * Loads EDR's native library and its context, while the node idles (../lazy-cchain.ts): tens of ms of CPU that the
 * first C-Chain call would otherwise wait for. Builds no chain.
 */
export const loadEngine = (): Promise<unknown> => loadEdr().context;

/** One EdrContext per process ("Should only be called once!"), with the L1 chain type registered. */
function loadEdr(): NonNullable<typeof edr> {
  if (!edr) {
    const module = requireEdr();
    // Its keccak-256 is native: the check of each block's bytes uses it.
    useNativeKeccak(module.keccak256);
    const context = new module.EdrContext();
    edr = {
      module,
      context: context.registerProviderFactory(module.L1_CHAIN_TYPE, module.l1ProviderFactory()).then(() => context),
    };
  }
  return edr;
}

const hex = (n: bigint) => `0x${n.toString(16)}`;
/**
 * Where a forked world's engine reads its chain (../fork/cchain.ts): imported only by a fork, as the fork's modules
 * (and the typed client they call the source with) are most of what a first C-Chain call would otherwise load.
 */
const forkedFrom = (world: World): Promise<ForkConfig | undefined> =>
  import('../fork/cchain.ts').then(({ cChainFork }) => cChainFork(world));
/** Two engine configs are the same chain when their texts are equal. */
const configText = (config: ProviderConfig): string =>
  JSON.stringify(config, (_, value) => (typeof value === 'bigint' ? `${value}n` : value));

/** The engine's own requests that make an account edit (a replay sends them again). */
export function editRequests({
  address,
  balance,
  nonce,
  code,
  storage,
}: Omit<CChainEdit, 'height'>): Array<[string, unknown[]]> {
  const account = `0x${address}`;
  const out: Array<[string, unknown[]]> = [];
  if (balance !== undefined) out.push(['hardhat_setBalance', [account, hex(balance)]]);
  if (nonce !== undefined) out.push(['hardhat_setNonce', [account, hex(nonce)]]);
  if (code !== undefined) out.push(['hardhat_setCode', [account, code]]);
  if (storage) out.push(['hardhat_setStorageAt', [account, storage.slot, storage.value]]);
  return out;
}
/** The engine's latest block with its transactions, as a request in a batch. */
const LATEST_BLOCK = '{"jsonrpc":"2.0","id":0,"method":"eth_getBlockByNumber","params":["latest",true]}';
const setAutomine = (on: boolean) => `{"jsonrpc":"2.0","id":0,"method":"evm_setAutomine","params":[${on}]}`;
/**
 * coreth's etherbase (40-hex), graft/evm/constants BlackholeAddr, which plugin/evm/vm.go sets: miner/worker.go makes it
 * every block's header.Coinbase, so it is each block's `miner`, what COINBASE pushes and where the fees go.
 */
export const COINBASE = `01${'0'.repeat(38)}`;
/** A coinbase's balance at the latest block, as a request in a batch (what a block's fees paid it). */
const balanceRequest = (address: string) =>
  `{"jsonrpc":"2.0","id":0,"method":"eth_getBalance","params":["0x${address}","latest"]}`;
/** The base fee part of a block's fees, which the engine burns and coreth pays the coinbase. */
const baseFeesOf = (block: RpcBlock): bigint => BigInt(block.gasUsed) * BigInt(block.baseFeePerGas ?? '0x0');
/**
 * Resolves after the promise reactions queued now, and those they queue, have run: an answer resolved before it has
 * been written out by then (the server's path from a handler's result to its socket is promise reactions), and no
 * request has been read yet (process.nextTick runs before the event loop's next phase).
 */
const afterAnswer = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));
/** The dev controls fire their C-Chain parts and answer at once; a failure there leaves the engine as it was. */
const ignore = (): void => undefined;

/** Requests that change the state of a block the chain has (edits of the latest one, reverts). */
const EDITS = /"method":"(hardhat_set|evm_revert|hardhat_reset)/;
/** A deferred request that edits an account (editRequests'). */
const isEdit = (request: object): boolean =>
  /^hardhat_set(Balance|Nonce|Code|StorageAt)$/.test((request as { method: string }).method);

export class CChain {
  private genesisCache: CGenesis | undefined;
  /** The Ethereum fork the engine was made with (its rules at the world's time then). */
  private engineHardfork: 'cancun' | 'shanghai' | 'london' = 'cancun';
  /** Whether coreth's PREVRANDAO reads the header's Difficulty, as it does since Shanghai (core/evm.go). */
  get randomIsDifficulty(): boolean {
    return this.engineHardfork !== 'london';
  }
  private provider: Promise<Provider> | undefined;
  /** An engine made while the node idled, and the text of the config it was made with (`prepare`). */
  private spare?: { config: string; engine: Promise<NewEngine> };
  private readonly queue = new OpQueue();
  /** Bumped by each state edit, revert and reset: a run aside (./detached-call.ts) reading a state it left sees it moved. */
  moves = 0;
  /** Pooled txs announced as they came while automining (`pooled`), not again once mined. */
  private readonly announcedPending = new Set<string>();
  /** Dev snapshot IDs to the engine's; undefined: taken before the engine existed, so reverting means a fresh chain. */
  private readonly marks = new Map<string, Promise<string | undefined>>();
  /** Set by the first atomic tx issued: what puts the atomic mempool's txs in the blocks built. */
  atomicBuilder?: AtomicBuilder;
  /** The atomic txs of blocks built by the running op, by height, until they are indexed. */
  private readonly extras = new Map<number, AtomicExtra | undefined>();
  private automine = true;
  /** The interval tick queued on the engine, if any (minePending). */
  private ticking: Promise<void> | undefined;
  /** Called inside the queue with each block the engine builds (eth_subscribe's notifications, ./ws.ts). */
  readonly blockListeners = new Set<(block: RpcBlock, provider: Provider) => Promise<void>>();
  /** Called inside the queue with the hash of each tx the engine's pool takes (txpool's NewTxsEvent: ./filters.ts, ./ws.ts). */
  readonly poolListeners = new Set<(hash: string, provider: Provider) => Promise<void>>();
  /** Each block of the engine's chain by height, genesis first: its fee state after it, time and tips. */
  private fees: BlockFees[] = [];
  /**
   * The engine's last block's time: the next block is at the world's time, or at this when the world's clock is behind
   * it (a fork's source built its last C block after its last P block).
   */
  private lastTime = 0n;
  /** `nextBaseFee` after the last block (read by every write, the atomic txs' checks and the oracle). */
  private estimate?: { after: BlockFees | undefined; time: bigint; baseFee: bigint };
  /** Set when a call is queued: the engine exists, or will before the next queued op runs. */
  private touched = false;
  /**
   * Requests whose answers nobody reads (the next block's base fee, balance and nonce edits), sent before the op's next
   * call in the same engine request, or at the op's end: the engine runs a batch in order and stops at an error.
   */
  private deferred: object[] = [];
  /** Engine requests sent so far: what was read at a count is still the engine's state while the count stays. */
  private sent = 0;
  /**
   * The block the last mining built, read in the same request, for `acceptNewBlocks`; with the coinbase's balance
   * after it, when read there too.
   */
  private mined?: { block: RpcBlock; at: number; coinbase?: bigint };
  /**
   * The coinbase of the blocks the engine builds (40-hex): coreth's BlackholeAddr, unless anvil_setCoinbase chose
   * another (a dev override: coreth's syntacticVerify refuses such a block). A node setting, as on anvil: snapshots
   * leave it, a reset brings coreth's back.
   */
  coinbase = COINBASE;
  /** Set once the coinbase was chosen: every block's is then set again before it (an engine revert may move it). */
  private coinbaseChosen = false;
  /** anvil_setNextBlockBaseFeePerGas's base fee for the next block, in place of coreth's rules; used by that block. */
  private nextBaseFeeSet: bigint | undefined;
  /** A next block's time before the world's clock (`setNextBlockTime`); used by that block, unless the clock moves. */
  private nextTimeSet: bigint | undefined;
  /**
   * Balances (wei) and nonces by 40-hex address as the engine has them once the deferred requests are sent: read by
   * `accounts` or set by an atomic tx. Any request whose effect on them is unknown forgets them all, so the next atomic
   * tx and `eth_getTransactionCount` of the latest block need not ask the engine again.
   */
  private known = new Map<string, { balance: bigint; nonce: bigint }>();
  /**
   * EVM addresses (40-hex) `dev.impersonate` acts as, through the engine's own impersonation: a setting of the node,
   * as on anvil, not chain state, so snapshots, reverts, resets and saved states leave it as it is.
   */
  readonly impersonated = new Set<string>();
  /** anvil's `anvil_autoImpersonateAccount`: every address acts as an impersonated one (a setting, as above). */
  autoImpersonate = false;

  readonly world: World;
  /** The release emulated (`--node-version`), whose fee rules apply; the newest when undefined. */
  readonly release: string | undefined;
  private readonly rules: FeeRules;

  constructor(world: World, release?: string) {
    this.world = world;
    this.release = release;
    this.rules = new FeeRules(world, release);
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

  /**
   * A new engine at the genesis, which the indexer takes as the C-Chain's pre-fork genesis; when the world already has
   * C-Chain blocks and edits (a loaded state, a revert to before the engine existed), they are replayed into it.
   */
  private async create(): Promise<Provider> {
    const { provider, genesis } = await this.createEngine();
    this.fees = [];
    this.recordFees(genesis);
    const { extra } = this.fees[0]!;
    const { hash } = extra;
    const saved = this.world.preForkGenesis.get('C');
    if (!saved)
      acceptIntoIndexes(this.world, 'C', {
        id: blockIDOf(hash),
        height: 0,
        timestamp: BigInt(genesis.timestamp),
        bytes: corethBlockBytes(this, genesis, extra),
      });
    else if (saved.id !== blockIDOf(hash))
      throw new Error(`the saved C-Chain's genesis ${saved.id} is not this network's (${blockIDOf(hash)})`);
    if (await replayChain(this, provider))
      await this.calls(provider, [
        ['evm_setAutomine', [this.automine]],
        // The replay set each block's own coinbase.
        ['hardhat_setCoinbase', [`0x${this.coinbase}`]],
      ]);
    // A fork's chain continues from the fork block: its height, and what the next block builds on.
    if (this.world.fork) {
      const forkBlock = (await this.call(provider, 'eth_getBlockByNumber', ['latest', true])) as RpcBlock;
      if (Number(forkBlock.number) > 0) this.recordFees(forkBlock);
      else this.lastTime = BigInt(forkBlock.timestamp);
    }
    for (const address of this.impersonated) await this.call(provider, 'hardhat_impersonateAccount', [`0x${address}`]);
    return provider;
  }

  /**
   * The engine a first call needs, made beforehand by `prepare` when nothing it is made from has changed since (the
   * world's time, its saved genesis, automine), else made now.
   */
  private createEngine(): Promise<NewEngine> {
    const spare = this.spare;
    this.spare = undefined;
    if (spare && !this.world.fork && spare.config === configText(this.engineConfig(loadEdr().module)))
      return spare.engine.catch(() => this.newEngine());
    return this.newEngine();
  }

  /**
   * Makes the engine the first call would make, while the node is idle (../when-idle.ts): EDR's chain at the genesis
   * costs about as much CPU again as loading EDR. Nothing else is built: the world is left as it was (the genesis
   * block reaches the indexes when a call first uses the engine), and an engine that the world outgrew meanwhile is
   * dropped unused. Not for a fork, whose chain is read from its source.
   */
  prepare(): Promise<unknown> {
    if (this.touched || this.spare || this.world.fork) return Promise.resolve();
    const engine = this.newEngine();
    this.spare = { config: configText(this.engineConfig(loadEdr().module)), engine };
    // One that failed is left to the first call, which makes its own and reports why that failed.
    return engine.then(ignore, ignore);
  }

  /** A new engine, and its genesis block as it answers it. */
  private async newEngine(): Promise<NewEngine> {
    const { module, context } = loadEdr();
    const [ctx, fork] = await Promise.all([context, this.world.fork ? forkedFrom(this.world) : undefined]);
    const provider = await ctx.createProvider(
      module.L1_CHAIN_TYPE,
      this.engineConfig(module, fork),
      { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
      { subscriptionCallback: () => {} },
      new module.ContractDecoder(),
    );
    return { provider, genesis: (await this.call(provider, 'eth_getBlockByNumber', ['0x0', true])) as RpcBlock };
  }

  /** This chain's engine config on `fork`'s chain (./detached-call.ts's second engine). */
  forkConfig(fork: ForkConfig): ProviderConfig {
    return this.engineConfig(loadEdr().module, fork);
  }

  /** The new engine's chain: the genesis, the fee rules and the mining at the world's time, or the fork's. */
  private engineConfig(module: Edr, fork?: ForkConfig): ProviderConfig {
    const genesis = this.genesis;
    const time = this.world.time.get();
    const gasLimit = this.rules.gasLimit(time);
    this.engineHardfork = this.rules.hardfork(time);
    return {
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      // A reverted eth_call is then an error carrying its revert data, which rpc.ts answers as geth does.
      bailOnCallFailure: true,
      bailOnTransactionFailure: false,
      chainId: genesis.chainID,
      coinbase: Buffer.from(this.coinbase, 'hex'),
      defaultTransactionGasLimit: gasLimit,
      genesisState: genesis.alloc.map((a) => ({
        address: Buffer.from(a.address, 'hex'),
        balance: a.balance,
        ...(a.code ? { code: Buffer.from(a.code.slice(2), 'hex') } : {}),
      })),
      // coreth enables Cancun with Etna; it has no later Ethereum fork.
      hardfork: this.engineHardfork,
      initialBaseFeePerGas: INITIAL_BASE_FEE,
      minGasPrice: 0n,
      mining: {
        autoMine: this.automine,
        blockGasLimit: gasLimit,
        memPool: { order: module.MineOrdering.Fifo },
      },
      network: fork ?? {
        genesisBlockGasLimit: genesis.gasLimit,
        // A replayed chain's genesis is the saved one's; else the genesis file's time where it can be, or the world's.
        genesisBlockTime: this.world.preForkGenesis.get('C')?.timestamp ?? genesis.timestamp ?? time,
      },
      networkId: genesis.chainID,
      observability: {},
      ownedAccounts: [],
      precompileOverrides: [],
    };
  }

  /** Runs `op` on the engine after every call queued before it. */
  run<T>(op: (provider: Provider) => Promise<T>): Promise<T> {
    this.touched = true;
    return this.queue.run(() => {
      this.provider ??= this.create();
      return this.provider.then(async (provider) => {
        try {
          return await op(provider);
        } finally {
          await this.flush(provider);
        }
      });
    });
  }

  /** Inside a queued op: `work` runs while later ops run (./op-queue.ts); `queuedAt`: when the op was queued. */
  aside<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.aside(work);
  }

  /** Inside a queued op: `work` keeps the queue throughout (an override's edits are in the engine meanwhile). */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.hold(work);
  }

  get queuedAt(): number {
    return this.queue.queuedAt;
  }

  /**
   * Runs `op`, which may build blocks, then hands each new block to the indexer (./blocks.ts): the one way the C-Chain's
   * blocks reach `/ext/index/C/block` and proposervm; the last block `op` builds takes the atomic mempool's txs, if no
   * block of it did (`includeAtomic`: a tx the engine automined). Once
   * the engine has been read, `op`'s result is answered first, and the blocks are indexed in the same turn of the event
   * loop right after the answer is written (`afterAnswer`): no request is read in between, so none sees the chain
   * without them, and the caller does not wait for the bookkeeping. A failure of `op` is answered after it, as before.
   */
  write<T>(op: (provider: Provider) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let answered = false;
      this.run(async (provider) => {
        let result: T;
        try {
          this.setNextBlock();
          result = await op(provider);
        } catch (error) {
          await this.acceptNewBlocks(provider);
          throw error;
        }
        let blocks = await this.newBlocks(provider);
        const last = blocks.blocks.at(-1);
        if (last && !this.extras.has(Number(last.number)) && this.atomicBuilder?.pending()) {
          await this.includeAtomic(provider, last);
          blocks = await this.newBlocks(provider);
        }
        const root = await this.settle(provider, blocks);
        resolve(result);
        answered = true;
        await afterAnswer();
        await this.acceptBlocks(provider, blocks, root);
      }).catch((error: unknown) => {
        if (!answered) return reject(error);
        // The caller has its answer: an internal check failing after it is reported where it can be seen.
        process.emitWarning(error as Error);
      });
    });
  }

  /**
   * A tx the engine's pool took (`raw`, its signed bytes as hex): journaled for a saved state while it is pending, then
   * announced. A queued one (a nonce gap, ./nonce-queue.ts) is announced only once mined, as coreth announces only
   * executable txs; the queue is then held to coreth's caps (the engine's pool drops what coreth's would). `held`: the
   * engine held it in its pool while automining (see `sendTransaction`).
   */
  async pooled(provider: Provider, hash: string, raw: string, held?: Held): Promise<void> {
    // While automining, a tx not held is already mined.
    if (this.automine && !held) return this.announce(provider, [hash]);
    poolSent(this.world, hash, raw);
    if (held !== 'queued') {
      if (this.automine) this.announcedPending.add(hash);
      forgetReplaced(this.world, hash);
      return this.announce(provider, [hash]);
    }
    const drop = queueOverflow(this.world, hash);
    if (drop.length === 0) return;
    await dropFromEngine(this, provider, drop);
    for (const dropped of drop) this.world.cChainPool.delete(dropped);
  }

  private async announce(provider: Provider, hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) for (const listener of this.poolListeners) await listener(hash, provider).catch(ignore);
  }

  /**
   * The engine's next block gets coreth's base fee (./fees.ts), not EIP-1559's, and the world's time, as X's and P's
   * blocks do: the engine would stamp it with the machine's clock. A block may share its parent's time (coreth's
   * customheader.VerifyTime refuses only a time before the parent's), so blocks built while the world's clock stands
   * still carry one time.
   */
  private setNextBlock(): void {
    this.defer('hardhat_setNextBlockBaseFeePerGas', [hex(this.nextBaseFee())]);
    if (this.coinbaseChosen) this.defer('hardhat_setCoinbase', [`0x${this.coinbase}`]);
    if (this.randomIsDifficulty) this.defer('hardhat_setPrevRandao', [CORETH_PREVRANDAO]);
    this.deferNextBlockTime();
  }

  private deferNextBlockTime(): void {
    this.defer('evm_setNextBlockTimestamp', [hex(this.nextBlockTime())]);
  }

  /** The next block's time: the world's, never before the last block's (or the one `setNextBlockTime` set). */
  private nextBlockTime(): bigint {
    if (this.nextTimeSet !== undefined) return this.nextTimeSet;
    const now = this.world.time.get();
    return now > this.lastTime ? now : this.lastTime;
  }

  /**
   * EstimateNextBaseFee: the base fee of a block built on the last one at the world's time (coreth's clock), which is
   * the time and base fee the next block gets (`setNextBlock`).
   */
  nextBaseFee(): bigint {
    if (this.nextBaseFeeSet !== undefined) return this.nextBaseFeeSet;
    const last = this.fees.at(-1);
    const time = this.nextBlockTime();
    if (!last || this.estimate?.after !== last || this.estimate.time !== time)
      this.estimate = {
        after: last,
        time,
        baseFee: this.rules.nextBaseFee(last?.state, last?.timestamp ?? 0n, time),
      };
    return this.estimate.baseFee;
  }

  /** The engine's last block's height (read inside a queued op). */
  get height(): number {
    return this.fees.length - 1;
  }

  /** The gas price oracle's tip and base fee, at the world's time (coreth's oracle reads its clock). */
  suggestion(): { tip: bigint; baseFee: bigint } {
    // The oracle reads its CHECK_BLOCKS newest blocks, and the genesis apart when the chain has no more.
    // A fork holds no blocks below its fork block but the genesis: the holes are skipped.
    const newest = this.fees.slice(-CHECK_BLOCKS - 1).filter((fee) => fee !== undefined);
    return this.rules.suggest(newest.reverse(), this.nextBlockTime());
  }

  /**
   * The engine's blocks after the last indexed one, oldest first, into the indexes (genesis too, when the engine is
   * new). The world's C/block index holds one block per height after genesis, so its length is the last indexed height.
   */
  private async acceptNewBlocks(provider: Provider): Promise<void> {
    const blocks = await this.newBlocks(provider);
    await this.acceptBlocks(provider, blocks, await this.settle(provider, blocks));
  }

  /**
   * The engine's blocks after the last indexed one, oldest first, and the coinbase's balance after them when their
   * fees pay it (see `acceptBlocks`): every engine read their acceptance needs.
   */
  private async newBlocks(provider: Provider): Promise<{ blocks: RpcBlock[]; coinbases: Map<string, bigint> }> {
    const mined = this.mined?.at === this.sent ? this.mined : undefined;
    const last = mined?.block ?? ((await this.call(provider, 'eth_getBlockByNumber', ['latest', true])) as RpcBlock);
    const latest = Number(last.number);
    const blocks: RpcBlock[] = [];
    // The last accepted height: a fork's source blocks up to its fork block are never this chain's to accept.
    const accepted = this.height;
    for (let height = accepted + 1; height < latest; height++)
      blocks.push((await this.call(provider, 'eth_getBlockByNumber', [hex(BigInt(height)), true])) as RpcBlock);
    if (latest > accepted) blocks.push(last);
    const coinbases = new Map<string, bigint>();
    for (const block of blocks) {
      const miner = block.miner.slice(2).toLowerCase();
      if (baseFeesOf(block) === 0n || coinbases.has(miner)) continue;
      const read = miner === this.coinbase ? mined?.coinbase : undefined;
      coinbases.set(miner, read ?? (await this.balance(provider, miner)));
    }
    return { blocks, coinbases };
  }

  /**
   * The new blocks' edits outside their transactions, and the root of the state they leave: coreth pays the coinbase
   * each tx's whole fee, gas used times the effective gas price (core/state_transition.go), where the engine burns the
   * base fee part; that part is paid here, journaled at the last block for a replay. What the last block's atomic txs
   * (./avax.ts) and fees changed is its state on coreth, whose header names its root: undefined when nothing changed.
   */
  private async settle(
    provider: Provider,
    { blocks, coinbases }: { blocks: RpcBlock[]; coinbases: Map<string, bigint> },
  ): Promise<`0x${string}` | undefined> {
    const last = blocks.at(-1);
    if (!last) return undefined;
    const paid = new Map(coinbases);
    for (const block of blocks) {
      const miner = block.miner.slice(2).toLowerCase();
      if (paid.has(miner)) paid.set(miner, paid.get(miner)! + baseFeesOf(block));
    }
    for (const [miner, balance] of paid) this.setBalance(miner, balance, Number(last.number));
    // The engine proves no state a fork changed locally ("unsupported in fork mode"): a fork's blocks keep its roots.
    return this.deferred.some(isEdit) && !this.world.fork ? this.stateRoot(provider) : undefined;
  }

  /**
   * Each new block into the indexes (genesis too, when the engine is new), with its atomic txs, the last one under
   * the `root` its edits left (`settle`), then announced. Nothing is awaited before the blocks are indexed (`write`).
   */
  private async acceptBlocks(
    provider: Provider,
    { blocks }: { blocks: RpcBlock[] },
    root: `0x${string}` | undefined,
  ): Promise<void> {
    const last = blocks.at(-1);
    // The set base fee and time were the next block's only.
    if (last) this.nextBaseFeeSet = this.nextTimeSet = undefined;
    const promoted: string[][] = [];
    blocks.forEach((block) => {
      const height = Number(block.number);
      this.recordFees(block === last && root ? { ...block, stateRoot: root } : block, this.extras.get(height));
      this.extras.delete(height);
      // A block after the genesis is named by its proposervm block.
      acceptIntoIndexes(this.world, 'C', {
        height,
        timestamp: BigInt(block.timestamp),
        bytes: corethBlockBytes(this, block, this.fees[height]!.extra),
      });
      const pool = this.world.cChainPool;
      promoted.push(
        pool.size > 0
          ? block.transactions
              .filter((tx) => pool.delete(tx.hash) && !this.announcedPending.delete(tx.hash))
              .map((tx) => tx.hash)
          : [],
      );
    });
    for (const [i, block] of blocks.entries()) {
      // While automining, a pooled tx mined later was a queued one, not announced until now (see `pooled`).
      if (this.automine) await this.announce(provider, promoted[i]!);
      for (const listener of this.blockListeners) await listener(block, provider).catch(ignore);
    }
  }

  /**
   * The block's fee state from its parent's (the genesis's is acp176.State's zero value), its tips, and coreth's extras:
   * its atomic txs and their gas, its block gas cost.
   */
  recordFees(block: RpcBlock, atomic?: AtomicExtra): void {
    const timestamp = BigInt(block.timestamp);
    const height = Number(block.number);
    const parent = this.fees[height - 1];
    const state = parent
      ? this.rules.after(
          this.rules.before(parent.state, parent.timestamp, timestamp),
          BigInt(block.gasUsed),
          atomic?.gasUsed ?? 0n,
        )
      : this.rules.genesis(timestamp);
    const extra = corethExtraOf(this.world, block, atomic, parent, state, this.release);
    const baseFee = BigInt(block.baseFeePerGas ?? '0x0');
    const tips = block.transactions.map((tx) => {
      const cap = BigInt(tx.maxFeePerGas ?? tx.gasPrice ?? '0x0') - baseFee;
      const tip = tx.maxPriorityFeePerGas === undefined ? cap : BigInt(tx.maxPriorityFeePerGas);
      return tip < cap ? tip : cap;
    });
    this.fees.length = height;
    this.fees.push({ state, timestamp, tips, extra });
    this.lastTime = timestamp;
  }

  /** What coreth adds to the engine's block at `height` (read inside a queued op). */
  corethExtra(height: number): CorethExtra | undefined {
    return this.fees[height]?.extra;
  }

  /**
   * One JSON-RPC request, as JSON, to the engine: its answer, `{"result":…}` or `{"error":…}`, as JSON, as the engine
   * gave it (the deferred requests go first, on their own).
   */
  async raw(provider: Provider, request: string): Promise<string> {
    await this.flush(provider);
    return this.send(provider, request);
  }

  /**
   * A transaction sent as a JSON request (`eth_sendRawTransaction`, `eth_sendTransaction`) inside a `write`: the
   * engine's answer as `raw` gives it, from one engine request that sends the deferred requests before it and reads the
   * latest block after it, which `acceptNewBlocks` then takes. The engine stops a batch at its first error and answers
   * that error as it answers the call alone.
   */
  async sendTransaction(provider: Provider, request: string): Promise<{ answer: string; held?: Held }> {
    const requests = [
      ...this.deferred.map((deferred) => JSON.stringify(deferred)),
      request,
      LATEST_BLOCK,
      balanceRequest(this.coinbase),
    ];
    this.deferred = [];
    const answer = await this.send(provider, `[${requests.join(',')}]`);
    const { result, error } = JSON.parse(answer) as { result?: unknown[]; error?: { message?: unknown } };
    if (result) {
      this.mined = { block: result.at(-2) as RpcBlock, at: this.sent, coinbase: BigInt(result.at(-1) as string) };
      return { answer: `{"result":${JSON.stringify(result.at(-3))}}` };
    }
    const refusal = String(error?.message);
    // coreth queues a nonce gap (./nonce-queue.ts), and pools a fee cap below the next block's base fee (its pool's
    // only floor is acp176.MinGasPrice, vm.go SetMinFee; the miner leaves the tx out until a base fee is at most its
    // cap); the engine holds either only while not automining.
    const held = refusal.startsWith('Nonce too high')
      ? 'queued'
      : / is too low for the next block, which has a baseFeePerGas of /.test(refusal)
        ? 'pending'
        : undefined;
    if (!this.automine || !held) return { answer };
    const pooled = await this.send(provider, `[${setAutomine(false)},${request},${setAutomine(true)}]`);
    const { result: sent } = JSON.parse(pooled) as { result?: unknown[] };
    if (sent) return { answer: `{"result":${JSON.stringify(sent[1])}}`, held };
    // The engine stopped at the refusal: automining is turned back on on its own.
    await this.send(provider, setAutomine(true), true);
    return { answer: pooled };
  }

  /** `keepsKnown`: the request changes no balance or nonce but by the edits `known` already holds. */
  private send(provider: Provider, request: string, keepsKnown = false): Promise<string> {
    this.sent++;
    if (!keepsKnown) this.known.clear();
    if (EDITS.test(request)) this.moves++;
    return provider.handleRequest(request).then((response) => {
      const data = response.data;
      return typeof data === 'string' ? data : JSON.stringify(data);
    });
  }

  /**
   * The root of the engine's latest state, edits included: the root node of any account's proof. The engine's header
   * keeps the root its transactions left; eth_getProof reads the state as edited, which coreth's header names.
   */
  private async stateRoot(provider: Provider): Promise<`0x${string}` | undefined> {
    const [proof] = await this.calls(provider, [['eth_getProof', [`0x${this.coinbase}`, [], 'latest']]], true).catch(
      () => [undefined],
    );
    const node = (proof as { accountProof?: string[] } | undefined)?.accountProof?.[0];
    return node ? keccakHex(Buffer.from(node.slice(2), 'hex')) : undefined;
  }

  /** Sends the deferred requests now. */
  private async flush(provider: Provider): Promise<void> {
    if (this.deferred.length > 0) await this.calls(provider, [], true);
  }

  /** A request whose answer nobody reads, sent with the next call (see `deferred`). */
  private defer(method: string, params: unknown[]): void {
    this.deferred.push({ jsonrpc: '2.0', id: this.deferred.length, method, params });
  }

  /**
   * Calls on the engine inside a queued op, in one engine request after the deferred ones: their results in order, or
   * the first error (the engine stops there) thrown as EvmError.
   */
  async calls(
    provider: Provider,
    list: ReadonlyArray<readonly [string, unknown[]]>,
    keepsKnown = false,
  ): Promise<unknown[]> {
    const requests = [
      ...this.deferred,
      ...list.map(([method, params], i) => ({ jsonrpc: '2.0', id: i, method, params })),
    ];
    this.deferred = [];
    const answer = JSON.parse(
      await this.send(provider, JSON.stringify(requests.length === 1 ? requests[0] : requests), keepsKnown),
    ) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (answer.error) throw new EvmError(answer.error.code, answer.error.message, answer.error.data);
    const results = requests.length === 1 ? [answer.result] : (answer.result as unknown[]);
    return results.slice(results.length - list.length);
  }

  /** A call on the engine inside a queued op: its result (logs as coreth writes them), or its error thrown as EvmError. */
  async call(provider: Provider, method: string, params: unknown[] = []): Promise<unknown> {
    return withCorethLogs(method, (await this.calls(provider, [[method, params]]))[0]);
  }

  /** A call queued on its own. */
  request(method: string, params: unknown[] = []): Promise<unknown> {
    return this.run((p) => this.call(p, method, params));
  }

  private async latestHeader(provider: Provider): Promise<{ number: string; timestamp: string }> {
    return (await this.call(provider, 'eth_getBlockByNumber', ['latest', false])) as {
      number: string;
      timestamp: string;
    };
  }

  async balance(provider: Provider, address: string): Promise<bigint> {
    return BigInt((await this.call(provider, 'eth_getBalance', [`0x${address}`, 'latest'])) as string);
  }

  /** The balances (wei) and nonces of 40-hex addresses, in one engine request (none when all are known). */
  async accounts(
    provider: Provider,
    addresses: readonly string[],
  ): Promise<Map<string, { balance: bigint; nonce: bigint }>> {
    if (addresses.every((address) => this.known.has(address)))
      return new Map(addresses.map((address) => [address, { ...this.known.get(address)! }]));
    const reads = addresses.flatMap(
      (address): Array<[string, unknown[]]> => [
        ['eth_getBalance', [`0x${address}`, 'latest']],
        ['eth_getTransactionCount', [`0x${address}`, 'latest']],
      ],
    );
    const results = (await this.calls(provider, reads, true)) as string[];
    const read = new Map(
      addresses.map((address, i) => [
        address,
        { balance: BigInt(results[2 * i]!), nonce: BigInt(results[2 * i + 1]!) },
      ]),
    );
    for (const [address, account] of read) this.known.set(address, { ...account });
    return read;
  }

  /**
   * What the engine would answer to `eth_getBalance` or `eth_getTransactionCount` of a 40-hex address at the latest
   * block, when known (inside a queued op); undefined otherwise.
   */
  knownAccount(address: string): { balance: bigint; nonce: bigint } | undefined {
    return this.known.get(address);
  }

  /**
   * Sets a balance outside any transaction (an atomic tx, a funding), journaled in the world for a replay; the engine
   * takes it with the op's next call.
   */
  setBalance(address: string, wei: bigint, height = this.height): void {
    this.edit({ address, balance: wei }, height);
    const known = this.known.get(address);
    if (known) known.balance = wei;
  }

  setNonce(address: string, nonce: bigint, height = this.height): void {
    this.edit({ address, nonce }, height);
    const known = this.known.get(address);
    if (known) known.nonce = nonce;
  }

  /** Makes an edit of an account at once (inside a queued op), journaled only once the engine took it. */
  async editNow(provider: Provider, change: Omit<CChainEdit, 'height'>): Promise<void> {
    await this.calls(provider, editRequests(change));
    this.world.cChainEdits.push({ height: this.height, ...change });
  }

  /**
   * Journals an edit of an account outside any transaction, after the block at `height` (an atomic tx's: the block
   * that holds it, which the engine has built but not yet handed to `recordFees`), and sends it with the op's next call.
   */
  edit(change: Omit<CChainEdit, 'height'>, height = this.height): void {
    this.world.cChainEdits.push({ height, ...change });
    for (const [method, params] of editRequests(change)) this.defer(method, params);
  }

  /** Mines `count` blocks (the first holding what the pool has) inside a `write`, each at ACP-176's base fee. */
  async mineBlocks(provider: Provider, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (i > 0) {
        await this.acceptNewBlocks(provider);
        this.setNextBlock();
      }
      const known = new Map(this.known);
      const [, block] = await this.calls(provider, [
        ['evm_mine', []],
        ['eth_getBlockByNumber', ['latest', true]],
      ]);
      this.mined = { block: block as RpcBlock, at: this.sent };
      // A block without transactions changes no account but the coinbase's (the engine's block reward before Shanghai).
      if ((block as RpcBlock).transactions.length === 0) {
        known.delete(this.coinbase);
        this.known = known;
      }
      if (this.atomicBuilder?.pending()) await this.includeAtomic(provider, block as RpcBlock);
    }
  }

  /** The atomic mempool's txs into the block the engine just built (see AtomicBuilder). */
  private async includeAtomic(provider: Provider, block: RpcBlock): Promise<void> {
    this.extras.set(Number(block.number), await this.atomicBuilder!.build(this, provider, block));
  }

  /**
   * customheader.RemainingAtomicGasCapacity of the block just built (its fee state not yet recorded): AP5's 100,000
   * before Fortuna, then ACP-176's capacity before the block less the gas its EVM txs used. The mock's clock stands
   * still between time calls, so a block at its parent's time counts here as one second after it, as the P-Chain's
   * capacity does: else a session's blocks at one time would drain it for good and strand every atomic tx after.
   */
  remainingAtomicGas(block: RpcBlock): bigint {
    const timestamp = BigInt(block.timestamp);
    const parent = this.fees[Number(block.number) - 1];
    if (!parent || !this.rules.active('fortuna', timestamp)) return 100_000n;
    const at = timestamp > parent.timestamp ? timestamp : parent.timestamp + 1n;
    const before = this.rules.before(parent.state, parent.timestamp, at);
    const used = BigInt(block.gasUsed);
    return before.kind === 'acp176' && before.capacity > used ? before.capacity - used : 0n;
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
        return undefined;
      }
      await this.call(p, 'evm_revert', [engineID]);
      const latest = await this.latestHeader(p);
      this.fees.length = Number(latest.number) + 1;
      this.lastTime = BigInt(latest.timestamp);
      return (await this.call(p, 'evm_snapshot')) as string;
    });
    this.marks.set(id, again);
    return again.then(ignore, ignore);
  }

  /** The chain as it started: the next call creates it anew. */
  reset(): Promise<void> {
    this.marks.clear();
    this.coinbase = COINBASE;
    this.coinbaseChosen = false;
    this.nextBaseFeeSet = this.nextTimeSet = undefined;
    this.announcedPending.clear();
    if (!this.touched) return Promise.resolve();
    const done = this.run(async () => {
      this.moves++;
      this.provider = undefined;
    });
    this.touched = false;
    return done.catch(ignore);
  }

  /**
   * The world's clock moved: the next C-Chain block is at its time (never before the last block), which the pending
   * block shows at once; `mine` builds that block now.
   */
  moveTime(mine: boolean): Promise<void> {
    this.nextTimeSet = undefined;
    if (!this.touched) return Promise.resolve();
    if (mine) return this.write((p) => this.mineBlocks(p, 1)).catch(ignore);
    return this.run(async () => this.deferNextBlockTime()).catch(ignore);
  }

  /**
   * The interval's C block (../engine/engine.ts): built from the pool only when it holds a transaction the engine
   * would mine, as coreth's builder waits for pending txs (plugin/evm/block_builder.go needToBuild): no empty blocks.
   */
  minePending(): Promise<void> {
    const atomic = this.atomicBuilder?.pending() === true;
    if (this.automine || (this.world.cChainPool.size === 0 && !atomic)) return Promise.resolve();
    // One tick at a time: ticks that come while one is queued join it, so a short interval on a busy engine (or a
    // pool holding only nonce-gapped transactions) never piles up work ahead of the calls.
    this.ticking ??= this.write(async (p) => {
      if (atomic || Number(await this.call(p, 'eth_getBlockTransactionCountByNumber', ['pending'])) > 0)
        await this.mineBlocks(p, 1);
    })
      .catch(ignore)
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  /** Whether each tx is mined at once (coreth builds as soon as a tx waits; the mock's automine stands for that). */
  get autoMining(): boolean {
    return this.automine;
  }

  setAutomine(enabled: boolean): Promise<void> {
    this.automine = enabled;
    if (!this.touched) return Promise.resolve();
    return this.run(async (p) => {
      await this.call(p, 'evm_setAutomine', [enabled]);
    }).catch(ignore);
  }

  /**
   * evm_setNextBlockTimestamp of a time before the world's clock, which never goes back (the P-Chain's time): the next
   * block alone gets it, as Hardhat and anvil give it, where the last block is older than the clock (a fresh chain's
   * genesis is the network's, years before it; coreth's VerifyTime refuses only a time before the parent's).
   */
  setNextBlockTime(time: bigint): Promise<void> {
    return this.run(async () => {
      this.nextTimeSet = time;
      this.setNextBlock();
    });
  }

  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee (wei), which the pending block shows at once. */
  setNextBaseFee(wei: bigint): Promise<void> {
    return this.run(async (p) => {
      await this.calls(p, [['hardhat_setNextBlockBaseFeePerGas', [hex(wei)]]], true);
      this.nextBaseFeeSet = wei;
    });
  }

  /** anvil_setCoinbase: the coinbase (40-hex) of every block from the next one. */
  setCoinbase(address: string): Promise<void> {
    return this.run(async (p) => {
      await this.calls(p, [['hardhat_setCoinbase', [`0x${address}`]]], true);
      this.coinbase = address;
      this.coinbaseChosen = true;
    });
  }

  /** Adds `nAVAX` to an EVM address (40-hex): its balance after, in wei. */
  fund(address: string, nAVAX: bigint): Promise<bigint> {
    return this.run(async (p) => {
      const balance = (await this.balance(p, address)) + nAVAX * X2C_RATE;
      this.setBalance(address, balance);
      return balance;
    });
  }

  /** Lets `eth_sendTransaction` from an EVM address (40-hex) go unsigned (`on`), or no longer. */
  impersonate(address: string, on: boolean): Promise<void> {
    if (on) this.impersonated.add(address);
    else this.impersonated.delete(address);
    if (!this.touched) return Promise.resolve();
    const method = on ? 'hardhat_impersonateAccount' : 'hardhat_stopImpersonatingAccount';
    return this.run(async (p) => {
      await this.calls(p, [[method, [`0x${address}`]]], true);
    });
  }
}
