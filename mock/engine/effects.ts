/**
 * What an accepted transaction does to the world, computed while verifying it (against the state it was verified
 * on) and applied when its block is accepted, through the world's journaled tables (so snapshots cover it).
 */
import type { TransferableOutput } from '@avalabs/avalanchejs';
import { atomicKey, type World } from '../world/world.ts';
import type { AtomicUtxo, Utxo, UtxoChain } from '../world/types.ts';
import { type DecodedTx, idText, utxoRecord } from './codec.ts';
import { Refusal, TEXTS } from './refusals.ts';

export interface Effects {
  /** UTXO keys spent from the chain's own set. */
  consumed: string[];
  produced: Utxo[];
  /** Shared-memory keys (atomicKey) imported. */
  imported: string[];
  exported: AtomicUtxo[];
  /** Anything else the transaction changes (assets, subnets, chains, stakers). */
  apply?: (world: World) => void;
}

export const noEffects = (): Effects => ({ consumed: [], produced: [], imported: [], exported: [] });

/** The UTXOs `outs` create, numbered from `offset` (exported outputs follow the chain's own). */
export function outputsOf(
  chain: UtxoChain,
  decoded: DecodedTx,
  outs: readonly TransferableOutput[],
  offset = 0,
): Utxo[] {
  return outs.map((out, i) => utxoRecord(chain, decoded.id, offset + i, idText(out.assetId), out.output));
}

export function exportsOf(
  world: World,
  chain: UtxoChain,
  decoded: DecodedTx,
  outs: readonly TransferableOutput[],
  offset: number,
  destination: string,
): AtomicUtxo[] {
  return outputsOf(chain, decoded, outs, offset).map((utxo) => ({
    ...utxo,
    sourceChain: world.chainIDs[chain],
    destinationChain: destination,
  }));
}

export function applyEffects(world: World, chain: UtxoChain, effects: Effects): void {
  const table = world.utxos[chain];
  for (const key of effects.consumed) table.delete(key);
  for (const utxo of effects.produced) table.set(utxo.key, utxo);
  for (const key of effects.imported) world.atomic.delete(key);
  for (const utxo of effects.exported) world.atomic.set(atomicKey(utxo.destinationChain, utxo.key), utxo);
  effects.apply?.(world);
}

/** Inputs sorted by (txID, output index) with none twice (utils.IsSortedAndUnique over avax.TransferableInput). */
export function checkSortedUnique(
  inputs: readonly { utxoID: { txID: { toBytes(): Uint8Array }; outputIdx: { value(): number } } }[],
): void {
  for (let i = 1; i < inputs.length; i++) {
    const a = inputs[i - 1]!.utxoID;
    const b = inputs[i]!.utxoID;
    const order = Buffer.compare(a.txID.toBytes(), b.txID.toBytes()) || a.outputIdx.value() - b.outputIdx.value();
    if (order >= 0) throw new Refusal(TEXTS.inputsNotSortedUnique);
  }
}
