/**
 * The P-Chain's conservation of funds, as vms/platformvm/utxo/verifier.go VerifySpendUTXOs checks it after each
 * input's spend: an input still stakeable-locked at the chain's time counts for its asset, locktime and owner; an
 * output with a stakeable lock is produced for its asset, locktime and owner. Locked outputs are covered by locked
 * inputs of the same owner and locktime, any shortfall by unlocked funds; unlocked outputs plus the fee by what
 * unlocked funds remain.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { cb58Encode } from '../../generators/formats.ts';
import type { Owner } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type Transaction, idText, keyOf, ownerOf } from './codec.ts';
import { Refusal, TEXTS } from './refusals.ts';

/**
 * The owner's ID the node keys locked funds by: sha256 of the codec bytes of its secp256k1fx.OutputOwners (codec
 * version 0, locktime, threshold, address count, addresses), printed as an ids.ID.
 */
export function ownerID(owner: Owner): string {
  const bytes = Buffer.alloc(2 + 8 + 4 + 4 + 20 * owner.addresses.length);
  bytes.writeBigUInt64BE(owner.locktime, 2);
  bytes.writeUInt32BE(owner.threshold, 10);
  bytes.writeUInt32BE(owner.addresses.length, 14);
  owner.addresses.forEach((address, i) => bytes.write(address, 18 + 20 * i, 'hex'));
  return cb58Encode(Buffer.from(sha256(bytes)));
}

interface Locked {
  assetID: string;
  locktime: bigint;
  owner: string;
  amount: bigint;
}

function addLocked(table: Map<string, Locked>, entry: Locked): void {
  const key = `${entry.assetID}/${entry.locktime}/${entry.owner}`;
  const known = table.get(key);
  if (known) known.amount += entry.amount;
  else table.set(key, { ...entry });
}

const add = (table: Map<string, bigint>, assetID: string, amount: bigint) =>
  table.set(assetID, (table.get(assetID) ?? 0n) + amount);

/** Throws the node's refusal when `outs` plus `fee` AVAX are not covered by `ins` (already verified as spendable). */
export function verifyConservation(
  world: World,
  ins: readonly TransferableInput[],
  outs: readonly TransferableOutput[],
  fee: bigint,
): void {
  const now = world.time.get();
  const unlockedConsumed = new Map<string, bigint>();
  const unlockedProduced = new Map<string, bigint>([[world.network.avaxAssetID, fee]]);
  const lockedConsumed = new Map<string, Locked>();
  const lockedProduced = new Map<string, Locked>();
  for (const input of ins) {
    const inner: Transaction = input.input;
    const locktime: bigint = inner._type === 'pvm.StakeableLockIn' ? inner.lockTime.value() : 0n;
    if (now >= locktime) add(unlockedConsumed, idText(input.assetId), input.amount());
    else {
      const utxo = world.utxos.P.get(keyOf(input))!;
      addLocked(lockedConsumed, {
        assetID: utxo.assetID,
        locktime,
        owner: ownerID(utxo.owner),
        amount: input.amount(),
      });
    }
  }
  for (const out of outs) {
    const output: Transaction = out.output;
    if (output._type !== 'pvm.StakeableLockOut') add(unlockedProduced, idText(out.assetId), out.amount());
    else {
      const owner = ownerID(ownerOf(output.transferOut)!);
      addLocked(lockedProduced, {
        assetID: idText(out.assetId),
        locktime: output.lockTime.value(),
        owner,
        amount: out.amount(),
      });
    }
  }
  for (const [key, produced] of lockedProduced) {
    const consumed = lockedConsumed.get(key)?.amount ?? 0n;
    if (produced.amount <= consumed) continue;
    const increase = produced.amount - consumed;
    const unlocked = unlockedConsumed.get(produced.assetID) ?? 0n;
    if (increase > unlocked)
      throw new Refusal(
        TEXTS.insufficientLocked(produced.owner, increase - unlocked, produced.assetID, produced.locktime),
      );
    unlockedConsumed.set(produced.assetID, unlocked - increase);
  }
  for (const [assetID, produced] of unlockedProduced) {
    const consumed = unlockedConsumed.get(assetID) ?? 0n;
    if (produced > consumed) throw new Refusal(TEXTS.insufficientUnlocked(produced - consumed, assetID));
  }
}
