/**
 * `/ext/bc/C/avax`, coreth's atomic API (plugin/evm/atomic/vm/api.go): the UTXOs X and P exported to C, and the
 * atomic transactions. An accepted ImportTx or ExportTx changes shared memory in the world and balances and nonces in
 * the EVM, and is included in a C-Chain block of its own at once (the mock builds one per atomic tx, whatever the
 * mining mode); its record, like shared memory, is journaled in the world, so snapshots cover it.
 */
import { decodeBytes } from '../shared/formatting.ts';
import { Refusal } from '../engine/refusals.ts';
import { type Params, encode, encodingOf, parseID, utxoPage } from '../world/reads.ts';
import { Table } from '../world/journal.ts';
import { atomicKey, type World } from '../world/world.ts';
import type { Encoding } from '../world/types.ts';
import type { AtomicTx } from './atomic.ts';
import { corethVersion } from './coreth-version.ts';
import type { AtomicExtra, CChain } from './evm.ts';

interface AtomicRecord {
  bytes: Uint8Array;
  blockHeight: bigint;
}

const ZERO_ID = '11111111111111111111111111111111LpoYY';

/**
 * A block's ExtData since AP5: atomic.Codec of the []*Tx batch (codec version, u32 count, then each tx without its own
 * version prefix).
 */
function atomicBatch(tx: Uint8Array): Uint8Array {
  const head = Buffer.alloc(6);
  head.writeUInt32BE(1, 2);
  return Buffer.concat([head, tx.subarray(2)]);
}

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

export class AtomicApi {
  /** Accepted atomic txs by ID (coreth's AtomicRepository). */
  private readonly accepted: Table<string, AtomicRecord>;

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
  }

  /** avax.getUTXOs: only from another chain (`sourceChain` is required), for `C-` addresses. */
  getUTXOs(p: Params) {
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
  issueTx(p: Params): Promise<{ txID: string }> {
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
    // Refused at once when the engine has not started: EDR loads and creates its chain for a tx to accept.
    const start = this.evm.unstarted() ? modules.genesisView(this.world, this.nodeVersion) : undefined;
    if (start) modules.verifyAtomic(this.world, atomic, start);
    const chain = this.evm.chain();
    return chain instanceof Promise
      ? chain.then((c) => this.accept(modules, c, atomic, bytes))
      : this.accept(modules, chain, atomic, bytes);
  }

  /** Verifies the decoded tx at the tip and, when valid, accepts it in a new block (queued after the calls before). */
  private accept(
    { accountsOf, gasUsed, verifyAtomic }: TxModules,
    chain: CChain,
    atomic: AtomicTx,
    bytes: Uint8Array,
  ): Promise<{ txID: string }> {
    const { world } = this;
    let extra: AtomicExtra | undefined;
    return chain.write(
      async (provider) => {
        const accounts = await chain.accounts(provider, accountsOf(atomic));
        const baseFee = chain.nextBaseFee();
        const height = BigInt(chain.height + 1);
        const effects = verifyAtomic(world, atomic, {
          baseFee,
          balance: (a) => accounts.get(a)?.balance ?? 0n,
          nonce: (a) => accounts.get(a)?.nonce ?? 0n,
        });
        for (const key of effects.imported) world.atomic.delete(key);
        for (const utxo of effects.exported) world.atomic.set(atomicKey(utxo.destinationChain, utxo.key), utxo);
        this.accepted.set(atomic.id, { bytes, blockHeight: height });
        for (const [address, wei] of effects.balances) chain.setBalance(address, wei);
        for (const [address, nonce] of effects.nonces) chain.setNonce(address, nonce);
        extra = { extData: atomicBatch(bytes), gasUsed: gasUsed(atomic) };
        await chain.mineBlocks(provider, 1);
        return { txID: atomic.id };
      },
      () => extra,
    );
  }

  private record(p: Params): { id: string; record?: AtomicRecord } {
    const id = parseID(p.txID) ?? String(p.txID ?? '');
    if (id === ZERO_ID || id === '') throw new Error('nil transaction ID');
    return { id, record: this.accepted.get(id) };
  }

  getAtomicTxStatus(p: Params): { status: 'Accepted' | 'Unknown'; blockHeight?: string } {
    const { record } = this.record(p);
    return record ? { status: 'Accepted', blockHeight: String(record.blockHeight) } : { status: 'Unknown' };
  }

  getAtomicTx(p: Params): { tx: string; encoding: Encoding; blockHeight: string } {
    const { id, record } = this.record(p);
    if (!record) throw new Error(`could not find tx ${id}`);
    const encoding = encodingOf(p);
    return { tx: encode(record.bytes, encoding), encoding, blockHeight: String(record.blockHeight) };
  }

  /** coreth's version in the release served. */
  version() {
    return { version: corethVersion(this.nodeVersion) };
  }
}
