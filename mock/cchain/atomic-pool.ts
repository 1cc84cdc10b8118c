/**
 * coreth's atomic mempool (plugin/evm/atomic/txpool mempool.go, txs.go): the ImportTxs and ExportTxs issued and not yet
 * in a block, by gas price, the UTXOs (an export's: its address and nonce) each spends, and the last 50 discarded.
 * The mock's blocks are accepted as built, so coreth's Current and Issued states pass within one block's building: a
 * tx is Pending here until a block takes it (then accepted, no longer here) or discards it. Journaled tables: the
 * world's snapshots, reverts and reset take the pool with them. No part of the world a state saves: like coreth's, it
 * starts empty (../engine/state-file.ts withoutMempools).
 */
import { Refusal } from '../engine/refusals.ts';
import { Table } from '../world/journal.ts';
import type { World } from '../world/world.ts';

/** vm.go defaultMempoolSize. */
const MEMPOOL_SIZE = 4096;
/** txs.go discardedTxsCacheSize. */
const DISCARDED_SIZE = 50;

export interface PoolEntry {
  bytes: Uint8Array;
  /** atomic.EffectiveGasPrice: the AVAX burned, in wei, per unit of gas. */
  gasPrice: bigint;
  /** Its InputUTXOs. */
  inputs: string[];
  /** Issue order: equal prices leave in it (coreth's heap leaves their order unspecified). */
  order: number;
}

export class AtomicPool {
  private readonly pending: Table<string, PoolEntry>;
  /** InputUTXOs to the pending tx spending each (utxoSpenders). */
  private readonly spenders: Table<string, string>;
  /** Discarded txs (an LRU of DISCARDED_SIZE), by ID, with the order they were discarded in. */
  private readonly discarded: Table<string, { bytes: Uint8Array; order: number }>;
  private next = 0;

  constructor(world: World) {
    this.pending = new Table(world.journal);
    this.spenders = new Table(world.journal);
    this.discarded = new Table(world.journal);
  }

  get size(): number {
    return this.pending.size;
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** getAtomicTx's mempool part: the tx's bytes and whether it was dropped, if the pool knows it. */
  lookup(id: string): { bytes: Uint8Array; dropped: boolean } | undefined {
    const pending = this.pending.get(id);
    if (pending) return { bytes: pending.bytes, dropped: false };
    const discarded = this.discarded.get(id);
    return discarded && { bytes: discarded.bytes, dropped: true };
  }

  /**
   * addTx after its verification: refused when a conflict pays as much (ErrConflict) or the pool is full of better
   * payers (ErrInsufficientFee); conflicts paying less, or the cheapest tx when full, are discarded.
   */
  add(id: string, entry: Omit<PoolEntry, 'order'>): void {
    const conflicts = [...new Set(entry.inputs.flatMap((input) => this.spenders.get(input) ?? []))];
    if (conflicts.length > 0) {
      let highest = conflicts[0]!;
      for (const other of conflicts)
        if (this.pending.get(other)!.gasPrice > this.pending.get(highest)!.gasPrice) highest = other;
      const price = this.pending.get(highest)!.gasPrice;
      if (entry.gasPrice <= price)
        throw new Refusal(
          `conflict present: issued tx (${id}) gas price ${entry.gasPrice} <= conflict tx (${highest}) gas price ` +
            `${price} (${conflicts.length} total conflicts in mempool)`,
        );
      for (const other of conflicts) this.discard(other);
    }
    if (this.pending.size >= MEMPOOL_SIZE) {
      const cheapest = this.byPrice().at(-1)!;
      const min = this.pending.get(cheapest)!.gasPrice;
      if (entry.gasPrice <= min) throw new Refusal(`insufficient fee currentMin=${min} provided=${entry.gasPrice}`);
      this.discard(cheapest);
    }
    this.discarded.delete(id);
    this.pending.set(id, { ...entry, order: this.next++ });
    for (const input of entry.inputs) this.spenders.set(input, id);
  }

  /** The pending txs as NextTx hands them to the block builder: the highest gas price first. */
  byPrice(): string[] {
    return [...this.pending.entries()]
      .sort(([, a], [, b]) => (a.gasPrice === b.gasPrice ? a.order - b.order : a.gasPrice > b.gasPrice ? -1 : 1))
      .map(([id]) => id);
  }

  entry(id: string): PoolEntry | undefined {
    return this.pending.get(id);
  }

  /** A tx a block took (RemoveTx): gone, not even discarded. */
  remove(id: string): void {
    this.drop(id);
    this.discarded.delete(id);
  }

  /** DiscardCurrentTx and removeTx(discard): out of the pool, `Dropped` while among the last discarded. */
  discard(id: string): void {
    const entry = this.drop(id);
    if (!entry) return;
    this.discarded.set(id, { bytes: entry.bytes, order: this.next++ });
    if (this.discarded.size <= DISCARDED_SIZE) return;
    let oldest: [string, number] | undefined;
    for (const [other, { order }] of this.discarded.entries())
      if (!oldest || order < oldest[1]) oldest = [other, order];
    this.discarded.delete(oldest![0]);
  }

  /** Empty, as a node starting on the world dev.loadState puts in place: the txs pooled were of another. */
  clear(): void {
    for (const id of [...this.pending.keys()]) this.drop(id);
    for (const id of [...this.discarded.keys()]) this.discarded.delete(id);
  }

  private drop(id: string): PoolEntry | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    for (const input of entry.inputs) if (this.spenders.get(input) === id) this.spenders.delete(input);
    return entry;
  }
}
