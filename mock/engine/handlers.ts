/**
 * The issue methods on the engine: `avm.issueTx`, `wallet.issueTx` (the X-Chain's wallet service) and
 * `platform.issueTx`. The tx param is decoded as the node's formatting.Decode does, then issued.
 */
import { decodeBytes } from '../shared/formatting.ts';
import { type Params, encodingOf } from '../world/reads.ts';
import type { UtxoChain } from '../world/types.ts';
import type { Engine } from './engine.ts';
import { Refusal } from './refusals.ts';

export function txBytes(params: Params): Uint8Array {
  try {
    return decodeBytes(String(params.tx ?? ''), encodingOf(params));
  } catch (error) {
    // vms/avm/service.go and vms/platformvm/service.go IssueTx
    throw new Refusal(`problem decoding transaction: ${(error as Error).message}`);
  }
}

/** `avm.issueTx`, `wallet.issueTx` (on the X-Chain) and `platform.issueTx`: the tx decoded, then issued. */
export function issueTx(engine: Engine, chain: UtxoChain): (params: Params) => { txID: string } {
  return (params) => ({ txID: engine.issue(chain, txBytes(params)) });
}
