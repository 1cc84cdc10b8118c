/**
 * The checks the node makes of a transaction's outputs, inputs, owners and operations before it reads any state:
 * each `Verify()` of vms/components/avax (transferables.go, asset.go), vms/secp256k1fx, vms/nftfx and
 * vms/platformvm/stakeable, and the orderings avax.IsSortedTransferableOutputs and utils.IsSortedAndUnique demand.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import type { Transaction } from './codec.ts';
import { Refusal, TEXTS } from './refusals.ts';

type Codec = Parameters<TransferableOutput['toBytes']>[0];
const EMPTY_ID = Buffer.alloc(32);
const NFT_MAX_PAYLOAD = 1024;

/** secp256k1fx.OutputOwners.Verify. */
export function verifyOwners(owners: Transaction): void {
  const addrs: Uint8Array[] = owners.addrs.map((a: { toBytes(): Uint8Array }) => a.toBytes());
  const threshold: number = owners.threshold.value();
  if (threshold > addrs.length) throw new Refusal(TEXTS.outputUnspendable);
  if (threshold === 0 && addrs.length > 0) throw new Refusal(TEXTS.outputUnoptimized);
  for (let i = 1; i < addrs.length; i++)
    if (Buffer.compare(addrs[i - 1]!, addrs[i]!) >= 0) throw new Refusal(TEXTS.addrsNotSortedUnique);
}

/** secp256k1fx.Input.Verify: the signature indices ascend strictly. */
export function verifySigIndices(input: Transaction): void {
  const indices: number[] = input.values();
  for (let i = 1; i < indices.length; i++)
    if (indices[i - 1]! >= indices[i]!) throw new Refusal(TEXTS.sigIndicesNotSortedUnique);
}

/** The Verify of an fx output: a TransferableOutput's, an initial state's, or one an operation creates. */
export function verifyOutput(output: Transaction): void {
  switch (output._type) {
    case 'pvm.StakeableLockOut':
      if (output.lockTime.value() === 0n) throw new Refusal(TEXTS.invalidLocktime);
      if (output.transferOut._type === 'pvm.StakeableLockOut') throw new Refusal(TEXTS.nestedStakeableLocks);
      return verifyOutput(output.transferOut);
    case 'secp256k1fx.TransferOutput':
      if (output.amount() === 0n) throw new Refusal(TEXTS.noValueOutput);
      return verifyOwners(output.outputOwners);
    case 'nftfx.TransferOutput':
      if (output.payload.length > NFT_MAX_PAYLOAD) throw new Refusal(TEXTS.payloadTooLarge);
      return verifyOwners(output.outputOwners);
    case 'secp256k1fx.MintOutput':
    case 'nftfx.MintOutput':
    case 'propertyfx.MintOutput':
    case 'propertyfx.OwnedOutput':
      return verifyOwners(output.outputOwners);
  }
}

/** The Verify of an fx input (stakeable.LockIn around a secp256k1fx.TransferInput on P). */
function verifyInput(input: Transaction): void {
  if (input._type === 'pvm.StakeableLockIn') {
    if (input.lockTime.value() === 0n) throw new Refusal(TEXTS.invalidLocktime);
    if (input.transferableInput._type === 'pvm.StakeableLockIn') throw new Refusal(TEXTS.nestedStakeableLocks);
    return verifyInput(input.transferableInput);
  }
  if (input._type === 'secp256k1fx.TransferInput') {
    if (input.amount() === 0n) throw new Refusal(TEXTS.noValueInput);
    verifySigIndices(input.input);
  }
}

/** avax.Asset.Verify. */
function verifyAsset(assetId: { toBytes(): Uint8Array }): void {
  if (EMPTY_ID.equals(assetId.toBytes())) throw new Refusal(TEXTS.emptyAssetID);
}

export function verifyTransferableOutput(out: TransferableOutput): void {
  verifyAsset(out.assetId);
  verifyOutput(out.output);
}

export function verifyTransferableInput(input: TransferableInput): void {
  verifyAsset(input.assetId);
  verifyInput(input.input);
}

/** avax.IsSortedTransferableOutputs: by asset ID, then by the output's codec bytes (type ID first); ties allowed. */
export function checkOutputsSorted(outs: readonly TransferableOutput[], codec: Codec): void {
  // One output is sorted: its bytes are not encoded for nothing.
  if (outs.length < 2) return;
  let previous: Uint8Array | undefined;
  for (const out of outs) {
    const key = out.toBytes(codec);
    if (previous && Buffer.compare(key, previous) < 0) throw new Refusal(TEXTS.outputsNotSorted);
    previous = key;
  }
}

/** An operation's own Verify (avm txs.Operation, then the fx operation's). */
export function verifyOperation(op: Transaction): void {
  const utxoIDs: Transaction[] = op.UTXOId;
  for (let i = 1; i < utxoIDs.length; i++) {
    const a = utxoIDs[i - 1];
    const b = utxoIDs[i];
    const order = Buffer.compare(a.txID.toBytes(), b.txID.toBytes()) || a.outputIdx.value() - b.outputIdx.value();
    if (order >= 0) throw new Refusal(TEXTS.utxoIDsNotSortedUnique);
  }
  verifyAsset(op.assetId);
  const fxOp = op.transferOp;
  switch (fxOp._type) {
    case 'secp256k1fx.MintOperation':
      verifySigIndices(fxOp.input);
      verifyOutput(fxOp.mintOutput);
      verifyOutput(fxOp.transferOutput);
      return;
    case 'nftfx.MintOperation':
      if (fxOp.payload.length > NFT_MAX_PAYLOAD) throw new Refusal(TEXTS.payloadTooLarge);
      for (const owners of fxOp.outputOwnerList.outputOwners) verifyOwners(owners);
      verifySigIndices(fxOp.input);
      return;
    case 'nftfx.TransferOperation':
      verifySigIndices(fxOp.input);
      verifyOutput(fxOp.output);
      return;
    // vms/propertyfx: MintOperation.Verify is verify.All(&op.MintInput, &op.MintOutput, &op.OwnedOutput).
    case 'propertyfx.MintOperation':
      verifySigIndices(fxOp.input);
      verifyOutput(fxOp.mintOutput);
      verifyOutput(fxOp.ownedOutput);
      return;
    case 'propertyfx.BurnOperation':
      verifySigIndices(fxOp.input);
      return;
  }
}
