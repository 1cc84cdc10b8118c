/**
 * `dev.removeUtxo` on a fork. A UTXO ID is a hash of its transaction's ID and output index, and no method of the node
 * finds a UTXO by ID (`getUTXOs` takes addresses, and the indexer holds blocks and transactions), so when a UTXO the
 * fork has not read is named, neither its owner nor whether the source holds it can be known. Its removal is kept
 * instead, journaled like any edit (a revert or `dev.reset` takes it back), and applied as the UTXO comes in: the load
 * that reads it (its owner's first call, or a spend naming the transaction that made it) holds it back, so it is in
 * no read and a spend of it is refused as spending a missing UTXO. An ID the source never had is removed the same
 * way, as nothing (the fork cannot tell it from an unread one); naming an ID again once it is gone (removed, or spent
 * by a local transaction) is refused as on any world.
 */
import { cb58Decode } from '../../generators/formats.ts';
import { decodeTx, keyOf } from '../engine/codec.ts';
import type { Utxo, UtxoChain } from '../world/types.ts';
import { putBeforeLocal, type World } from '../world/world.ts';

type Params = Record<string, unknown>;

export class Removals {
  private readonly world: World;
  private readonly unjournaled: (change: () => void) => void;
  /** Keys removed on the fork, each with the source's record once a load has read it (then held back). */
  private readonly removed = { X: new Map<string, Utxo | undefined>(), P: new Map<string, Utxo | undefined>() };

  constructor(world: World, unjournaled: (change: () => void) => void) {
    this.world = world;
    this.unjournaled = unjournaled;
  }

  /**
   * `dev.removeUtxo`: the world's own removal (`local`) for a UTXO it holds or had; a UTXO it never read, kept as
   * above. `read` tells whether the fork ever took the key from the source.
   */
  remove(p: Params, local: (p: Params) => unknown, read: (key: string) => boolean): unknown {
    const chain = p.chain;
    const id = cb58Decode(String(p.utxoID ?? ''));
    if ((chain !== 'X' && chain !== 'P') || id?.length !== 32) return local(p);
    const key = Buffer.from(id).toString('hex');
    const gone = read(key) || this.removed[chain].has(key) || this.spentLocally(chain, key);
    if (this.world.utxos[chain].has(key) || gone) {
      const answer = local(p); // refuses an ID that is gone, in the world's words
      this.mark(chain, key);
      return answer;
    }
    this.mark(chain, key);
    return {};
  }

  /** Where a UTXO read from the source goes (called unjournaled): into the world, unless removed before. */
  place(chain: UtxoChain, utxo: Utxo): void {
    putBeforeLocal(utxo);
    if (this.removed[chain].has(utxo.key)) this.removed[chain].set(utxo.key, utxo);
    else this.world.utxos[chain].set(utxo.key, utxo);
  }

  private mark(chain: UtxoChain, key: string): void {
    const removed = this.removed[chain];
    removed.set(key, undefined);
    this.world.journal.record(() => {
      const held = removed.get(key);
      removed.delete(key);
      // Read since the removal: the load was part of the fork point's state, so undoing the removal shows it.
      if (held) this.unjournaled(() => this.world.utxos[chain].set(key, held));
    });
  }

  /** Whether an accepted local transaction spent the UTXO (a dev control, so a walk over the local transactions). */
  private spentLocally(chain: UtxoChain, key: string): boolean {
    for (const tx of this.world.txs.values()) {
      if (tx.chain !== chain || (tx.status !== 'Accepted' && tx.status !== 'Committed')) continue;
      const inputs = (decodeTx(chain, tx.bytes).tx.baseTx?.inputs ?? []) as Parameters<typeof keyOf>[0][];
      if (inputs.some((input) => keyOf(input) === key)) return true;
    }
    return false;
  }
}
