/**
 * legacypool's floor on a transaction's tip (core/txpool/validation.go ValidateTransaction: MinTip, the pool's gasTip,
 * tx-pool-price-limit's 1 wei, plugin/evm/config/default_config.go). RPC transactions are remote on a default node
 * (local-txs-enabled false, so NoLocals: plugin/evm/vm.go), so it applies to eth_sendRawTransaction and
 * eth_sendTransaction alike; the engine takes any tip. The checks ValidateTransaction makes before it (the block's
 * gas limit, a tip above the fee cap, the sender, the intrinsic gas, the init code size) are the engine's, worded by
 * ./geth-errors.ts: a transaction failing one of those is left to the engine, which answers it.
 */
import { type AccessTuple, intrinsicGas } from './access-list-args.ts';
import { transactionSender } from './raw-transaction.ts';
import { decodeSigned } from './signed-tx.ts';

const MIN_TIP = 1n;
const MAX_INIT_CODE_SIZE = 2 * 24_576;

/** What ValidateTransaction reads of a transaction up to its tip check. */
export interface Priced {
  gas: bigint;
  tip: bigint;
  feeCap: bigint;
  to?: string;
  data: string;
  accessList: readonly AccessTuple[];
}

/** The refusal of `tx` by the tip floor once the checks before it pass on a head of `gasLimit`, or undefined. */
export function tipRefusal(tx: Priced, gasLimit: bigint): string | undefined {
  if (tx.tip >= MIN_TIP) return undefined;
  const creation = tx.to === undefined;
  if ((creation && (tx.data.length - 2) / 2 > MAX_INIT_CODE_SIZE) || tx.gas > gasLimit || tx.tip > tx.feeCap)
    return undefined;
  if (tx.gas < intrinsicGas({ to: tx.to, data: tx.data }, tx.accessList)) return undefined;
  return `transaction underpriced: gas tip cap ${tx.tip}, minimum needed ${MIN_TIP}`;
}

/**
 * The fields of a signed legacy, access-list or dynamic-fee transaction (0x-hex) whose sender recovers; undefined
 * for any other (the engine answers it).
 */
export function pricedOf(raw: string): Priced | undefined {
  const tx = decodeSigned(raw);
  return tx && transactionSender(raw) ? tx : undefined;
}
