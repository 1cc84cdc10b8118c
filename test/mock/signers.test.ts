/**
 * The fast signer check (mock/world/signers.ts) must agree with full public-key recovery, the node's own check: true
 * only for a signature that recovers to the address, undefined for anything else (the caller then recovers in full).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { secp256k1 } from '@avalabs/avalanchejs';
import { describe, expect, it } from 'vitest';
import { rememberSecret, signedBy, uncompressedPublicKey, useNativePublicKeys } from '../../mock/world/signers.ts';

const addressOf = (key: Uint8Array) =>
  Buffer.from(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))).toString('hex');
const recovered = (hash: Uint8Array, sig: Uint8Array) =>
  Buffer.from(secp256k1.publicKeyBytesToAddress(secp256k1.recoverPublicKey(hash, sig))).toString('hex');

async function confirmsExactlyTheSigner(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const key = randomBytes(32);
    const other = randomBytes(32);
    rememberSecret(key, addressOf(key));
    rememberSecret(other, addressOf(other));
    const hash = randomBytes(32);
    const sig = await secp256k1.signHash(hash, key);
    expect(recovered(hash, sig)).toBe(addressOf(key));
    expect(signedBy(hash, sig, addressOf(key))).toBe(true);
    expect(signedBy(hash, sig, addressOf(other))).toBeUndefined();
    const flipped = Uint8Array.from(sig);
    flipped[64]! ^= 1; // the other recovery ID recovers to another key
    expect(recovered(hash, flipped)).not.toBe(addressOf(key));
    expect(signedBy(hash, flipped, addressOf(key))).toBeUndefined();
    const otherHash = Uint8Array.from(hash);
    otherHash[0]! ^= 1;
    expect(signedBy(otherHash, sig, addressOf(key))).toBeUndefined();
  }
}

describe('signedBy', () => {
  it('confirms exactly the signatures that recover to a known key', confirmsExactlyTheSigner);

  it('leaves unknown keys and high-S ("mutated") signatures to full recovery', async () => {
    const key = randomBytes(32);
    const hash = randomBytes(32);
    const sig = await secp256k1.signHash(hash, key);
    expect(signedBy(hash, sig, addressOf(key))).toBeUndefined();
    rememberSecret(key, addressOf(key));
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${Buffer.from(sig.subarray(32, 64)).toString('hex')}`);
    const high = Uint8Array.from(sig);
    high.set(Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex'), 32);
    high[64]! ^= 1;
    expect(signedBy(hash, high, addressOf(key))).toBeUndefined();
  });

  it("answers the same with the C-Chain engine's native secp256k1 (EDR), as once the C-Chain has started", async () => {
    const edr = createRequire(import.meta.url)('@nomicfoundation/edr') as typeof import('@nomicfoundation/edr');
    const key = randomBytes(32);
    const noble = uncompressedPublicKey(key);
    useNativePublicKeys(edr.secp256k1PublicKeyFromSecretKey);
    expect(Buffer.from(uncompressedPublicKey(key))).toEqual(Buffer.from(noble));
    await confirmsExactlyTheSigner();
  });
});
