/**
 * The node's bytes encodings (utils/formatting): what the world's reads and the handlers that take bytes (issueTx,
 * the keystore's records) share.
 */
import { hexDecode, hexEncode } from '../../generators/formats.ts';

/** Bytes as the node writes them in `encoding`. */
export function encodeBytes(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'hexnc') return `0x${Buffer.from(bytes).toString('hex')}`;
  if (encoding === 'hex' || encoding === 'hexc') return hexEncode(bytes);
  throw new Error('unsupported encoding in method');
}

/** Bytes from a string in `encoding`, with formatting.Decode's errors. */
export function decodeBytes(text: string, encoding: string): Uint8Array {
  if (encoding !== 'hex' && encoding !== 'hexc' && encoding !== 'hexnc')
    throw new Error('unsupported encoding in method');
  if (!text.startsWith('0x')) throw new Error('missing 0x prefix to hex encoding');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text.slice(2))) throw new Error('encoding/hex: invalid byte');
  if (encoding === 'hexnc') return Buffer.from(text.slice(2), 'hex');
  if (text.length < 10) throw new Error('insufficient length for input');
  const payload = hexDecode(text);
  if (!payload) throw new Error('invalid input checksum');
  return payload;
}
