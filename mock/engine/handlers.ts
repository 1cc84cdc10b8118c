/**
 * The engine's part of the handlers: the issue methods, `avm.issueTx`, `wallet.issueTx` (the X-Chain's wallet
 * service) and `platform.issueTx`, their tx param decoded as the node's formatting.Decode does; and what the reads
 * need to know of each transaction type.
 */
import { decodeBytes } from '../shared/formatting.ts';
import { type Params, type TxTypes, encodingOf } from '../world/reads.ts';
import type { UtxoChain } from '../world/types.ts';
import type { Engine } from './engine.ts';
import { platformTxJson } from './p-json.ts';
import { Refusal } from './refusals.ts';
import { txJson } from './tx-json.ts';
import { xTxJson, xTxUtxos } from './x-json.ts';

export function txBytes(params: Params<'tx' | 'encoding'>): Uint8Array {
  try {
    return decodeBytes(String(params.tx ?? ''), encodingOf(params));
  } catch (error) {
    // vms/avm/service.go and vms/platformvm/service.go IssueTx
    throw new Refusal(`problem decoding transaction: ${(error as Error).message}`);
  }
}

/** `avm.issueTx`, `wallet.issueTx` (on the X-Chain) and `platform.issueTx`: the tx decoded, then issued. */
export function issueTx(engine: Engine, chain: UtxoChain): (params: Params<'tx' | 'encoding'>) => { txID: string } {
  return (params) => ({ txID: engine.issue(chain, txBytes(params)) });
}

/** The JSON form of either chain's transactions, and the X-Chain's UTXOs for its address index. */
export const TX_TYPES: TxTypes = {
  json: (tx, hrp) => txJson(tx, hrp, tx.chain === 'X' ? xTxJson : platformTxJson),
  xUtxos: xTxUtxos,
};
