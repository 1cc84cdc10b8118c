/**
 * The node's signature recovery (mock/world/signers.ts, libsecp256k1) must answer as a full recovery by another
 * implementation does (avalanchejs' noble, which the mock used before): the same key for every valid signature, the
 * other recovery ID included, and a refusal for every signature that recovers to none.
 */
import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@avalabs/avalanchejs';
import { describe, expect, it } from 'vitest';
import { recoverPublicKey, uncompressedPublicKey } from '../../mock/world/signers.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bytes32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** noble's answer, or the text of its refusal. */
const noble = (hash: Uint8Array, sig: Uint8Array) => {
  try {
    return hexOf(secp256k1.recoverPublicKey(hash, sig));
  } catch {
    return 'refused';
  }
};
const native = (hash: Uint8Array, sig: Uint8Array) => {
  try {
    return hexOf(recoverPublicKey(hash, sig));
  } catch {
    return 'refused';
  }
};

describe('recoverPublicKey', () => {
  it('recovers the key noble recovers, for either recovery ID and for high-S signatures', async () => {
    for (let i = 0; i < 20; i++) {
      const key = randomBytes(32);
      const hash = randomBytes(32);
      const sig = await secp256k1.signHash(hash, key);
      expect(native(hash, sig)).toBe(hexOf(secp256k1.getPublicKey(key)));
      const flipped = Uint8Array.from(sig);
      flipped[64]! ^= 1; // the other recovery ID recovers to another key
      expect(native(hash, flipped)).toBe(noble(hash, flipped));
      expect(native(hash, flipped)).not.toBe(hexOf(secp256k1.getPublicKey(key)));
      const high = Uint8Array.from(sig);
      high.set(bytes32(N - BigInt(`0x${hexOf(sig.subarray(32, 64))}`)), 32);
      high[64]! ^= 1; // (r, n - s) with the other parity recovers to the same key: the node's callers refuse it
      expect(native(hash, high)).toBe(hexOf(secp256k1.getPublicKey(key)));
      expect(hexOf(recoverPublicKey(hash, sig, false))).toBe(hexOf(uncompressedPublicKey(key)));
    }
  });

  it('refuses what recovers to no key, as noble does', async () => {
    const hash = randomBytes(32);
    const sig = await secp256k1.signHash(hash, randomBytes(32));
    const edits: Array<(s: Uint8Array) => void> = [
      (s) => s.fill(0, 0, 32), // r = 0
      (s) => s.fill(0, 32, 64), // s = 0
      (s) => s.set(bytes32(N), 0), // r = n
      (s) => s.set(bytes32(N + 1n), 32), // s > n
      (s) => {
        s[64] = 4; // no such recovery ID
      },
    ];
    for (const edit of edits) {
      const bad = Uint8Array.from(sig);
      edit(bad);
      expect(noble(hash, bad)).toBe('refused');
      expect(native(hash, bad)).toBe('refused');
    }
    expect(() => recoverPublicKey(hash, sig.subarray(0, 64))).toThrow();
  });
});
