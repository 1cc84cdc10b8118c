/**
 * secp256k1 for the node's signature checks (utils/crypto/secp256k1 RecoverPublicKeyFromHash) and the mock's keys.
 * Recovery is libsecp256k1's, through the `secp256k1` package: native where it ships a prebuilt binding (Linux x64,
 * macOS arm64, Windows x64), its own pure-JS fallback elsewhere. A recovery costs tens of µs natively, milliseconds in
 * JavaScript, and every input of every transaction recovers one.
 */
import { createRequire } from 'node:module';
import { edr } from '../shared/edr.ts';

interface Secp256k1 {
  ecdsaRecover(signature: Uint8Array, recovery: number, hash: Uint8Array, compressed: boolean): Uint8Array;
}

/**
 * Required on the first signature to check, or before, while the node is idle (mock/lazy-cchain.ts): loading it
 * builds libsecp256k1's context and its tables (~25 ms of CPU).
 */
let library: Secp256k1 | undefined;
export const loadSecp256k1 = (): Secp256k1 => (library ??= createRequire(import.meta.url)('secp256k1') as Secp256k1);

/**
 * The uncompressed public key (65 bytes, 04 || X || Y) of a 32-byte private key in [1, n). Its one user is the
 * C-Chain's genesis (the funded accounts' EVM addresses), which the C-Chain's engine follows at once: EDR's
 * multiplication, so that a first C-Chain call does not also load libsecp256k1 and build its tables.
 */
export const uncompressedPublicKey = (privateKey: Uint8Array): Uint8Array =>
  edr().secp256k1PublicKeyFromSecretKey(privateKey);

/**
 * The public key a 65-byte [r || s || v] `signature` of a 32-byte `hash` recovers to, compressed (33 bytes) or not
 * (65); throws when it recovers to none (r or s zero or not below n, v not 0-3, no point). High-S signatures recover
 * as any other: the node's "mutated" refusal is its callers'.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array, compressed = true): Uint8Array {
  if (signature.length !== 65) throw new Error('invalid signature length');
  return loadSecp256k1().ecdsaRecover(signature.subarray(0, 64), signature[64]!, hash, compressed);
}
