/**
 * A quantity in a dev method's params as anvil reads it: its params are alloy's U256 (ruint's `Uint`), whose serde
 * visitor takes a JSON number or a string `Uint::from_str` parses (ruint src/string.rs: `0x`/`0X` hex, `0o`/`0O`
 * octal, `0b`/`0B` binary, else decimal; `_` skipped, no digits being 0), and refuses one past 2^256 - 1. The
 * document's pattern has already refused a digit outside its base; the C-Chain's own methods never come here.
 */
import type { Quantity } from '../../generated/c-chain/server/dist/index.js';
import { RpcError } from '../../generated/c-chain/server/dist/index.js';

const RADIX: Readonly<Record<string, { prefix: string; digits: number }>> = {
  x: { prefix: '0x', digits: 64 },
  o: { prefix: '0o', digits: 86 },
  b: { prefix: '0b', digits: 256 },
  '': { prefix: '', digits: 78 },
};
const MAX_U256 = 2n ** 256n - 1n;

export function u256(value: Quantity | bigint): bigint {
  if (typeof value !== 'string') return BigInt(value);
  const base = /^0[xob]/i.test(value) ? value[1]!.toLowerCase() : '';
  const { prefix, digits } = RADIX[base]!;
  const text = value
    .slice(prefix.length)
    .replaceAll('_', '')
    .replace(/^0+(?=.)/, '');
  // More digits than 2^256 - 1 has in its base is past it: refused before BigInt reads (in more than linear time) them.
  const n = text.length > digits ? undefined : text === '' ? 0n : BigInt(`${prefix}${text}`);
  // serde's invalid_value in ruint's words (HrVisitor's `expecting`).
  if (n === undefined || n > MAX_U256)
    throw new RpcError(-32602, `invalid value: string ${JSON.stringify(value)}, expected a 32 byte hex string`);
  return n;
}
