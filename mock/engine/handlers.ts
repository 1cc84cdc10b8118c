/**
 * The issue methods on the engine: `avm.issueTx`, `wallet.issueTx` (the X-Chain's wallet service) and
 * `platform.issueTx`. The tx param is decoded as the node's formatting.Decode does, then issued.
 */
import { decodeBytes } from '../keystore.ts';
import { encodingOf } from '../world/reads.ts';
import type { UtxoChain } from '../world/types.ts';
import type { Engine } from './engine.ts';
import { Refusal } from './refusals.ts';

type Params = Record<string, unknown>;

export function txBytes(params: Params): Uint8Array {
  try {
    return decodeBytes(String(params.tx ?? ''), encodingOf(params));
  } catch (error) {
    // vms/avm/service.go and vms/platformvm/service.go IssueTx
    throw new Refusal(`problem decoding transaction: ${(error as Error).message}`);
  }
}

export function issueHandlers(engine: Engine): Record<string, { answer: (p: Params) => unknown }> {
  const issue = (chain: UtxoChain) => ({ answer: (p: Params) => ({ txID: engine.issue(chain, txBytes(p)) }) });
  return { 'avm.issueTx': issue('X'), 'wallet.issueTx': issue('X'), 'platform.issueTx': issue('P') };
}
