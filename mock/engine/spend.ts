/**
 * secp256k1fx's spend check (vms/secp256k1fx/fx.go VerifySpend, VerifyCredentials): the input's amount is the UTXO's,
 * the output is unlocked, the signer count is the threshold, and each signature recovers to the owner its index names.
 */
import { createHash } from 'node:crypto';
import { TRANSFER_OUTPUT, type Transaction, outputType, shortIDText } from './codec.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { recoverPublicKey } from '../world/signers.ts';
import type { Owner, Utxo } from '../world/types.ts';

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const recovered = new Map<string, string>();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * The address (40-hex) that signed `hash`; the node's refusal when none did (utils/crypto/secp256k1/secp256k1.go
 * RecoverPublicKeyFromHash: a high-S signature is "mutated", one that recovers to no key is invalid); the address is
 * RIPEMD-160 of SHA-256 of the compressed key.
 */
function signer(hash: Uint8Array, signature: Uint8Array): string {
  const key = hex(hash) + hex(signature);
  let result = recovered.get(key);
  if (result === undefined) {
    if (BigInt(`0x${hex(signature.subarray(32, 64))}`) > HALF_ORDER) result = `!${TEXTS.mutatedSig}`;
    else {
      try {
        const publicKey = recoverPublicKey(hash, signature);
        result = createHash('ripemd160').update(createHash('sha256').update(publicKey).digest()).digest('hex');
      } catch {
        result = `!${TEXTS.invalidSig}`;
      }
    }
    if (recovered.size > 10_000) recovered.clear();
    recovered.set(key, result);
  }
  if (result.startsWith('!')) throw new Refusal(result.slice(1));
  return result;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * VerifyCredentials: throws the node's text when `signatures` may not spend what `owner` owns at time `now`. An owner
 * with at least `threshold` impersonated addresses (`dev.impersonate`) needs no signatures: any, or none, will do.
 */
export function verifyCredentials(
  hash: Uint8Array,
  indices: number[],
  signatures: Uint8Array[],
  owner: Owner,
  now: bigint,
  impersonated: ReadonlySet<string> = NONE,
): void {
  if (owner.locktime > now) throw new Refusal(TEXTS.timelocked);
  if (impersonated.size > 0 && owner.addresses.filter((a) => impersonated.has(a)).length >= owner.threshold) return;
  if (owner.threshold < indices.length) throw new Refusal(TEXTS.tooManySigners);
  if (owner.threshold > indices.length) throw new Refusal(TEXTS.tooFewSigners);
  if (indices.length !== signatures.length) throw new Refusal(TEXTS.signersMismatch);
  indices.forEach((index, i) => {
    const expected = owner.addresses[index];
    if (expected === undefined) throw new Refusal(TEXTS.indexOutOfBounds);
    const got = signer(hash, signatures[i]!);
    if (got !== expected) throw new Refusal(TEXTS.wrongSig(shortIDText(expected), shortIDText(got)));
  });
}

/**
 * VerifySpend: a secp256k1fx TransferInput spending the TransferOutput of `utxo` (its stakeable lock already
 * unwrapped).
 */
export function verifySpend(
  hash: Uint8Array,
  input: Transaction,
  signatures: Uint8Array[],
  utxo: Utxo,
  now: bigint,
  impersonated?: ReadonlySet<string>,
  type = outputType(utxo),
): void {
  if (input._type !== 'secp256k1fx.TransferInput') throw new Refusal(TEXTS.wrongInputType);
  if (type !== TRANSFER_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
  if (utxo.amount !== input.amount()) throw new Refusal(TEXTS.mismatchedAmounts(utxo.amount, input.amount()));
  verifyCredentials(hash, input.sigIndicies(), signatures, utxo.owner, now, impersonated);
}
