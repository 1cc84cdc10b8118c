/**
 * secp256k1fx's spend check (vms/secp256k1fx/fx.go VerifySpend, VerifyCredentials): the input's amount is the UTXO's,
 * the output is unlocked, the signer count is the threshold, and each signature recovers to the owner its index names.
 */
import { type Utxo, secp256k1, utils } from '@avalabs/avalanchejs';
import { cb58 } from './codec.ts';
import { Refusal, TEXTS } from './refusals.ts';

export interface Owners {
  locktime: bigint;
  threshold: number;
  addresses: Uint8Array[];
}

/** The owners of a secp256k1fx output (TransferOutput, MintOutput, or OutputOwners itself). */
export function ownersOf(output: unknown): Owners | undefined {
  const owners = (output as { outputOwners?: unknown }).outputOwners ?? output;
  const o = owners as { locktime?: { value(): bigint }; threshold?: { value(): number }; addrs?: { toBytes(): Uint8Array }[] };
  if (!o.locktime || !o.threshold || !o.addrs) return undefined;
  return { locktime: o.locktime.value(), threshold: o.threshold.value(), addresses: o.addrs.map((a) => a.toBytes()) };
}

/** An input's signature indices (TransferInput, or the Input of a mint operation). */
export function sigIndicesOf(input: unknown): number[] | undefined {
  const i = input as { sigIndicies?: () => number[]; input?: { sigIndices?: { value(): number }[] } };
  if (typeof i.sigIndicies === 'function') return i.sigIndicies();
  return undefined;
}

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const recoverCache = new Map<string, Uint8Array | string>();

/**
 * The address (ShortID) that signed `hash`, or the node's refusal text (utils/crypto/secp256k1/secp256k1.go
 * RecoverPublicKeyFromHash: a high-S signature is "mutated", one that recovers to no key is invalid).
 */
export function signer(hash: Uint8Array, signature: Uint8Array): Uint8Array | string {
  const key = utils.bufferToHex(utils.concatBytes(hash, signature));
  const cached = recoverCache.get(key);
  if (cached !== undefined) return cached;
  let result: Uint8Array | string;
  const s = BigInt(utils.bufferToHex(signature.subarray(32, 64)));
  if (s > HALF_ORDER) result = TEXTS.mutatedSig;
  else {
    try {
      result = secp256k1.publicKeyBytesToAddress(secp256k1.recoverPublicKey(hash, signature)) as Uint8Array;
    } catch {
      result = TEXTS.invalidSig;
    }
  }
  if (recoverCache.size > 10_000) recoverCache.clear();
  recoverCache.set(key, result);
  return result;
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** VerifyCredentials: throws the node's text when `signatures` may not spend what `owners` own at time `now`. */
export function verifyCredentials(hash: Uint8Array, indices: number[], signatures: Uint8Array[], owners: Owners, now: bigint): void {
  if (owners.locktime > now) throw new Refusal(TEXTS.timelocked);
  if (owners.threshold < indices.length) throw new Refusal(TEXTS.tooManySigners);
  if (owners.threshold > indices.length) throw new Refusal(TEXTS.tooFewSigners);
  if (indices.length !== signatures.length) throw new Refusal(TEXTS.signersMismatch);
  indices.forEach((index, i) => {
    const expected = owners.addresses[index];
    if (!expected) throw new Refusal(TEXTS.indexOutOfBounds);
    const got = signer(hash, signatures[i]!);
    if (typeof got === 'string') throw new Refusal(got);
    if (!equal(expected, got)) throw new Refusal(TEXTS.wrongSig(cb58(expected), cb58(got)));
  });
}

/** VerifySpend: a TransferInput spending a TransferOutput of `utxo`. */
export function verifySpend(hash: Uint8Array, input: unknown, signatures: Uint8Array[], utxo: Utxo, now: bigint): void {
  const output = utxo.output as { amount?: () => bigint };
  const owners = ownersOf(utxo.output);
  const indices = sigIndicesOf(input);
  if (!owners || typeof output.amount !== 'function') throw new Refusal(TEXTS.wrongUtxoType);
  if (!indices) throw new Refusal(TEXTS.wrongInputType);
  const inAmount = (input as { amount(): bigint }).amount();
  if (output.amount() !== inAmount) throw new Refusal(TEXTS.mismatchedAmounts(output.amount(), inAmount));
  verifyCredentials(hash, indices, signatures, owners, now);
}
