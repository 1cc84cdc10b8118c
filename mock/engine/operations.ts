/**
 * The X-Chain's OperationTx: its syntactic checks (vms/avm/txs/executor/syntactic_verifier.go), each operation's
 * semantic check (semantic_verifier.go verifyOperation, then the fx's VerifyOperation: vms/secp256k1fx/fx.go for a
 * mint of a variable-cap asset, vms/nftfx/fx.go for an NFT mint or transfer) and the UTXOs it creates (executor.go).
 * propertyfx's mint and burn (vms/propertyfx/fx.go) decode through the types ./propertyfx.ts registers.
 */
import type { TransferableInput } from '@avalabs/avalanchejs';
import type { Int, OutputOwners } from '@avalabs/avalanchejs';
import { avalanche } from '../shared/avalanche.ts';
import { utxoKeyOf } from '../world/codec.ts';
import type { Owner, Utxo } from '../world/types.ts';
import type { World } from '../world/world.ts';
import {
  type DecodedTx,
  MINT_OUTPUT,
  NFT_MINT_OUTPUT,
  NFT_TRANSFER_OUTPUT,
  type Transaction,
  avmClass,
  keyOf,
  outputType,
  ownerOf,
  storedOutput,
  utxoRecord,
} from './codec.ts';
import type { Effects } from './effects.ts';
import { PROPERTY_MINT_OUTPUT, PROPERTY_OWNED_OUTPUT } from '../shared/propertyfx.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { verifyCredentials } from './spend.ts';
import { verifyOperation } from './syntax.ts';

/** vms/avm's fx indices, by the prefix of the avalanchejs type name. */
const FX_INDEX: Record<string, number> = { secp256k1fx: 0, nftfx: 1, propertyfx: 2 };

/** getFx: the fx a type of output, input, operation or credential belongs to. */
export function fxOf(type: string): number {
  const fx = FX_INDEX[type.slice(0, type.indexOf('.'))];
  if (fx === undefined) throw new Refusal(TEXTS.unknownFx);
  return fx;
}

/** verifyFxUsage: the asset was created with an initial state of `fx`. */
export function verifyFxUsage(world: World, fx: number, assetID: string): void {
  const asset = world.assets.get(assetID);
  if (!asset) {
    const tx = world.txs.get(assetID);
    throw new Refusal(tx?.chain === 'X' && tx.status === 'Accepted' ? TEXTS.notAnAsset : TEXTS.notFound);
  }
  if (!(asset.fxs ?? [0]).includes(fx)) throw new Refusal(TEXTS.incompatibleFx);
}

const utxoKey = (utxoID: Transaction): string => utxoKeyOf(utxoID.txID.toString(), utxoID.outputIdx.value());

/** Each operation's own check, no UTXO spent twice across inputs and operations, operations sorted and unique. */
export function verifyOperationsSyntax(ins: readonly TransferableInput[], ops: readonly Transaction[]): void {
  const spent = new Set(ins.map(keyOf));
  for (const op of ops) {
    verifyOperation(op);
    for (const utxoID of op.UTXOId) {
      const key = utxoKey(utxoID);
      if (spent.has(key)) throw new Refusal(TEXTS.doubleSpend);
      spent.add(key);
    }
  }
  const codec = avalanche().utils.getManagerForVM('AVM').getDefaultCodec();
  let previous: Uint8Array | undefined;
  for (const op of ops) {
    const key = op.toBytes(codec);
    if (previous && Buffer.compare(previous, key) >= 0) throw new Refusal(TEXTS.operationsNotSortedUnique);
    previous = key;
  }
}

const sameOwner = (a: Owner, b: Owner | undefined): boolean =>
  b !== undefined &&
  a.locktime === b.locktime &&
  a.threshold === b.threshold &&
  a.addresses.length === b.addresses.length &&
  a.addresses.every((address, i) => address === b.addresses[i]);

/** The fx's VerifyOperation on the operation's UTXOs, with the credential at `index`. */
function verifyFxOperation(world: World, decoded: DecodedTx, op: Transaction, utxos: Utxo[], index: number): void {
  const fxOp = op.transferOp;
  const credentialType = decoded.credentialTypes[index]!;
  const sign = (input: Transaction, owner: Owner) =>
    verifyCredentials(
      decoded.unsignedHash,
      input.values(),
      decoded.credentials[index]!,
      owner,
      world.time.get(),
      world.impersonated,
    );
  if (fxOf(fxOp._type) === 0) {
    if (fxOp._type !== 'secp256k1fx.MintOperation') throw new Refusal(TEXTS.wrongOpType);
    if (credentialType !== 'secp256k1fx.Credential') throw new Refusal(TEXTS.wrongCredentialType);
    if (utxos.length !== 1) throw new Refusal(TEXTS.wrongNumberOfUTXOs);
    const utxo = utxos[0]!;
    if (outputType(utxo) !== MINT_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
    if (!sameOwner(utxo.owner, ownerOf(fxOp.mintOutput))) throw new Refusal(TEXTS.wrongMintCreated);
    return sign(fxOp.input, utxo.owner);
  }
  if (utxos.length !== 1) throw new Refusal(TEXTS.nftWrongNumberOfUTXOs);
  if (fxOf(fxOp._type) === 2) return verifyPropertyOperation(fxOp, credentialType, utxos[0]!, sign);
  if (credentialType !== 'nftfx.Credential') throw new Refusal(TEXTS.wrongCredentialType);
  const utxo = utxos[0]!;
  if (fxOp._type === 'nftfx.MintOperation') {
    if (outputType(utxo) !== NFT_MINT_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
    if (storedOutput(utxo).groupId.value() !== fxOp.groupId.value()) throw new Refusal(TEXTS.wrongUniqueID);
    return sign(fxOp.input, utxo.owner);
  }
  if (fxOp._type !== 'nftfx.TransferOperation') throw new Refusal(TEXTS.wrongOpType);
  if (outputType(utxo) !== NFT_TRANSFER_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
  const held = storedOutput(utxo);
  if (held.groupId.value() !== fxOp.output.groupId.value()) throw new Refusal(TEXTS.wrongUniqueID);
  if (!Buffer.from(held.payload.bytes).equals(Buffer.from(fxOp.output.payload.bytes)))
    throw new Refusal(TEXTS.wrongBytes);
  return sign(fxOp.input, utxo.owner);
}

/** propertyfx Fx.VerifyOperation (vms/propertyfx/fx.go), after its check of the UTXO count. */
function verifyPropertyOperation(
  fxOp: Transaction,
  credentialType: string,
  utxo: Utxo,
  sign: (input: Transaction, owner: Owner) => void,
): void {
  if (credentialType !== 'propertyfx.Credential') throw new Refusal(TEXTS.wrongCredentialType);
  if (fxOp._type === 'propertyfx.MintOperation') {
    if (outputType(utxo) !== PROPERTY_MINT_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
    if (!sameOwner(utxo.owner, ownerOf(fxOp.mintOutput))) throw new Refusal(TEXTS.wrongMintOutputProvided);
    return sign(fxOp.input, utxo.owner);
  }
  if (fxOp._type !== 'propertyfx.BurnOperation') throw new Refusal(TEXTS.wrongOpType);
  if (outputType(utxo) !== PROPERTY_OWNED_OUTPUT) throw new Refusal(TEXTS.wrongUtxoType);
  return sign(fxOp.input, utxo.owner);
}

/** OperationTx's semantic part after BaseTx's: each operation's UTXOs, asset, fx and the fx's check, unwrapped. */
export function verifyOperations(world: World, decoded: DecodedTx, ops: readonly Transaction[], offset: number): void {
  ops.forEach((op, i) => {
    const assetID: string = op.assetId.toString();
    const utxos = op.UTXOId.map((utxoID: Transaction) => {
      const utxo = world.utxos.X.get(utxoKey(utxoID));
      if (!utxo) throw new Refusal(TEXTS.notFound);
      if (utxo.assetID !== assetID) throw new Refusal(TEXTS.assetIDMismatch);
      return utxo;
    });
    verifyFxUsage(world, fxOf(op.transferOp._type), assetID);
    verifyFxOperation(world, decoded, op, utxos, offset + i);
  });
}

/** The outputs an fx operation creates (its Outs()), in order. */
export function outsOf(fxOp: Transaction): Transaction[] {
  switch (fxOp._type) {
    case 'secp256k1fx.MintOperation':
      return [fxOp.mintOutput, fxOp.transferOutput];
    case 'nftfx.MintOperation': {
      const NftTransferOutput = avmClass(NFT_TRANSFER_OUTPUT) as new (
        groupId: Int,
        payload: unknown,
        owners: OutputOwners,
      ) => Transaction;
      return fxOp.outputOwnerList.outputOwners.map(
        (owners: OutputOwners) =>
          new NftTransferOutput(new (avalanche().Int)(fxOp.groupId.value()), fxOp.payload, owners),
      );
    }
    case 'propertyfx.MintOperation':
      return [fxOp.mintOutput, fxOp.ownedOutput];
    case 'propertyfx.BurnOperation':
      return [];
    default:
      return [fxOp.output];
  }
}

/** executor.go OperationTx: each operation's UTXOs consumed, its outputs numbered after the transaction's own. */
export function operationEffects(
  decoded: DecodedTx,
  ops: readonly Transaction[],
  effects: Effects,
  offset: number,
): void {
  let index = offset;
  for (const op of ops) {
    for (const utxoID of op.UTXOId) effects.consumed.push(utxoKey(utxoID));
    const assetID: string = op.assetId.toString();
    for (const out of outsOf(op.transferOp)) effects.produced.push(utxoRecord('X', decoded.id, index++, assetID, out));
  }
}
