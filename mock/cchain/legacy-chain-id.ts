/**
 * A legacy transaction's EIP-155 chain id, which coreth's newRPCTransaction (internal/ethapi/api.go) writes as
 * `chainId` ("if a legacy transaction has an EIP-155 chain id, include it explicitly"; tx.ChainId() derives it from v =
 * chainId * 2 + 35 + parity, none for v 27 or 28), with no yParity (only typed transactions have one there). The
 * engine leaves it out.
 */

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/** `value` with its chain id when it is a protected legacy transaction without one; anything else as it is. */
export function withLegacyChainId(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const tx = value as Record<string, unknown>;
  if (tx.type !== '0x0' || 'chainId' in tx || !('hash' in tx) || typeof tx.v !== 'string' || !QUANTITY.test(tx.v))
    return value;
  const v = BigInt(tx.v);
  if (v < 35n) return value;
  // RPCTransaction's field order: chainId right before v.
  const entries = Object.entries(tx);
  entries.splice(
    entries.findIndex(([key]) => key === 'v'),
    0,
    ['chainId', `0x${((v - 35n) / 2n).toString(16)}`],
  );
  return Object.fromEntries(entries);
}
