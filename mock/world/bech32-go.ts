/**
 * address.ParseBech32 (utils/formatting/address) with the errors of the bech32 package the node links (btcutil's
 * bech32.Decode, then ConvertBits, then ids.ToShortID's length check), so a refused address reads as the node's.
 */

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32M = 0x2bc830a3;

/** BIP-173's checksum over 5-bit values: the node's error names the checksums it expected, which a parser hides. */
function polymod(values: ArrayLike<number>): number {
  let chk = 1;
  for (let i = 0; i < values.length; i++) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ values[i]!;
    if (top & 1) chk ^= 0x3b6a57b2;
    if (top & 2) chk ^= 0x26508e6d;
    if (top & 4) chk ^= 0x1ea119fa;
    if (top & 8) chk ^= 0x3d4233dd;
    if (top & 16) chk ^= 0x2a1462b3;
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

function checksum(hrp: string, data: number[], constant: number): string {
  const mod = (polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ constant) >>> 0;
  return Array.from({ length: 6 }, (_, i) => BECH32[(mod >>> (5 * (5 - i))) & 31]).join('');
}

/** The 20 bytes of a bech32 address (any HRP, no chain prefix), or the node's error. */
export function parseBech32(text: string): Uint8Array {
  if (text.length < 8 || text.length > 90) throw new Error(`invalid bech32 string length ${text.length}`);
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code < 33 || code > 126) throw new Error(`invalid character in string: '${c}'`);
  }
  if (text !== text.toLowerCase() && text !== text.toUpperCase())
    throw new Error('string not all lowercase or all uppercase');
  const lower = text.toLowerCase();
  const one = lower.lastIndexOf('1');
  if (one < 1 || one + 7 > lower.length) throw new Error(`invalid separator index ${one}`);
  const hrp = lower.slice(0, one);
  const data: number[] = [];
  for (const c of lower.slice(one + 1)) {
    const value = BECH32.indexOf(c);
    if (value < 0) throw new Error(`invalid character not part of charset: ${c.charCodeAt(0)}`);
    data.push(value);
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) {
    const payload = data.slice(0, -6);
    const expected = `bech32=${checksum(hrp, payload, 1)}, bech32m=${checksum(hrp, payload, BECH32M)}`;
    throw new Error(`invalid checksum (expected (${expected}), got ${lower.slice(-6)})`);
  }
  // ConvertBits(5 -> 8, pad): leftover bits are kept as a final zero-padded byte, as the node's call asks.
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const value of data.slice(0, -6)) {
    acc = (acc << 5) | value;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (bits > 0) bytes.push((acc << (8 - bits)) & 0xff);
  if (bytes.length !== 20) throw new Error(`invalid hash length: expected 20 bytes but got ${bytes.length}`);
  return Uint8Array.from(bytes);
}
