/**
 * The X- and P-Chain mempools of a saved world, put back into a node's engine. The world keeps which of its txs are
 * pooled (World.pooledTxs, saved with the rest of it); the engine holds what it verified of them, which a fresh engine
 * works out again by issuing them as they were issued.
 */
import type { Engine } from './engine.ts';
import { Refusal } from './refusals.ts';
import type { World } from '../world/world.ts';

/**
 * A saved world's X- and P-Chain mempools (its Processing txs, World.pooledTxs) issued again into a fresh engine, in
 * the order they were issued, without mining them: the world is the one they were verified on, so they pool as they
 * did. One the engine refuses (the release emulated has no such tx type) is left out as the engine leaves it.
 */
export function replayMempools(world: World, engine: Engine): void {
  const pooled = world.pooledTxs();
  if (pooled.length === 0) return;
  const automine = engine.automine;
  engine.automine = false;
  try {
    for (const tx of pooled) {
      try {
        engine.issue(tx.chain, tx.bytes);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
    }
  } finally {
    engine.automine = automine;
  }
}
