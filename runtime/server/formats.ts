/**
 * The node's string encodings of bytes with their checksums (cb58, `0x` hex, bech32 addresses) and the format checks
 * the generated validators call. This one implementation serves the server package, the toolkit's spec checks, the
 * mock's encoders and conformance. No node:crypto or Buffer: the package also runs in browsers and edge runtimes.
 */
import { sha256 as jsSha256 } from '@noble/hashes/sha2.js';

/**
 * Node's native one-shot SHA-256 where the runtime has one (Node 20.16+; fetched without an import, so the module
 * still loads in browsers and edge runtimes), @noble/hashes elsewhere. Every ID and address a server checks or the
 * mock writes is hashed for its checksum, and the JavaScript hash, cold at start-up, was most of the mock's hashing.
 */
type OneShot = { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Uint8Array };
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as OneShot | undefined;
const nativeHash = nodeCrypto?.hash;
const sha256 = nativeHash ? (bytes: Uint8Array) => nativeHash('sha256', bytes, 'buffer') : jsSha256;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** Each character's bech32 value by char code (-1: not a bech32 character). */
const BECH32_VALUES = Int8Array.from({ length: 128 }, (_, code) => BECH32.indexOf(String.fromCharCode(code)));

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(28);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function withChecksum(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 4);
  out.set(payload);
  out.set(checksum(payload), payload.length);
  return out;
}

function checkedPayload(raw: Uint8Array): Uint8Array | undefined {
  if (raw.length < 4) return undefined;
  const payload = raw.subarray(0, raw.length - 4);
  return equalBytes(raw.subarray(raw.length - 4), checksum(payload)) ? payload : undefined;
}

function base58Encode(bytes: Uint8Array): string {
  // Base-58 digits, least significant first, updated per byte: no BigInt, as the mock encodes IDs by the hundred
  // thousand.
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  for (let i = digits.length - 1; i >= 0; i--) out += BASE58[digits[i]!];
  return out;
}

/** Each character's base-58 digit by char code (-1: not a digit). */
const BASE58_DIGITS = Int8Array.from({ length: 128 }, (_, code) => BASE58.indexOf(String.fromCharCode(code)));

function base58Decode(text: string): Uint8Array | undefined {
  // Base-256 digits, least significant first, updated per character: no BigInt, as every ID param is decoded.
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++;
  const body: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    let carry = BASE58_DIGITS[text.charCodeAt(i)] ?? -1;
    if (carry < 0) return undefined;
    for (let j = 0; j < body.length; j++) {
      carry += body[j]! * 58;
      body[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      body.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + body.length);
  for (let i = 0; i < body.length; i++) out[zeros + i] = body[body.length - 1 - i]!;
  return out;
}

/** cb58: base58 of the payload followed by the last 4 bytes of its SHA-256. */
export function cb58Encode(payload: Uint8Array): string {
  return base58Encode(withChecksum(payload));
}

/** The payload of a cb58 string, or undefined when it is not cb58 or its checksum is wrong. */
export function cb58Decode(text: string): Uint8Array | undefined {
  const raw = base58Decode(text);
  return raw && checkedPayload(raw);
}

/** The node's `hex` encoding: `0x`, the bytes, then the last 4 bytes of their SHA-256. */
export function hexEncode(payload: Uint8Array): string {
  let out = '0x';
  for (const byte of withChecksum(payload)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A hex digit's value, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The payload of `0x` hex (pairs of digits, checksum included, at least 4 bytes), or undefined. Read digit by digit:
 * a regular expression over a block of several MB made V8 grow its backtracking stack to 64 MB and keep it.
 */
export function hexDecode(text: string): Uint8Array | undefined {
  if (text.length < 10 || text.length % 2 !== 0 || !text.startsWith('0x')) return undefined;
  const raw = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < raw.length; i++) {
    const high = nibble(text.charCodeAt(2 + i * 2));
    const low = nibble(text.charCodeAt(3 + i * 2));
    if (high < 0 || low < 0) return undefined;
    raw[i] = high * 16 + low;
  }
  return checkedPayload(raw);
}

/** BIP-173's checksum over 5-bit values (also the mock's Go-worded address parser's). */
export function polymod(values: ArrayLike<number>): number {
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

export function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | (data[i] as number);
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & max);
  else if (!pad && (bits >= from || ((acc << (to - bits)) & max) !== 0)) return undefined;
  return out;
}

/** A bech32 address (BIP 173, not bech32m) of `payload` under `hrp`, e.g. `avax1...`. */
export function bech32Encode(hrp: string, payload: Uint8Array): string {
  const words = convertBits(payload, 8, 5, true) as number[];
  const mod = polymod([...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const check = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...check].map((w) => BECH32[w]).join('')}`;
}

export function bech32Decode(text: string): { hrp: string; payload: Uint8Array } | undefined {
  if (text !== text.toLowerCase()) return undefined;
  const sep = text.lastIndexOf('1');
  if (sep < 1 || text.length - sep < 7) return undefined;
  const hrp = text.slice(0, sep);
  // The checksum runs over the expanded hrp and the data part, in one array (addresses come with every request).
  const expanded = hrpExpand(hrp);
  const values = new Array<number>(expanded.length + text.length - sep - 1);
  for (let i = 0; i < expanded.length; i++) values[i] = expanded[i]!;
  for (let i = sep + 1, at = expanded.length; i < text.length; i++, at++) {
    const value = BECH32_VALUES[text.charCodeAt(i)] ?? -1;
    if (value < 0) return undefined;
    values[at] = value;
  }
  if (polymod(values) !== 1) return undefined;
  const payload = convertBits(values.slice(expanded.length, -6), 5, 8, false);
  return payload ? { hrp, payload: Uint8Array.from(payload) } : undefined;
}

export type AvalancheFormat =
  | 'avax-cb58'
  | 'avax-short-id'
  | 'avax-node-id'
  | 'avax-hex'
  | 'avax-bech32'
  | 'avax-address';

/**
 * The format checks the spec's schemas name, by format name. Each returns true when the string is well formed. The
 * names are a literal type, so a table keyed by them, like the docs' format hints, must name every one.
 */
export const avalancheFormats: Record<AvalancheFormat, (value: string) => boolean> = {
  'avax-cb58': (value) => cb58Decode(value)?.length === 32,
  'avax-short-id': (value) => cb58Decode(value)?.length === 20,
  'avax-node-id': (value) => value.startsWith('NodeID-') && cb58Decode(value.slice(7))?.length === 20,
  'avax-hex': (value) => hexDecode(value) !== undefined,
  'avax-bech32': (value) => bech32Decode(value)?.payload.length === 20,
  'avax-address': (value) => {
    const dash = value.indexOf('-');
    return dash > 0 && bech32Decode(value.slice(dash + 1))?.payload.length === 20;
  },
};

/**
 * The node's formats as the server's ajv checks them (ajv-formats gives `date-time`). Checksums cost microseconds and
 * the same IDs and addresses come back again and again, so recent verdicts are remembered (a bounded cache per format).
 */
export const formats: Record<AvalancheFormat, (value: string) => boolean> = Object.fromEntries(
  Object.entries(avalancheFormats).map(([name, check]) => [name, remembered(check)]),
) as Record<AvalancheFormat, (value: string) => boolean>;

function remembered(check: (value: string) => boolean): (value: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (value) => {
    let verdict = verdicts.get(value);
    if (verdict === undefined) {
      verdict = check(value);
      if (value.length <= 256) {
        if (verdicts.size >= 4096) verdicts.clear();
        verdicts.set(value, verdict);
      }
    }
    return verdict;
  };
}
