/**
 * The mock's transaction engine: `issueTx` decodes with the official codec, verifies as the chain's node does,
 * and puts the transaction in the pool; a block builder accepts pooled transactions into blocks. Automine (one
 * block per transaction, at once, like anvil) by default; `interval` builds from the pool every `blockTimeMs`;
 * `manual` builds only on `mine`.
 */
import { type ChainName, type DecodedTx, decodeTx } from './codec.ts';
import { blockBytes, blockID } from './blocks.ts';
import { type Effects, applyEffects } from './effects.ts';
import type { Ledger, TxRecord } from './ledger.ts';
import { verifyP } from './p.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { verifyX } from './x.ts';

export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

interface Pending {
  decoded: DecodedTx;
  effects: Effects;
  inputs: string[];
}

const ACCEPTED: Record<ChainName, TxRecord['status']> = { X: 'Accepted', P: 'Committed' };

export class Engine {
  private readonly pools: Record<ChainName, Pending[]> = { X: [], P: [] };
  /** Refused transactions by ID with the reason, as the mempool remembers them (vms/txs/mempool droppedTxIDs). */
  readonly dropped: Record<ChainName, Map<string, string>> = { X: new Map(), P: new Map() };
  private timer: NodeJS.Timeout | undefined;

  constructor(
    public ledger: Ledger,
    readonly mining: Mining = { mode: 'auto' },
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
  issue(chain: ChainName, bytes: Uint8Array): string {
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
      effects = chain === 'X' ? verifyX(this.ledger, decoded) : verifyP(this.ledger, decoded);
    } catch (error) {
      if (error instanceof Refusal) this.dropped[chain].set(decoded.id, error.message);
      throw error;
    }
    const inputs = [...effects.consumed, ...(effects.imported?.ids ?? [])];
    if (pool.some((p) => p.inputs.some((id) => inputs.includes(id)))) {
      const text = TEXTS.conflicts(decoded.id);
      this.dropped[chain].set(decoded.id, text);
      throw new Refusal(chain === 'P' ? `couldn't issue tx: ${text}` : text);
    }
    this.dropped[chain].delete(decoded.id);
    pool.push({ decoded, effects, inputs });
    if (!this.ledger.chains[chain].txs.has(decoded.id)) {
      this.ledger.chains[chain].txs.set(decoded.id, { id: decoded.id, chain, bytes, status: 'Processing' });
    }
    if (this.mining.mode === 'auto') this.mine(chain, 1, false);
    return decoded.id;
  }

  /** Builds `count` blocks from the pool; `allowEmpty` false stops at an empty pool (automine, the interval). */
  mine(chain: ChainName, count = 1, allowEmpty = true): string[] {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const batch = this.pools[chain].splice(0, this.mining.mode === 'auto' ? 1 : this.pools[chain].length);
      if (batch.length === 0 && !allowEmpty) break;
      ids.push(this.build(chain, batch));
    }
    return ids;
  }

  pending(chain: ChainName): number {
    return this.pools[chain].length;
  }

  private build(chain: ChainName, batch: Pending[]): string {
    const ledger = this.ledger;
    const blocks = ledger.chains[chain].blocks;
    const parent = blocks[blocks.length - 1];
    const height = parent ? parent.height + 1 : 0;
    const parentID = parent?.id ?? '11111111111111111111111111111111LpoYY';
    const bytes = blockBytes(chain, parentID, height, ledger.time, batch.map((p) => p.decoded.bytes));
    const id = blockID(bytes);
    for (const pending of batch) {
      applyEffects(ledger, chain, pending.effects);
      const record = ledger.chains[chain].txs.get(pending.decoded.id)!;
      record.status = ACCEPTED[chain];
      record.blockID = id;
    }
    blocks.push({ id, parentID, height, timestamp: ledger.time, txIDs: batch.map((p) => p.decoded.id), bytes });
    ledger.chains[chain].blockIndex.set(id, height);
    return id;
  }
}
