/**
 * The X- and P-Chain mempools' drop caches (vms/txs/mempool and vms/platformvm/txs/mempool): why a tx was refused,
 * for the 64 latest refusals of each chain. The chains' gossip mempools answer an issue of a tx in the cache with
 * that reason, unverified (GetDropReason, since v1.10); `platform.getTxStatus` answers Dropped with it (the reason is
 * kept in the world's tx record), the X-Chain no status (the reason is kept here, journaled so a revert forgets what
 * it undid). Each refusal keeps the impersonated addresses at the time: `dev.impersonate` since voids it.
 */
import type { UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { DecodedTx } from './codec.ts';
import { Refusal } from './refusals.ts';

/** droppedTxIDsCacheSize. */
const KEPT = 64;

const impersonatingIn = (world: World) => [...world.impersonated].join();

export class DroppedTxs {
  /** Refused P-Chain tx IDs, oldest first (a Map keeps insertion order), with the impersonated addresses then. */
  private p = new Map<string, string>();
  private readonly x = new Map<string, { reason: string; impersonating: string }>();

  /** The refusal to answer again for an issue of `id` on `chain`, made the newest as the LRU's Get does. */
  refusalOf(world: World, chain: UtxoChain, id: string): Refusal | undefined {
    const impersonating = impersonatingIn(world);
    if (chain === 'X') {
      const dropped = this.x.get(id);
      if (dropped?.impersonating !== impersonating) return undefined;
      this.x.delete(id);
      this.x.set(id, dropped);
      return new Refusal(dropped.reason);
    }
    const tx = this.p.get(id) === impersonating ? world.txs.get(id) : undefined;
    if (tx?.status !== 'Dropped' || tx.reason === undefined) return undefined;
    this.p.delete(id);
    this.p.set(id, impersonating);
    return new Refusal(`couldn't issue tx: ${tx.reason}`);
  }

  /** An added tx is no longer a dropped one (the mempool evicts it from its drop cache). */
  evict(id: string): void {
    this.p.delete(id);
    this.x.delete(id);
  }

  /**
   * Remembers why a transaction the chain never accepted was refused. A pooled one (Processing) refused when its
   * block is built is dropped too.
   */
  drop(world: World, chain: UtxoChain, decoded: DecodedTx, reason: string): void {
    const known = world.txs.get(decoded.id);
    const impersonating = impersonatingIn(world);
    if (chain === 'X') {
      if (known?.status === 'Processing') world.txs.delete(decoded.id);
      const before = this.x.get(decoded.id);
      this.x.delete(decoded.id);
      this.x.set(decoded.id, { reason, impersonating });
      if (this.x.size > KEPT) this.x.delete(this.x.keys().next().value!);
      world.journal.record(() => {
        if (before === undefined) this.x.delete(decoded.id);
        else this.x.set(decoded.id, before);
      });
      return;
    }
    if (known && known.status !== 'Dropped' && known.status !== 'Processing') return;
    world.txs.set(decoded.id, { id: decoded.id, chain, bytes: decoded.bytes, status: 'Dropped', reason });
    this.p.delete(decoded.id);
    this.p.set(decoded.id, impersonating);
    if (this.p.size > KEPT) {
      const oldest = this.p.keys().next().value!;
      this.p.delete(oldest);
      if (world.txs.get(oldest)?.status === 'Dropped') world.txs.delete(oldest);
    }
  }

  /** The P-Chain's cache as it is (the X-Chain's follows the world's journal), for `restore` after a dry run. */
  save(): Map<string, string> {
    return new Map(this.p);
  }

  restore(saved: Map<string, string>): void {
    this.p = new Map(saved);
  }

  /** After a revert: the P-Chain's refusals it undid are forgotten; after a reset (`reverted` false), all. */
  prune(world: World, reverted: boolean): void {
    for (const id of this.p.keys()) if (world.txs.get(id)?.status !== 'Dropped') this.p.delete(id);
    if (!reverted) this.x.clear();
  }
}
