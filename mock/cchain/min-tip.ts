/**
 * legacypool's floor on a transaction's tip (core/txpool/validation.go ValidateTransaction: MinTip, the pool's gasTip,
 * tx-pool-price-limit's 1 wei, plugin/evm/config/default_config.go). RPC transactions are remote on a default node
 * (local-txs-enabled false, so NoLocals: plugin/evm/vm.go), so it applies to eth_sendRawTransaction and
 * eth_sendTransaction alike; the engine takes any tip. The checks ValidateTransaction makes before it (the block's
 * gas limit, a tip above the fee cap, the sender, the intrinsic gas, the init code size) are the engine's, worded by
 * ./geth-errors.ts: a transaction failing one of those is left to the engine, which answers it.
 */
import { RLP } from '@ethereumjs/rlp';
import { type AccessTuple, intrinsicGas } from './access-list-args.ts';
import { transactionSender } from './raw-transaction.ts';

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

const big = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/**
 * The fields of a signed legacy, access-list or dynamic-fee transaction (0x-hex) whose sender recovers; undefined
 * for any other (the engine answers it).
 */
export function pricedOf(raw: string): Priced | undefined {
  try {
    const bytes = Buffer.from(raw.slice(2), 'hex');
    const type = bytes[0]! >= 0xc0 ? 0 : bytes[0]!;
    if (type > 2 || !transactionSender(raw)) return undefined;
    const fields = RLP.decode(type === 0 ? bytes : bytes.subarray(1)) as Uint8Array[];
    const body = type === 0 ? fields : fields.slice(1);
    const [, first, second] = body as Uint8Array[];
    const [tip, feeCap] = type === 2 ? [big(first!), big(second!)] : [big(first!), big(first!)];
    const [gas, to, , data] = body.slice(type === 2 ? 3 : 2) as Uint8Array[];
    const list = type === 0 ? [] : (fields[type === 2 ? 8 : 7] as unknown as [Uint8Array, Uint8Array[]][]);
    return {
      gas: big(gas!),
      tip,
      feeCap,
      ...(to!.length > 0 ? { to: hex(to!) } : {}),
      data: hex(data!),
      accessList: list.map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) })),
    };
  } catch {
    return undefined;
  }
}
