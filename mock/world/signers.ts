/**
 * Who signed a hash, fast. The node recovers each signature's public key (utils/crypto/secp256k1), and pure-JS recovery
 * (a multiplication of an arbitrary point) costs milliseconds. For the keys the mock itself hands out (the funded
 * accounts, ewoq) the private key d is known, so "recovers to d·G" is checked with one fixed-base multiplication
 * instead: recovery gives d·G exactly when R = k·G with k = (e + r·d)/s, R.x = r and R.y's parity the recovery ID.
 * Anything else (or any unusual case) answers undefined and the caller recovers in full.
 */
import { createRequire } from 'node:module';

type Curve = typeof import('@noble/curves/secp256k1')['secp256k1'];

/**
 * The curve, required on first use: loading it precomputes tables (tens of ms at start-up), and only a transaction's
 * signatures need it. The mock's package build puts it in a file of its own (mock/package/build.ts).
 */
let curve: Curve | undefined;
const secp256k1 = (): Curve =>
  (curve ??= (createRequire(import.meta.url)('@noble/curves/secp256k1') as { secp256k1: Curve }).secp256k1);

/**
 * The uncompressed public key (65 bytes, 04 || X || Y) of a 32-byte private key in [1, n): noble's, or a native one
 * once the process has one (the C-Chain's engine brings one: mock/cchain/evm.ts), several times faster.
 */
let publicKeyOf = (privateKey: Uint8Array): Uint8Array => secp256k1().getPublicKey(privateKey, false);
export const uncompressedPublicKey = (privateKey: Uint8Array): Uint8Array => publicKeyOf(privateKey);
export function useNativePublicKeys(native: (privateKey: Uint8Array) => Uint8Array): void {
  publicKeyOf = native;
}

/** The group's order n: secp256k1.CURVE.n. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** High-S signatures are "mutated" to the node: only the full path answers them. */
const HALF_N = N >> 1n;
/** 40-hex address -> private scalar, for keys the mock derived or publishes; process-wide and never written out. */
const secrets = new Map<string, bigint>();

/**
 * s⁻¹ mod N for 0 < s < N (N is prime), by the extended Euclidean algorithm: noble's `invert` takes about twice as long
 * (a modulo per step), and it was the largest part of a signature's check. A wrong inverse could only make `signedBy`
 * answer undefined, and the caller recover in full.
 */
function inverse(s: bigint): bigint {
  let [r0, r1, t0, t1] = [N, s, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    const r = r0 - q * r1;
    const t = t0 - q * t1;
    r0 = r1;
    r1 = r;
    t0 = t1;
    t1 = t;
  }
  return t0 < 0n ? t0 + N : t0;
}

const big = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

/** Lets `signedBy` check signatures by this key (32-byte private key; `address` its 40-hex short ID). */
export function rememberSecret(privateKey: Uint8Array, address: string): void {
  if (secrets.size >= 100_000) secrets.clear();
  secrets.set(address, big(privateKey));
}

/** True when the 65-byte [r || s || v] `signature` of `hash` recovers to `address`; undefined when not known to. */
export function signedBy(hash: Uint8Array, signature: Uint8Array, address: string): true | undefined {
  const d = secrets.get(address);
  const v = signature[64];
  if (d === undefined || hash.length !== 32 || signature.length !== 65 || (v !== 0 && v !== 1)) return undefined;
  const r = big(signature.subarray(0, 32));
  const s = big(signature.subarray(32, 64));
  if (r === 0n || r >= N || s === 0n || s > HALF_N) return undefined;
  const k = ((((big(hash) % N) + r * d) % N) * inverse(s)) % N;
  if (k === 0n) return undefined;
  const R = publicKeyOf(Buffer.from(k.toString(16).padStart(64, '0'), 'hex'));
  return big(R.subarray(1, 33)) === r && (R[64]! & 1) === v ? true : undefined;
}
