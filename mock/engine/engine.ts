/**
 * The mock's transaction engine on a world: `issueTx` decodes with the official codec, verifies as the chain's node
 * does, and puts the transaction in the pool; a block builder accepts pooled transactions into blocks. Automine (one
 * block per transaction, at once, like anvil) by default; `interval` builds from the pool every `blockTimeMs`;
 * `manual` builds only on `mine`. The C-Chain's EVM follows the same mode: its pool is built on the same ticks.
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { makeBlock } from '../world/codec.ts';
import type { FeeState, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, decodeTx } from './codec.ts';
import { type Effects, applyEffects } from './effects.ts';
import { verifyP } from './p.ts';
import { MAX_TX_BYTES, Refusal, TEXTS } from './refusals.ts';
import { verifyStaking } from './staking.ts';
import { verifySubnetTx } from './subnets.ts';
import { verifyX } from './x.ts';
import { verifyL1Tx } from './l1.ts';
import { unknownToRelease } from './upgrades.ts';
import { consumeGas, metered, nextBlockFeeState, txGas } from './fee-state.ts';
import { DroppedTxs } from './dropped.ts';

/** What service.go and the gossip mempool put before VerifyTx's error; the drop cache keeps the error alone. */
const VERIFY_HEAD = "couldn't issue tx: failed verification: ";
const reasonOf = (message: string) => (message.startsWith(VERIFY_HEAD) ? message.slice(VERIFY_HEAD.length) : message);
/** block/builder/builder.go targetBlockSize: the tx bytes a P-Chain block holds before Etna meters gas. */
const TARGET_BLOCK_BYTES = 128 * 1024;
/** vms/txs/mempool maxMempoolSize: the bytes of transactions one chain's mempool holds. */
const MEMPOOL_BYTES = 64 * 1024 * 1024;

export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

interface Pending {
  decoded: DecodedTx;
  effects: Effects;
  inputs: string[];
  /** The world's journal length when `effects` were computed: unchanged since, they still hold. */
  verifiedAt: number;
}

interface PoolIndex {
  ids: Set<string>;
  inputs: Set<string>;
  bytes: number;
}
const emptyIndex = (): PoolIndex => ({ ids: new Set(), inputs: new Set(), bytes: 0 });
const copyIndex = (index: PoolIndex): PoolIndex => ({
  ...index,
  ids: new Set(index.ids),
  inputs: new Set(index.inputs),
});
const copyPools = (pools: Record<UtxoChain, Pending[]>) => ({ X: [...pools.X], P: [...pools.P] });

/** What a snapshot keeps of the engine: its pools (snapshots take the mempools along; saved states do not). */
export interface SavedPools {
  pools: Record<UtxoChain, Pending[]>;
  pooled: Record<UtxoChain, PoolIndex>;
}

export class Engine {
  private pools: Record<UtxoChain, Pending[]> = { X: [], P: [] };
  /**
   * Each pool's tx IDs, consumed inputs (the mempool's consumedUTXOs: a check costs the tx's inputs) and the bytes it
   * holds.
   */
  private pooled: Record<UtxoChain, PoolIndex> = { X: emptyIndex(), P: emptyIndex() };
  private timer: NodeJS.Timeout | undefined;
  /** The drop caches: why each chain refused its latest refused txs. */
  private readonly dropped = new DroppedTxs();
  /** Each chain's pool budget in bytes (the node's 64 MiB; lowered by tests). */
  mempoolBytes = MEMPOOL_BYTES;
  /** Each accepted transaction in a block of its own, at once. */
  automine: boolean;

  public world: World;
  /** The release the mock stands for (`--node-version`): its codec's transaction types. */
  private readonly nodeVersion?: string;
  /** What else builds a block from its pool on each tick: the C-Chain (../lazy-cchain.ts). */
  private readonly otherChains: () => void;
  constructor(
    world: World,
    mining: Mining = { mode: 'auto' },
    /** The release the mock stands for (`--node-version`): its codec's transaction types. */
    nodeVersion?: string,
    otherChains: () => void = () => undefined,
  ) {
    this.world = world;
    this.nodeVersion = nodeVersion;
    this.otherChains = otherChains;
    this.automine = mining.mode === 'auto';
    if (mining.mode === 'interval') this.setInterval(mining.blockTimeMs);
  }

  /**
   * Every `ms` each chain with pooled transactions builds one block from its pool; 0 stops (independent of automine).
   */
  setInterval(ms: number): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (ms <= 0) return;
    this.timer = setInterval(() => {
      this.mine('X', 1, false);
      this.mine('P', 1, false);
      this.otherChains();
    }, ms);
    this.timer.unref();
  }

  stop(): void {
    this.setInterval(0);
  }

  /**
   * The transaction's ID once pooled (or when already pooled); the node's refusal otherwise. As the chains' gossip
   * mempools' Add (since v1.10): one refused lately is refused again with its drop reason, unverified.
   */
  issue(chain: UtxoChain, bytes: Uint8Array): string {
    let decoded: DecodedTx;
    if (chain === 'P') unknownToRelease(this.nodeVersion, bytes);
    try {
      decoded = decodeTx(chain, bytes);
    } catch (error) {
      const text = (error as Error).message;
      // P: txs.Parse wraps the codec's error, then service.go IssueTx wraps that; X answers the codec's error as is.
      throw new Refusal(chain === 'P' ? `couldn't parse tx: couldn't parse tx: ${text}` : text);
    }
    if (this.nodeVersion) decoded.release = this.nodeVersion;
    const pooled = this.pooled[chain];
    // The mempool's ErrDuplicateTx: the chain's issueTxFromRPC (the builder's AddUnverifiedTx before v1.11) takes a
    // tx already pooled as added.
    if (pooled.ids.has(decoded.id)) return decoded.id;
    const refusal = this.dropped.refusalOf(this.world, chain, decoded.id);
    if (refusal) throw refusal;
    let effects: Effects;
    try {
      effects = this.verify(chain, decoded);
    } catch (error) {
      if (error instanceof Refusal) this.drop(chain, decoded, reasonOf(error.message));
      throw error;
    }
    const inputs = [...effects.consumed, ...effects.imported];
    // As the node's mempool Add: the size (a refusal the gossip mempool marks dropped), then the budget and conflicts.
    if (bytes.length > MAX_TX_BYTES && this.sizeLimited(chain)) {
      const text = TEXTS.tooLarge(decoded.id, bytes.length);
      this.drop(chain, decoded, text);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    const available = this.mempoolBytes - pooled.bytes;
    if (bytes.length > available) {
      const text = TEXTS.mempoolFull(decoded.id, bytes.length, available);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    if (inputs.some((key) => pooled.inputs.has(key))) {
      // The P-Chain's own mempool (v1.14.1+) answers the bare error (platformvm/txs/mempool/mempool.go:113).
      const text = this.sizeLimited(chain) ? TEXTS.conflicts(decoded.id) : TEXTS.conflictsBare;
      this.drop(chain, decoded, text);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    const known = this.world.txs.get(decoded.id);
    if (!known || known.status === 'Dropped')
      this.world.txs.set(decoded.id, { id: decoded.id, chain, bytes, status: 'Processing' });
    this.pools[chain].push({ decoded, effects, inputs, verifiedAt: this.world.journal.snapshot() });
    pooled.bytes += bytes.length;
    pooled.ids.add(decoded.id);
    for (const key of inputs) pooled.inputs.add(key);
    // An added tx is no longer a dropped one (the mempool evicts it from its drop cache).
    this.dropped.evict(decoded.id);
    if (this.automine) this.mine(chain, 1, false);
    return decoded.id;
  }

  /**
   * The X-Chain's mempool is vms/txs/mempool's, with its MaxTxSize; the P-Chain's was too until v1.14.1 gave it a
   * mempool of its own that meters gas instead (vms/platformvm/txs/mempool).
   */
  private sizeLimited(chain: UtxoChain): boolean {
    return chain === 'X' || (this.nodeVersion !== undefined && compareVersions(this.nodeVersion, 'v1.14.1') < 0);
  }

  private verify(chain: UtxoChain, decoded: DecodedTx): Effects {
    return chain === 'X'
      ? verifyX(this.world, decoded)
      : verifyP(this.world, decoded, (w, d) => verifyStaking(w, d) ?? verifySubnetTx(w, d) ?? verifyL1Tx(w, d));
  }

  private drop(chain: UtxoChain, decoded: DecodedTx, reason: string): void {
    this.dropped.drop(this.world, chain, decoded, reason);
  }

  /** Builds `count` blocks from the pool; with `allowEmpty` false, stops at an empty pool (automine, the interval). */
  mine(chain: UtxoChain, count = 1, allowEmpty = true): string[] {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const taken = this.take(chain, this.automine ? 1 : this.pools[chain].length, allowEmpty);
      if (!taken) break;
      const accepted = this.execute(chain, taken.batch, taken.unchangedSince);
      const block = makeBlock(chain, this.world.tip(chain), this.world.time.get(), accepted);
      this.world.acceptBlock(block);
      ids.push(block.id);
    }
    return ids;
  }

  /**
   * The decision transactions of the Banff proposal block that rewards a staker at the chain time: the builder packs
   * the mempool into it as into a standard block (builder.go buildBlock: packEtnaBlockTxs before the RewardValidatorTx,
   * as many as the capacity holds), and the verifier executes them on the proposal's decision state, below both
   * options (verifier.go BanffProposalBlock), so they are Committed, and their changes made, whichever option is
   * accepted. Executed here; the caller puts them in the block.
   */
  packProposal(): DecodedTx[] {
    const taken = this.take('P', this.pools.P.length, false);
    return taken ? this.execute('P', taken.batch, taken.unchangedSince) : [];
  }

  /**
   * Takes up to `count` txs off the pool's head for the next block, as many as its gas capacity holds after Etna (the
   * rest wait, first in the pool), and moves the fee state to the block's (a block whose time did not move counts as
   * one second after its parent, see ./fee-state.ts). Nothing, and no block, when none fit, unless `empty` allows an
   * empty block.
   */
  private take(
    chain: UtxoChain,
    count: number,
    empty: boolean,
  ): { batch: Pending[]; unchangedSince: number } | undefined {
    const pool = this.pools[chain];
    const batch = pool.splice(0, count);
    const { fitting, feeState } = chain === 'P' ? this.meter(batch) : { fitting: batch, feeState: undefined };
    pool.unshift(...batch.slice(fitting.length));
    if (fitting.length === 0 && !empty) return undefined;
    const pooled = this.pooled[chain];
    for (const pending of fitting) {
      pooled.bytes -= pending.decoded.bytes.length;
      pooled.ids.delete(pending.decoded.id);
      for (const key of pending.inputs) pooled.inputs.delete(key);
    }
    const unchangedSince = this.world.journal.snapshot();
    if (feeState) this.world.feeState.set(feeState);
    return { batch: fitting, unchangedSince };
  }

  pending(chain: UtxoChain): number {
    return this.pools[chain].length;
  }

  /**
   * What `issue` would do with `bytes`, changing nothing: it is issued (with automine off, so it waits in the pool) on
   * a journal mark that is then reverted, and the pools and drop cache are put back as they were. The transaction
   * and its effects when it would be pooled; the refusal, word for word, when not.
   */
  dryRun(chain: UtxoChain, bytes: Uint8Array): { pooled?: { decoded: DecodedTx; effects: Effects }; refusal?: Error } {
    const mark = this.world.snapshot();
    const pools = this.savePools();
    const dropped = this.dropped.save();
    const automine = this.automine;
    this.automine = false;
    try {
      const before = this.pools[chain].length;
      this.issue(chain, bytes);
      // A tx already in the pool answers its ID again and adds nothing.
      const pending = this.pools[chain].length > before ? this.pools[chain].at(-1) : undefined;
      return { pooled: pending && { decoded: pending.decoded, effects: pending.effects } };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return { refusal: error };
    } finally {
      this.world.revert(mark);
      this.restorePools(pools);
      this.dropped.restore(dropped);
      this.automine = automine;
    }
  }

  /** The pools as they are, for a snapshot of the world to take along (./dev.ts). */
  savePools(): SavedPools {
    return { pools: copyPools(this.pools), pooled: { X: copyIndex(this.pooled.X), P: copyIndex(this.pooled.P) } };
  }

  /**
   * The pools saved with the world a snapshot reverts to (its pooled txs are still Processing there), or empty ones
   * after a reset; refusals the revert undid are forgotten. A saved tx's verification holds: the journal is back at
   * the length it had then.
   */
  restorePools(saved?: SavedPools): void {
    this.dropped.prune(this.world, saved !== undefined);
    this.pools = saved ? copyPools(saved.pools) : { X: [], P: [] };
    this.pooled = saved
      ? { X: copyIndex(saved.pooled.X), P: copyIndex(saved.pooled.P) }
      : { X: emptyIndex(), P: emptyIndex() };
  }

  /**
   * After Etna: advances the fee state to the next block and consumes the gas of the longest prefix of `batch` that
   * the capacity holds, as the node's block builder packs transactions until the capacity runs out (packEtnaBlockTxs).
   * That prefix, and the fee state the block leaves. Before Etna, the longest prefix of at most 128 KiB of txs
   * (packDurangoBlockTxs' targetBlockSize).
   */
  private meter(batch: Pending[]): { fitting: Pending[]; feeState?: FeeState } {
    const world = this.world;
    if (!metered(world, world.time.get())) {
      let remaining = TARGET_BLOCK_BYTES;
      const count = batch.findIndex((pending) => (remaining -= pending.decoded.bytes.length) < 0);
      return { fitting: count < 0 ? batch : batch.slice(0, count) };
    }
    let state = nextBlockFeeState(world);
    let count = 0;
    for (; count < batch.length; count++) {
      const gas = txGas(world, batch[count]!.decoded.tx);
      if (gas > state.capacity) break;
      state = consumeGas(state, gas);
    }
    return { fitting: batch.slice(0, count), feeState: state };
  }

  /**
   * Like the node's block builder, verifies each pooled transaction again on the state the ones before it in the
   * block leave (two pooled validators for one node, a subnet converted twice): one no longer valid is dropped. The
   * first, verified on the state as it was at `unchangedSince`, holds as it is: the block's own fee state, set since,
   * prices nothing in it (packEtnaBlockTxs' fee calculator reads the fee state before the block's txs consume gas).
   * The transactions applied, in order.
   */
  private execute(chain: UtxoChain, batch: Pending[], unchangedSince: number): DecodedTx[] {
    const world = this.world;
    const accepted: DecodedTx[] = [];
    for (const [i, pending] of batch.entries()) {
      let effects = pending.effects;
      const holds =
        pending.verifiedAt === world.journal.snapshot() || (i === 0 && pending.verifiedAt === unchangedSince);
      if (!holds) {
        try {
          effects = this.verify(chain, pending.decoded);
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          this.drop(chain, pending.decoded, reasonOf(error.message));
          continue;
        }
      }
      applyEffects(world, chain, effects);
      accepted.push(pending.decoded);
    }
    return accepted;
  }
}
