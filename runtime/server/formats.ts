/**
 * The node's string encodings of bytes with their checksums (cb58, `0x` hex, bech32 addresses) and the format checks
 * the generated validators call. This one implementation serves the server package, the toolkit's spec checks, the
 * mock's encoders and conformance. No node:crypto or Buffer: the package also runs in browsers and edge runtimes.
 * base58 is base-x's (@scure/base's generic radix conversion took ~15x longer for an ID, and the mock encodes several
 * IDs a transaction), bech32 @scure/base's; the checksums and what counts as valid are the node's.
 */
import { sha256 as jsSha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import baseX from 'base-x';

/** Bitcoin's base58 alphabet, as the node's formatting package uses. */
const base58 = baseX('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz');

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

/** cb58: base58 of the payload followed by the last 4 bytes of its SHA-256. */
export function cb58Encode(payload: Uint8Array): string {
  return base58.encode(withChecksum(payload));
}

/**
 * base58 decoding takes time quadratic in the length (an ID of 40,000 digits held the event loop for half a minute),
 * and nothing the node encodes in cb58 (IDs, short IDs, keys) comes near this many digits: a longer text is refused
 * unread, as undecodable. The node decodes it all and, unless it was forged for the purpose, fails the checksum.
 */
const MAX_CB58_DIGITS = 1024;

/** The payload of a cb58 string, or undefined when it is not cb58 or its checksum is wrong. */
export function cb58Decode(text: string): Uint8Array | undefined {
  if (text.length > MAX_CB58_DIGITS) return undefined;
  let raw: Uint8Array;
  try {
    raw = base58.decode(text);
  } catch {
    return undefined;
  }
  return checkedPayload(raw);
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

/** A bech32 address (BIP 173, not bech32m) of `payload` under `hrp`, e.g. `avax1...`; no length limit, as the node. */
export function bech32Encode(hrp: string, payload: Uint8Array): string {
  return bech32.encode(hrp, bech32.toWords(payload), false);
}

/** The hrp and payload of a lower-case bech32 address, or undefined when it is none. */
export function bech32Decode(text: string): { hrp: string; payload: Uint8Array } | undefined {
  if (text !== text.toLowerCase()) return undefined;
  try {
    const { prefix, words } = bech32.decode(text, false);
    return { hrp: prefix, payload: bech32.fromWords(words) };
  } catch {
    return undefined;
  }
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

/**
 * `check` with its recent verdicts remembered: at most 4096 strings of at most 256 characters, then forgotten at
 * once. The last string checked is compared first: a value read from a request is a new string, which a Map lookup
 * hashes whole, and a caller repeating its address or ID is the common case (comparing costs less than hashing).
 */
export function remembered(check: (value: string) => boolean): (value: string) => boolean {
  const verdicts = new Map<string, boolean>();
  let last: string | undefined;
  let lastVerdict = false;
  return (value) => {
    if (value === last) return lastVerdict;
    let verdict = verdicts.get(value);
    if (verdict === undefined) {
      verdict = check(value);
      if (value.length > 256) return verdict;
      if (verdicts.size >= 4096) verdicts.clear();
      verdicts.set(value, verdict);
    }
    last = value;
    lastVerdict = verdict;
    return verdict;
  };
}
