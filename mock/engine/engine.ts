/**
 * The mock's transaction engine on a world: `issueTx` decodes with the official codec, verifies as the chain's node
 * does, and puts the transaction in the pool; a block builder accepts pooled transactions into blocks. Automine (one
 * block per transaction, at once, like anvil) by default; `interval` builds from the pool every `blockTimeMs`;
 * `manual` builds only on `mine`.
 */
import { makeBlock } from '../world/codec.ts';
import type { UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, decodeTx } from './codec.ts';
import { type Effects, applyEffects } from './effects.ts';
import { verifyP } from './p.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { verifyX } from './x.ts';

export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

interface Pending {
  decoded: DecodedTx;
  effects: Effects;
  inputs: string[];
}

export class Engine {
  private readonly pools: Record<UtxoChain, Pending[]> = { X: [], P: [] };
  /** Refused transactions' reasons, as the mempool remembers them (vms/txs/mempool droppedTxIDs). */
  readonly dropped: Record<UtxoChain, Map<string, string>> = { X: new Map(), P: new Map() };
  private timer: NodeJS.Timeout | undefined;

  constructor(
    public world: World,
    readonly mining: Mining = { mode: 'auto' },
    /** P-Chain staking transactions (./staking.ts); refused as unsupported without it. */
    private readonly staking?: (world: World, decoded: DecodedTx) => Effects | undefined,
  ) {
    if (mining.mode === 'interval') {
      this.timer = setInterval(() => {
        this.mine('X', 1, false);
        this.mine('P', 1, false);
      }, mining.blockTimeMs);
      this.timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The transaction's ID once pooled (a transaction already pooled is not an error); the node's refusal otherwise. */
  issue(chain: UtxoChain, bytes: Uint8Array): string {
    let decoded: DecodedTx;
    try {
      decoded = decodeTx(chain, bytes);
    } catch (error) {
      const text = (error as Error).message;
      throw new Refusal(chain === 'P' ? `couldn't parse tx: ${text}` : text);
    }
    const pool = this.pools[chain];
    if (pool.some((p) => p.decoded.id === decoded.id)) return decoded.id;
    let effects: Effects;
    try {
      effects = chain === 'X' ? verifyX(this.world, decoded) : verifyP(this.world, decoded, this.staking);
    } catch (error) {
      if (error instanceof Refusal) this.drop(chain, decoded.id, error.message);
      throw error;
    }
    const inputs = [...effects.consumed, ...effects.imported];
    if (pool.some((p) => p.inputs.some((key) => inputs.includes(key)))) {
      const text = TEXTS.conflicts(decoded.id);
      this.drop(chain, decoded.id, text);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    this.dropped[chain].delete(decoded.id);
    pool.push({ decoded, effects, inputs });
    if (!this.world.txs.has(decoded.id)) this.world.txs.set(decoded.id, { id: decoded.id, chain, bytes, status: 'Processing' });
    if (this.mining.mode === 'auto') this.mine(chain, 1, false);
    return decoded.id;
  }

  private drop(chain: UtxoChain, txID: string, reason: string): void {
    const dropped = this.dropped[chain];
    if (dropped.size >= 4096) dropped.delete(dropped.keys().next().value!);
    dropped.set(txID, reason);
  }

  /** Builds `count` blocks from the pool; with `allowEmpty` false, stops at an empty pool (automine, the interval). */
  mine(chain: UtxoChain, count = 1, allowEmpty = true): string[] {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const pool = this.pools[chain];
      const batch = pool.splice(0, this.mining.mode === 'auto' ? 1 : pool.length);
      if (batch.length === 0 && !allowEmpty) break;
      ids.push(this.build(chain, batch));
    }
    return ids;
  }

  pending(chain: UtxoChain): number {
    return this.pools[chain].length;
  }

  /** Forgets the pools (after the world is reverted or reset under them). */
  clear(): void {
    this.pools.X = [];
    this.pools.P = [];
  }

  private build(chain: UtxoChain, batch: Pending[]): string {
    const world = this.world;
    const block = makeBlock(chain, world.tip(chain), world.time.get(), batch.map((p) => p.decoded));
    for (const pending of batch) applyEffects(world, chain, pending.effects);
    world.acceptBlock(block);
    return block.id;
  }
}
