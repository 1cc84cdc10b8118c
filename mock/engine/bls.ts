/**
 * BLS12-381 as AvalancheGo's utils/crypto/bls uses it (blst, min-pk: 48-byte G1 public keys, 96-byte G2 signatures,
 * compressed), here with @noble/curves. Two ciphersuites (ciphersuite.go): signatures (warp messages) and proofs of
 * possession, whose message is the compressed public key itself (signer.ProofOfPossession.Verify).
 */
import type { bls12_381 } from '@noble/curves/bls12-381';
import { bls12381 } from '../world/bls12-381.ts';
import { Refusal } from './refusals.ts';

const SIGNATURE_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

type G1 = ReturnType<typeof bls12_381.G1.ProjectivePoint.fromHex>;
type G2 = ReturnType<typeof bls12_381.G2.ProjectivePoint.fromHex>;

const BLS_TEXTS = {
  // utils/crypto/bls/public.go
  publicKeyDecompress: "couldn't decompress public key",
  invalidPublicKey: 'invalid public key',
  // utils/crypto/bls/signature.go
  signatureDecompress: "couldn't decompress signature",
  invalidSignature: 'invalid signature',
  // vms/platformvm/signer/proof_of_possession.go
  invalidPop: 'invalid proof of possession',
} as const;

const notInSubgroup = (error: unknown) => /subgroup|ZERO/.test((error as Error).message);

/** bls.PublicKeyFromCompressedBytes: decompresses and KeyValidates (not infinity, in the prime-order subgroup). */
export function publicKeyFromBytes(bytes: Uint8Array): G1 {
  let point: G1;
  try {
    if (bytes.length !== 48) throw new Error('length');
    point = bls12381().G1.ProjectivePoint.fromHex(bytes);
  } catch (error) {
    throw new Refusal(notInSubgroup(error) ? BLS_TEXTS.invalidPublicKey : BLS_TEXTS.publicKeyDecompress);
  }
  if (point.equals(bls12381().G1.ProjectivePoint.ZERO)) throw new Refusal(BLS_TEXTS.invalidPublicKey);
  return point;
}

/** bls.SignatureFromBytes: decompresses and SigValidates (in the subgroup; infinity allowed, as blst's false flag). */
export function signatureFromBytes(bytes: Uint8Array): G2 {
  try {
    if (bytes.length !== 96) throw new Error('length');
    return bls12381().G2.ProjectivePoint.fromHex(bytes);
  } catch (error) {
    throw new Refusal(notInSubgroup(error) ? BLS_TEXTS.invalidSignature : BLS_TEXTS.signatureDecompress);
  }
}

/** The uncompressed form (96 bytes) the node keeps and orders warp signers by. */
export const uncompressed = (point: G1): Uint8Array => point.toRawBytes(false);

function pairingHolds(publicKey: G1, signature: G2, message: Uint8Array, dst: string): boolean {
  try {
    // The pairing is undefined for the point at infinity; blst then answers false.
    return bls12381().verify(signature, message, publicKey, { DST: dst });
  } catch {
    return false;
  }
}

/** Proofs already verified, by key and proof: a pairing costs tens of milliseconds, and a key's proof recurs. */
const verifiedProofs = new Map<string, G1>();
const VERIFIED_KEPT = 1024;

/** signer.ProofOfPossession.Verify: the key parses, the proof parses, and the proof signs the key (PoP suite). */
export function verifyProofOfPossession(publicKey: Uint8Array, proof: Uint8Array): G1 {
  const id = Buffer.concat([publicKey, proof]).toString('hex');
  const known = verifiedProofs.get(id);
  if (known) return known;
  const key = publicKeyFromBytes(publicKey);
  const signature = signatureFromBytes(proof);
  if (!pairingHolds(key, signature, publicKey, POP_DST)) throw new Refusal(BLS_TEXTS.invalidPop);
  if (verifiedProofs.size >= VERIFIED_KEPT) verifiedProofs.delete(verifiedProofs.keys().next().value!);
  verifiedProofs.set(id, key);
  return key;
}

/** bls.Verify with the signature suite, over an aggregate of the signers' keys. */
export function verifyAggregate(keys: readonly G1[], signature: G2, message: Uint8Array): boolean {
  const aggregate = keys.reduce((sum, key) => sum.add(key), bls12381().G1.ProjectivePoint.ZERO);
  return pairingHolds(aggregate, signature, message, SIGNATURE_DST);
}

function sign(message: Uint8Array, secretKey: Uint8Array, dst: string): Uint8Array {
  const point = bls12381().G2.hashToCurve(message, { DST: dst }) as unknown as G2;
  return bls12381().sign(point, secretKey).toRawBytes(true);
}

/** A key's proof of possession, as signer.NewProofOfPossession makes it. */
export function proofOfPossession(secretKey: Uint8Array): { publicKey: Uint8Array; proof: Uint8Array } {
  const publicKey = bls12381().getPublicKey(secretKey);
  return { publicKey, proof: sign(publicKey, secretKey, POP_DST) };
}

export const compressedHex = (point: G1): string => `0x${Buffer.from(point.toRawBytes(true)).toString('hex')}`;
