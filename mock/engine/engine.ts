/**
 * The mock's transaction engine on a world: `issueTx` decodes with the official codec, verifies as the chain's node
 * does, and puts the transaction in the pool; a block builder accepts pooled transactions into blocks. Automine (one
 * block per transaction, at once, like anvil) by default; `interval` builds from the pool every `blockTimeMs`;
 * `manual` builds only on `mine`.
 */
import { makeBlock } from '../world/codec.ts';
import type { FeeState, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, decodeTx } from './codec.ts';
import { type Effects, applyEffects } from './effects.ts';
import { verifyP } from './p.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { verifyStaking } from './staking.ts';
import { verifySubnetTx } from './subnets.ts';
import { verifyX } from './x.ts';
import { verifyL1Tx } from './l1.ts';
import { unknownToRelease } from './upgrades.ts';
import { consumeGas, metered, nextBlockFeeState, txGas } from './fee-state.ts';

const DROPPED_KEPT = 1024;
/** vms/txs/mempool maxMempoolSize: the bytes of transactions one chain's mempool holds. */
export const MEMPOOL_BYTES = 64 * 1024 * 1024;
/** vms/txs/mempool ErrMempoolFull, as Add words it. */
const mempoolFull = (txID: string, size: number, available: number) =>
  `mempool is full: ${txID} size (${size}) > available space (${available})`;

export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

interface Pending {
  decoded: DecodedTx;
  effects: Effects;
  inputs: string[];
}

export class Engine {
  private readonly pools: Record<UtxoChain, Pending[]> = { X: [], P: [] };
  private timer: NodeJS.Timeout | undefined;
  private readonly droppedIDs: string[] = [];
  /** The bytes each chain's pool holds now. */
  private readonly pooledBytes: Record<UtxoChain, number> = { X: 0, P: 0 };
  /** Each chain's pool budget in bytes (the node's 64 MiB; lowered by tests). */
  mempoolBytes = MEMPOOL_BYTES;
  /** Each accepted transaction in a block of its own, at once. */
  automine: boolean;

  constructor(
    public world: World,
    mining: Mining = { mode: 'auto' },
    /** The release the mock stands for (`--node-version`): its codec's transaction types. */
    private readonly nodeVersion?: string,
  ) {
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
    }, ms);
    this.timer.unref();
  }

  stop(): void {
    this.setInterval(0);
  }

  /** The transaction's ID once pooled (a transaction already pooled is not an error); the node's refusal otherwise. */
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
    const pool = this.pools[chain];
    if (pool.some((p) => p.decoded.id === decoded.id)) return decoded.id;
    let effects: Effects;
    try {
      effects =
        chain === 'X'
          ? verifyX(this.world, decoded)
          : verifyP(this.world, decoded, (w, d) => verifyStaking(w, d) ?? verifySubnetTx(w, d) ?? verifyL1Tx(w, d));
    } catch (error) {
      if (error instanceof Refusal) this.drop(chain, decoded, error.message);
      throw error;
    }
    const inputs = [...effects.consumed, ...effects.imported];
    // As the node's mempool Add: the budget before conflicts; a full pool is no reason to mark the tx dropped.
    const available = this.mempoolBytes - this.pooledBytes[chain];
    if (bytes.length > available) {
      const text = mempoolFull(decoded.id, bytes.length, available);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    if (pool.some((p) => p.inputs.some((key) => inputs.includes(key)))) {
      const text = TEXTS.conflicts(decoded.id);
      this.drop(chain, decoded, text);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    pool.push({ decoded, effects, inputs });
    this.pooledBytes[chain] += bytes.length;
    const known = this.world.txs.get(decoded.id);
    if (!known || known.status === 'Dropped')
      this.world.txs.set(decoded.id, { id: decoded.id, chain, bytes, status: 'Processing' });
    if (this.automine) this.mine(chain, 1, false);
    return decoded.id;
  }

  /**
   * Remembers why a transaction the chain never accepted was refused: `platform.getTxStatus` answers Dropped with it.
   */
  private drop(chain: UtxoChain, decoded: DecodedTx, reason: string): void {
    const known = this.world.txs.get(decoded.id);
    if (chain !== 'P' || (known && known.status !== 'Dropped')) return;
    this.world.txs.set(decoded.id, { id: decoded.id, chain, bytes: decoded.bytes, status: 'Dropped', reason });
    // Like the mempool's drop cache (vms/txs/mempool), only the latest refusals are remembered.
    this.droppedIDs.push(decoded.id);
    if (this.droppedIDs.length > DROPPED_KEPT) {
      const oldest = this.droppedIDs.shift()!;
      if (this.world.txs.get(oldest)?.status === 'Dropped') this.world.txs.delete(oldest);
    }
  }

  /** Builds `count` blocks from the pool; with `allowEmpty` false, stops at an empty pool (automine, the interval). */
  mine(chain: UtxoChain, count = 1, allowEmpty = true): string[] {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const pool = this.pools[chain];
      const batch = pool.splice(0, this.automine ? 1 : pool.length);
      if (batch.length === 0 && !allowEmpty) break;
      const { fitting, feeState } = chain === 'P' ? this.meter(batch) : { fitting: batch, feeState: undefined };
      // What the block's gas capacity leaves out waits, first in the pool, for a later block.
      pool.unshift(...batch.slice(fitting.length));
      for (const pending of fitting) this.pooledBytes[chain] -= pending.decoded.bytes.length;
      if (fitting.length === 0 && !allowEmpty) break;
      // Only a block built moves the fee state: no block, no time passed for it.
      if (feeState) this.world.feeState.set(feeState);
      ids.push(this.build(chain, fitting));
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
    this.pooledBytes.X = 0;
    this.pooledBytes.P = 0;
  }

  /**
   * After Etna: advances the fee state to the next block and consumes the gas of the longest prefix of `batch` that
   * the capacity holds, as the node's block builder packs transactions until the capacity runs out (packEtnaBlockTxs).
   * That prefix, and the fee state the block leaves.
   */
  private meter(batch: Pending[]): { fitting: Pending[]; feeState?: FeeState } {
    const world = this.world;
    if (!metered(world, world.time.get())) return { fitting: batch };
    let state = nextBlockFeeState(world);
    let count = 0;
    for (; count < batch.length; count++) {
      const gas = txGas(world, batch[count]!.decoded.tx);
      if (gas > state.capacity) break;
      state = consumeGas(state, gas);
    }
    return { fitting: batch.slice(0, count), feeState: state };
  }

  private build(chain: UtxoChain, batch: Pending[]): string {
    const world = this.world;
    const block = makeBlock(
      chain,
      world.tip(chain),
      world.time.get(),
      batch.map((p) => p.decoded),
    );
    for (const pending of batch) applyEffects(world, chain, pending.effects);
    world.acceptBlock(block);
    return block.id;
  }
}
