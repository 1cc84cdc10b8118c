/**
 * What an accepted transaction does to the ledger, computed while verifying it (against the state it was verified on)
 * and applied when its block is accepted.
 */
import { Id, Int, type TransferableOutput, Utxo, avaxSerial, utils } from '@avalabs/avalanchejs';
import { type ChainName, type DecodedTx, inputID, utxoBytes } from './codec.ts';
import { type AtomicUtxo, type Ledger, type StoredUtxo, sharedOf } from './ledger.ts';
import { Refusal, TEXTS } from './refusals.ts';

export interface Effects {
  /** UTXO IDs spent from the chain's own set. */
  consumed: string[];
  produced: Array<[string, StoredUtxo]>;
  imported?: { source: string; ids: string[] };
  exported?: { destination: string; utxos: Array<[string, AtomicUtxo]> };
  /** Anything else the transaction changes (assets, subnets, chains, stakers). */
  apply?: (ledger: Ledger) => void;
}

/** The UTXOs `outs` create, numbered from `offset` (exported outputs follow the chain's own). */
export function outputsOf(chain: ChainName, decoded: DecodedTx, outs: readonly TransferableOutput[], offset = 0): Array<[string, StoredUtxo]> {
  const txID = utils.base58check.decode(decoded.id);
  return outs.map((out, i) => {
    const utxo = new Utxo(new avaxSerial.UTXOID(new Id(txID), new Int(offset + i)), out.assetId, out.output);
    return [inputID(txID, offset + i), { utxo, bytes: utxoBytes(chain, utxo) }];
  });
}

export function applyEffects(ledger: Ledger, chain: ChainName, effects: Effects): void {
  const set = ledger.chains[chain].utxos;
  for (const id of effects.consumed) set.delete(id);
  for (const [id, utxo] of effects.produced) set.set(id, utxo);
  if (effects.imported) {
    const memory = sharedOf(ledger, ledger.chains[chain].id);
    for (const id of effects.imported.ids) memory.delete(id);
  }
  if (effects.exported) {
    const memory = sharedOf(ledger, effects.exported.destination);
    for (const [id, utxo] of effects.exported.utxos) memory.set(id, utxo);
  }
  effects.apply?.(ledger);
}

/** Inputs sorted by (txID, output index) with none twice (utils.IsSortedAndUnique over avax.TransferableInput). */
export function checkSortedUnique(inputs: readonly { utxoID: avaxSerial.UTXOID }[], text = TEXTS.inputsNotSortedUnique): void {
  for (let i = 1; i < inputs.length; i++) {
    if (avaxSerial.UTXOID.compare(inputs[i - 1]!.utxoID, inputs[i]!.utxoID) >= 0) throw new Refusal(text);
  }
}
