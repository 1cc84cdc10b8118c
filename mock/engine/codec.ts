/**
 * Signed transactions through the official codec (@avalabs/avalanchejs): the mock never parses a transaction's binary
 * format by hand. A transaction's ID is sha256 of its signed bytes; what its signatures sign is sha256 of its unsigned
 * bytes (codec version, then the typed transaction), as the node computes them.
 */
import { avalanche } from './avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { idOf, sha256, utxoKeyOf } from '../world/codec.ts';
import type { Owner, Utxo, UtxoChain } from '../world/types.ts';

/**
 * A decoded transaction, read by field: the engine dispatches on `_type` over some twenty classes whose declared
 * union type adds nothing the verifiers check.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Transaction = any;

export interface DecodedTx {
  chain: UtxoChain;
  tx: Transaction;
  /** One list of signatures per credential, in the transaction's order. */
  credentials: Uint8Array[][];
  bytes: Uint8Array;
  id: string;
  /** What every signature signs. */
  unsignedHash: Uint8Array;
}

const manager = (chain: UtxoChain) => avalanche().utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Decodes the signed bytes of a transaction of `chain`; the codec's own error when they are not one. */
export function decodeTx(chain: UtxoChain, bytes: Uint8Array): DecodedTx {
  const { avaxSerial, utils } = avalanche();
  const codecs = manager(chain);
  const signed = codecs.unpack(bytes, avaxSerial.SignedTx);
  const tx = signed.unsignedTx;
  const credentials = signed
    .getCredentials()
    .map((credential: { getSignatures(): string[] }) =>
      credential.getSignatures().map((sig) => utils.hexToBuffer(sig) as Uint8Array),
    );
  return { chain, tx, credentials, bytes, id: idOf(bytes), unsignedHash: sha256(codecs.packCodec(tx)) };
}

/** The UTXO table key (hex of the UTXO ID) of an input's UTXOID. */
export function keyOf(input: {
  utxoID: { txID: { toBytes(): Uint8Array; toString(): string }; outputIdx: { value(): number } };
}): string {
  return utxoKeyOf(input.utxoID.txID.toString(), input.utxoID.outputIdx.value());
}

/** The owner of a secp256k1fx output or OutputOwners, as the world records it. */
export function ownerOf(output: unknown): Owner | undefined {
  const o = ((output as { outputOwners?: unknown }).outputOwners ?? output) as {
    locktime?: { value(): bigint };
    threshold?: { value(): number };
    addrs?: { toBytes(): Uint8Array }[];
  };
  if (!o.locktime || !o.threshold || !o.addrs) return undefined;
  return {
    locktime: o.locktime.value(),
    threshold: o.threshold.value(),
    addresses: o.addrs.map((a) => hex(a.toBytes())),
  };
}

/** The world's record of output `index` of transaction `txID`, its bytes from the codec. */
export function utxoRecord(chain: UtxoChain, txID: string, index: number, assetID: string, output: Transaction): Utxo {
  const { Id, Int, Utxo: CodecUtxo, avaxSerial, utils } = avalanche();
  const codecs = manager(chain);
  const utxo = new CodecUtxo(
    new avaxSerial.UTXOID(Id.fromString(txID), new Int(index)),
    Id.fromString(assetID),
    output,
  );
  const bytes = utils.concatBytes(
    codecs.getDefaultCodecId().toBytes(),
    utxo.toBytes(codecs.getDefaultCodec()),
  ) as Uint8Array;
  let inner = output;
  let stakeableLocktime = 0n;
  if (inner._type === 'pvm.StakeableLockOut') {
    stakeableLocktime = inner.lockTime.value();
    inner = inner.transferOut;
  }
  const amount =
    typeof inner.amount === 'function' && inner._type === 'secp256k1fx.TransferOutput'
      ? (inner.amount() as bigint)
      : 0n;
  const owner = ownerOf(inner) ?? { locktime: 0n, threshold: 0, addresses: [] };
  return {
    key: utxoKeyOf(txID, index),
    txID,
    outputIndex: index,
    assetID,
    amount,
    owner,
    stakeableLocktime,
    bytes,
  };
}

/** linearcodec type ID of a stored UTXO's output (after codec version, tx ID, index, asset ID). */
export const outputType = (utxo: Utxo): number => {
  const { bytes } = utxo;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32BE(70);
};
export const TRANSFER_OUTPUT = 7;
export const STAKEABLE_LOCK_OUT = 22;

export const shortIDText = (address: string): string => cb58Encode(Buffer.from(address, 'hex'));
