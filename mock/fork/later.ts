/**
 * The source's blocks above the fork point, read so that none of what it accepted after the fork point leaks into a
 * forked world: their IDs and their transactions' IDs, and the UTXOs those transactions spent (which the fork point
 * still had). Each block is read once (cached by height, so a later run reads it from disk), at most 1,000 per chain.
 */
import { decodeTx, ownerOf, utxoRecord } from '../engine/codec.ts';
import type { Utxo, UtxoChain } from '../world/types.ts';
import type { Clients } from './clients.ts';
import { heightOf, hexBytes } from './convert.ts';
import { inBatches } from './stakers.ts';
import { ask, fromSource } from './walk.ts';

type Output = { output: Parameters<typeof ownerOf>[0]; getAssetId(): string };

type Json = Record<string, unknown>;

const MAX_LATER_BLOCKS = 1_000;

interface Later {
  checkedTo: number;
  ids: Set<string>;
  /** The UTXOs (`txID:outputIndex`) later transactions spent: the fork point still has those made by then. */
  spent: Set<string>;
}

export class LaterBlocks {
  private readonly cached: Clients;
  private readonly live: Clients;
  private readonly heights: Record<UtxoChain, number>;
  private readonly later: Record<UtxoChain, Later>;
  private readonly producers = new Map<string, Promise<Output[]>>();
  private readonly reading: Record<UtxoChain, Promise<Set<string>> | undefined> = { X: undefined, P: undefined };

  constructor(cached: Clients, live: Clients, heights: Record<UtxoChain, number>) {
    this.cached = cached;
    this.live = live;
    this.heights = heights;
    this.later = {
      X: { checkedTo: heights.X, ids: new Set(), spent: new Set() },
      P: { checkedTo: heights.P, ids: new Set(), spent: new Set() },
    };
  }

  /**
   * IDs of the blocks the source accepted above the fork point, and of their transactions: read up to its tip now,
   * each block once (cached by height, so a later run reads them from disk). Calls while a read is under way share it.
   */
  ids(chain: UtxoChain): Promise<Set<string>> {
    let reading = this.reading[chain];
    if (!reading) {
      reading = this.readUp(chain).finally(() => {
        this.reading[chain] = undefined;
      });
      this.reading[chain] = reading;
    }
    return reading;
  }

  private async readUp(chain: UtxoChain): Promise<Set<string>> {
    const later = this.later[chain];
    const client = chain === 'P' ? this.live.p : this.live.x;
    const answer = await client.getHeight();
    const height = fromSource('getHeight', () => heightOf((answer as unknown as Json | null)?.height));
    const tip = Math.min(height, this.heights[chain] + MAX_LATER_BLOCKS);
    while (later.checkedTo < tip) {
      const heights = Array.from({ length: Math.min(8, tip - later.checkedTo) }, (_, i) => later.checkedTo + 1 + i);
      const blocks = await Promise.all(
        heights.map((height) =>
          ask(chain === 'P' ? this.cached.p : this.cached.x, 'getBlockByHeight', {
            height: String(height),
            encoding: 'json',
          }),
        ),
      );
      blocks.forEach((answer, i) =>
        fromSource(`getBlockByHeight ${heights[i]}`, () => {
          const block = ((answer as Json).block ?? {}) as Json;
          if (block.id) later.ids.add(String(block.id));
          for (const tx of [...((block.txs as Json[] | undefined) ?? []), ...(block.tx ? [block.tx as Json] : [])]) {
            if (tx.id) later.ids.add(String(tx.id));
            const inputs = ((tx.unsignedTx as Json | undefined)?.inputs ?? []) as Json[];
            for (const input of inputs) later.spent.add(`${String(input.txID)}:${Number(input.outputIndex)}`);
          }
        }),
      );
      later.checkedTo = heights.at(-1)!;
    }
    return later.ids;
  }

  /**
   * The owner's UTXOs that existed at the fork point and that the source's later transactions spent, rebuilt from
   * the transactions that made them (their `baseTx` outputs, numbered from 0).
   */
  async spentBy(chain: UtxoChain, owner: string): Promise<Utxo[]> {
    const { ids, spent } = this.later[chain];
    const refs = [...spent].map((ref) => ref.split(':') as [string, string]).filter(([txID]) => !ids.has(txID));
    const found: Utxo[] = [];
    // A few at a time: the source may have spent thousands of older outputs since the fork point.
    await inBatches(refs, async ([txID, index]) => {
      const out = (await this.outputsOf(chain, txID))[Number(index)];
      if (!out || !ownerOf(out.output)?.addresses.includes(owner)) return;
      found.push(utxoRecord(chain, txID, Number(index), out.getAssetId(), out.output));
    });
    return found;
  }

  /** A transaction's `baseTx` outputs, read once for every owner's load. */
  private outputsOf(chain: UtxoChain, txID: string): Promise<Output[]> {
    const key = `${chain}:${txID}`;
    let outputs = this.producers.get(key);
    if (!outputs) {
      outputs = ask(chain === 'P' ? this.cached.p : this.cached.x, 'getTx', { txID, encoding: 'hex' }).then((answer) =>
        fromSource(`getTx ${txID}`, () => decodeTx(chain, hexBytes((answer as Json).tx)).tx.baseTx?.outputs ?? []),
      );
      this.producers.set(key, outputs);
      outputs.catch(() => this.producers.delete(key));
    }
    return outputs;
  }
}
