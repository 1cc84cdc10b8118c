/**
 * `/ext/bc/C/avax`, coreth's atomic API (plugin/evm/atomic/vm/api.go): the UTXOs X and P exported to C, and the
 * atomic transactions. An accepted ImportTx or ExportTx changes shared memory in the world and balances and nonces in
 * the EVM once a block includes it: it waits in coreth's atomic mempool (./atomic-pool.ts) for the next block, built at
 * once while automining; its record, like the pool and shared memory, is journaled in the world, so snapshots cover it.
 */
import { RLP } from '@ethereumjs/rlp';
import { decodeBytes } from '../shared/formatting.ts';
import { idOf } from '../world/codec.ts';
import { Refusal } from '../engine/refusals.ts';
import { type Params, type UtxoPageParams, encode, encodingOf, parseID, utxoPage } from '../world/reads.ts';
import { Table } from '../world/journal.ts';
import { atomicKey, type World } from '../world/world.ts';
import type { Encoding } from '../world/types.ts';
import type { AtomicTx } from './atomic.ts';
import { AtomicPool } from './atomic-pool.ts';
import { corethVersion } from './coreth-version.ts';
import type { AtomicBuilder, AtomicExtra, CChain } from './evm.ts';
import type { RpcBlock } from './blocks.ts';
import type { Provider } from '@nomicfoundation/edr';

interface AtomicRecord {
  bytes: Uint8Array;
  blockHeight: bigint;
}

const ZERO_ID = '11111111111111111111111111111111LpoYY';
/** A C block's ExtData, from coreth's block RLP the C/block index holds (header, txs, uncles, version, ExtData). */
const extDataOf = (inner: Uint8Array): Uint8Array => (RLP.decode(inner) as Uint8Array[])[4]!;

/** vm.go targetAtomicTxsSize: a block's atomic txs' bytes stop short of it. */
const TARGET_ATOMIC_TXS_SIZE = 40 * 1024;

/**
 * What a tx needs and the reads do not: avalanchejs' codec, the verification (./atomic.ts), the fee rules of the
 * genesis view. Loaded by the first issueTx (or while the node idles, ../lazy-cchain.ts), so the first read loads
 * only this module.
 */
type TxModules = typeof import('./atomic.ts') & typeof import('./genesis-view.ts');
let txModules: TxModules | undefined;
export const loadTxModules = (): Promise<TxModules> =>
  Promise.all([import('./atomic.ts'), import('./genesis-view.ts')]).then(
    ([atomic, view]) => (txModules = { ...atomic, ...view }),
  );

/** The EVM as the atomic API reaches it (../lazy-cchain.ts). */
export interface EvmSource {
  /** The EVM, loaded (and its engine created) on the first call. */
  chain(): CChain | Promise<CChain>;
  /** Whether no call has run on the engine nor is queued to: one created now would start from the world as it is. */
  unstarted(): boolean;
}

export class AtomicApi implements AtomicBuilder {
  /** Accepted atomic txs by ID (coreth's AtomicRepository). */
  private readonly accepted: Table<string, AtomicRecord>;
  private readonly pool: AtomicPool;
  /**
   * The accepted txs of the C blocks a world came with (a `--state` file, dev.loadState: coreth's repository is on its
   * disk), each with its block's index entry, which must still be the world's for the record to hold.
   */
  private readonly loaded = new Map<string, AtomicRecord & { entry: unknown }>();
  /** Whether `loaded` is still to be read from the world's C blocks. */
  private stale: boolean;

  private readonly world: World;
  /** The EVM, loaded on the first tx to accept (./evm.ts): the reads and refusals before it started need only the world. */
  private readonly evm: EvmSource;
  /** The AvalancheGo release the mock answers as (`--node-version`), whose coreth `avax.version` names. */
  private readonly nodeVersion?: string;

  constructor(world: World, evm: EvmSource, nodeVersion?: string) {
    this.world = world;
    this.evm = evm;
    this.nodeVersion = nodeVersion;
    this.accepted = new Table(world.journal);
    this.pool = new AtomicPool(world);
    // A fork's C blocks are its own, each recorded as it is built; a forked world is never saved nor loaded.
    this.stale = !world.fork && world.indexes['C/block'].length > 0;
  }

  /** avax.getUTXOs: only from another chain (`sourceChain` is required), for `C-` addresses. */
  getUTXOs(p: UtxoPageParams) {
    const addresses = Array.isArray(p.addresses) ? p.addresses : [];
    if (addresses.length > 0 && addresses.length <= 1024 && (typeof p.sourceChain !== 'string' || !p.sourceChain))
      throw new Error('no source chain provided');
    try {
      return utxoPage(this.world, 'C' as never, p);
    } catch (error) {
      // The address parser is coreth's own (atomic/vm/formatting.go), worded apart from the avm's, and its failure
      // for the start index is not wrapped in "couldn't parse address %q" (atomic/vm/api.go).
      const message = (error as Error).message
        .replace(/mismatched chainIDs: expected ("[^"]*") but got ("[^"]*")/, 'expected chainID to be $1 but was $2')
        .replace(
          /^(couldn't parse start index address "(?:[^"\\]|\\.)*": )couldn't parse address "(?:[^"\\]|\\.)*": /,
          '$1',
        );
      throw new Error(message);
    }
  }

  /** avax.issueTx: decoded, verified at the tip and, when valid, accepted in a new C-Chain block. */
  issueTx(p: Params<'tx' | 'encoding'>): Promise<{ txID: string }> {
    let bytes: Uint8Array;
    try {
      bytes = decodeBytes(String(p.tx ?? ''), encodingOf(p));
    } catch (error) {
      throw new Refusal(`problem decoding transaction: ${(error as Error).message}`);
    }
    return txModules ? this.issue(txModules, bytes) : loadTxModules().then((modules) => this.issue(modules, bytes));
  }

  private issue(modules: TxModules, bytes: Uint8Array): Promise<{ txID: string }> {
    let atomic: AtomicTx;
    try {
      atomic = modules.decodeAtomic(bytes);
    } catch (error) {
      throw new Refusal(`problem parsing transaction: ${(error as Error).message}`);
    }
    // IssueTx ignores ErrAlreadyKnown: a pending tx issued again is answered its ID.
    if (this.pool.has(atomic.id)) return Promise.resolve({ txID: atomic.id });
    // Refused at once when the engine has not started: EDR loads and creates its chain for a tx to accept.
    const start = this.evm.unstarted() ? modules.genesisView(this.world, this.nodeVersion) : undefined;
    if (start) modules.verifyAtomic(this.world, atomic, start);
    const chain = this.evm.chain();
    return chain instanceof Promise
      ? chain.then((c) => this.add(modules, c, atomic))
      : this.add(modules, chain, atomic);
  }

  /**
   * AddLocalTx: verified at the tip (vm.verifyTxAtTip, the next block's base fee at the world's time), then into the
   * pool; while automining the next block is built at once, as coreth's builder builds as soon as a tx waits.
   */
  private add({ accountsOf, effectiveGasPrice, inputIDs, verifyAtomic }: TxModules, chain: CChain, atomic: AtomicTx) {
    chain.atomicBuilder = this;
    return chain.write(async (provider) => {
      if (this.pool.has(atomic.id)) return { txID: atomic.id };
      const accounts = await chain.accounts(provider, accountsOf(atomic));
      verifyAtomic(this.world, atomic, {
        baseFee: chain.nextBaseFee(),
        balance: (a) => accounts.get(a)?.balance ?? 0n,
        nonce: (a) => accounts.get(a)?.nonce ?? 0n,
      });
      this.pool.add(atomic.id, { bytes: atomic.bytes, gasPrice: effectiveGasPrice(atomic), inputs: inputIDs(atomic) });
      if (chain.autoMining) await chain.mineBlocks(provider, 1);
      return { txID: atomic.id };
    });
  }

  /**
   * The world was replaced (dev.reset, dev.loadState): the pool starts empty, as a node's does, and the accepted txs
   * are those of its C blocks.
   */
  reset(): void {
    this.pool.clear();
    for (const id of [...this.accepted.keys()]) this.accepted.delete(id);
    // `loaded` keeps the records of the world replaced: a revert to before the load brings its blocks back.
    this.stale = !this.world.fork;
  }

  /** Reads `loaded` from the world's C blocks (loading the codec first when one of them holds atomic txs). */
  private async readBlocks(): Promise<void> {
    const blocks = this.world.indexes['C/block'];
    const extData = () => Array.from({ length: blocks.length }, (_, i) => extDataOf(blocks.at(i)!.block!.inner));
    if (!txModules && extData().some((data) => data.length > 0)) await loadTxModules();
    if (!this.stale) return;
    extData().forEach((data, i) => {
      if (data.length === 0) return;
      for (const tx of txModules!.batchTxs(data))
        this.loaded.set(idOf(tx), { bytes: tx, blockHeight: BigInt(i + 1), entry: blocks.at(i) });
    });
    this.stale = false;
  }

  pending(): boolean {
    return this.pool.size > 0;
  }

  /**
   * postBatchOnFinalizeAndAssemble on the block the engine built: the pending txs by gas price while their bytes stay
   * within targetAtomicTxsSize and their gas within the block's atomic gas capacity (the rest wait), each verified on
   * the state the block's EVM txs and the batch's earlier txs left, at the block's base fee; one spending a UTXO the
   * batch spends, or failing verification, is discarded. The batch is accepted with the block (the mock accepts every
   * block it builds): shared memory, the EVM balances and nonces after the block, the accepted txs' records.
   */
  async build(chain: CChain, provider: Provider, block: RpcBlock): Promise<AtomicExtra | undefined> {
    const { accountsOf, atomicBatch, decodeAtomic, gasUsed, inputIDs, verifyAtomic } = txModules!;
    const ids = this.pool.byPrice();
    const txs = ids.map((id) => decodeAtomic(this.pool.entry(id)!.bytes));
    const accounts = await chain.accounts(provider, [...new Set(txs.flatMap(accountsOf))]);
    const view = {
      baseFee: BigInt(block.baseFeePerGas ?? '0x0'),
      balance: (a: string) => accounts.get(a)?.balance ?? 0n,
      nonce: (a: string) => accounts.get(a)?.nonce ?? 0n,
    };
    const limit = chain.remainingAtomicGas(block);
    const height = Number(block.number);
    const batch: AtomicTx[] = [];
    const spent = new Set<string>();
    const balances = new Map<string, bigint>();
    const nonces = new Map<string, bigint>();
    let size = 0;
    let gas = 0n;
    for (const atomic of txs) {
      const txGas = gasUsed(atomic);
      if (size + atomic.bytes.length > TARGET_ATOMIC_TXS_SIZE || gas + txGas > limit) break;
      const inputs = inputIDs(atomic);
      let effects: ReturnType<typeof verifyAtomic>;
      try {
        if (inputs.some((input) => spent.has(input))) throw new Error('conflicting atomic inputs');
        effects = verifyAtomic(this.world, atomic, view);
      } catch {
        this.pool.discard(atomic.id);
        continue;
      }
      for (const input of inputs) spent.add(input);
      for (const key of effects.imported) this.world.atomic.delete(key);
      for (const utxo of effects.exported) this.world.atomic.set(atomicKey(utxo.destinationChain, utxo.key), utxo);
      for (const [address, wei] of effects.balances) {
        accounts.set(address, { nonce: view.nonce(address), balance: wei });
        balances.set(address, wei);
      }
      for (const [address, nonce] of effects.nonces) {
        accounts.set(address, { balance: view.balance(address), nonce });
        nonces.set(address, nonce);
      }
      this.pool.remove(atomic.id);
      this.accepted.set(atomic.id, { bytes: atomic.bytes, blockHeight: BigInt(height) });
      batch.push(atomic);
      size += atomic.bytes.length;
      gas += txGas;
    }
    if (batch.length === 0) return undefined;
    for (const [address, wei] of balances) chain.setBalance(address, wei, height);
    for (const [address, nonce] of nonces) chain.setNonce(address, nonce, height);
    return { extData: atomicBatch(batch.map((atomic) => atomic.bytes)), gasUsed: gas };
  }

  private record(p: Params<'txID'>): { id: string; record?: AtomicRecord } {
    const id = parseID(p.txID) ?? String(p.txID ?? '');
    if (id === ZERO_ID || id === '') throw new Error('nil transaction ID');
    const loaded = this.loaded.get(id);
    const held = loaded && this.world.indexes['C/block'].at(Number(loaded.blockHeight) - 1) === loaded.entry;
    return { id, record: this.accepted.get(id) ?? (held ? loaded : undefined) };
  }

  /** A read once the world's C blocks have been read (see `loaded`). */
  private read<T>(answer: () => T): T | Promise<T> {
    return this.stale ? this.readBlocks().then(answer) : answer();
  }

  getAtomicTxStatus(p: Params<'txID'>) {
    return this.read(() => this.status(p));
  }

  getAtomicTx(p: Params<'txID' | 'encoding'>) {
    return this.read(() => this.tx(p));
  }

  /** getAtomicTx's status: the accepted txs' repository first, then the mempool (pending or discarded). */
  private status(p: Params<'txID'>): {
    status: 'Accepted' | 'Processing' | 'Dropped' | 'Unknown';
    blockHeight?: string;
  } {
    const { id, record } = this.record(p);
    if (record) return { status: 'Accepted', blockHeight: String(record.blockHeight) };
    const pooled = this.pool.lookup(id);
    return { status: pooled ? (pooled.dropped ? 'Dropped' : 'Processing') : 'Unknown' };
  }

  private tx(p: Params<'txID' | 'encoding'>): { tx: string; encoding: Encoding; blockHeight?: string } {
    const { id, record } = this.record(p);
    const bytes = record?.bytes ?? this.pool.lookup(id)?.bytes;
    if (!bytes) throw new Error(`could not find tx ${id}`);
    const encoding = encodingOf(p);
    const tx = encode(bytes, encoding);
    return record ? { tx, encoding, blockHeight: String(record.blockHeight) } : { tx, encoding };
  }

  /** coreth's version in the release served. */
  version() {
    return { version: corethVersion(this.nodeVersion) };
  }
}
