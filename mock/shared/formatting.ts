/**
 * The node's bytes encodings (utils/formatting): what the world's reads and the handlers that take bytes (issueTx,
 * the keystore's records, admin.dbGet's key) share.
 */
import { hexDecode, hexEncode } from '../../generators/formats.ts';

/** Bytes as the node writes them in `encoding`. */
export function encodeBytes(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'hexnc') return `0x${Buffer.from(bytes).toString('hex')}`;
  if (encoding === 'hex' || encoding === 'hexc') return hexEncode(bytes);
  throw new Error('unsupported encoding in method');
}

/**
 * Bytes from a string in `encoding`, with formatting.Decode's errors (utils/formatting/encoding.go). The node's
 * params hold these as plain strings, so any string reaches here: the empty one is no bytes, as Decode has it.
 */
export function decodeBytes(text: string, encoding: string): Uint8Array {
  if (encoding !== 'hex' && encoding !== 'hexc' && encoding !== 'hexnc')
    throw new Error('unsupported encoding in method');
  if (text === '') return new Uint8Array();
  if (!text.startsWith('0x')) throw new Error('missing 0x prefix to hex encoding');
  const bytes = goHexDecode(text.slice(2));
  if (encoding === 'hexnc') return bytes;
  if (bytes.length < 4) throw new Error('input string is smaller than the checksum size');
  const payload = hexDecode(text);
  if (!payload) throw new Error('invalid input checksum');
  return payload;
}

/** Go's hex.DecodeString: the first byte that is no hex digit is named (before an odd length), as its error has it. */
function goHexDecode(digits: string): Uint8Array {
  const bytes = Buffer.from(digits, 'utf8');
  for (const byte of bytes) if (!isHexDigit(byte)) throw new Error(`encoding/hex: invalid byte: ${goRune(byte)}`);
  if (bytes.length % 2 !== 0) throw new Error('encoding/hex: odd length hex string');
  return Buffer.from(digits, 'hex');
}

const isHexDigit = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

/** A byte as Go's `%#U` of rune(byte): `U+007A 'z'`, the quoted char only when unicode.IsPrint holds. */
function goRune(byte: number): string {
  const code = `U+${byte.toString(16).toUpperCase().padStart(4, '0')}`;
  // Below 256, IsPrint is ASCII's printables and Latin-1's but NBSP (a space other than U+0020) and the soft hyphen.
  const printable = (byte >= 0x20 && byte < 0x7f) || (byte >= 0xa1 && byte !== 0xad);
  return printable ? `${code} '${String.fromCharCode(byte)}'` : code;
}
