/**
 * The signature fields coreth's newRPCTransaction (internal/ethapi/api.go) writes that the engine leaves out:
 * - a legacy transaction's EIP-155 chain id as `chainId` ("if a legacy transaction has an EIP-155 chain id, include
 *   it explicitly"; tx.ChainId() derives it from v = chainId * 2 + 35 + parity, none for v 27 or 28), with no yParity;
 * - a typed transaction's (access-list, dynamic-fee, blob) `yParity`, `hexutil.Uint64(v.Sign())`: its v, 0x0 or 0x1.
 */

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
/** The transaction types newRPCTransaction gives a yParity: types.AccessListTxType, DynamicFeeTxType, BlobTxType. */
const WITH_Y_PARITY = new Set(['0x1', '0x2', '0x3']);

/** `value` with coreth's chainId (protected legacy) or yParity (typed) when it is a transaction without it. */
export function withCorethSignature(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const tx = value as Record<string, unknown>;
  if (!('hash' in tx) || typeof tx.v !== 'string' || !QUANTITY.test(tx.v)) return value;
  const v = BigInt(tx.v);
  if (typeof tx.type === 'string' && WITH_Y_PARITY.has(tx.type) && !('yParity' in tx) && 'r' in tx && 's' in tx)
    // RPCTransaction's field order: yParity last, after v, r, s. An impersonated sender's fake signature has v 27 or
    // 28 (./blocks.ts): its parity is v - 27.
    return { ...tx, yParity: `0x${(v >= 27n ? v - 27n : v).toString(16)}` };
  if (tx.type !== '0x0' || 'chainId' in tx || v < 35n) return value;
  // RPCTransaction's field order: chainId right before v.
  const entries = Object.entries(tx);
  entries.splice(
    entries.findIndex(([key]) => key === 'v'),
    0,
    ['chainId', `0x${((v - 35n) / 2n).toString(16)}`],
  );
  return Object.fromEntries(entries);
}
