/**
 * Signed transactions and UTXOs through the official codec (@avalabs/avalanchejs): the mock never parses Avalanche's
 * binary formats by hand. IDs are the node's: a transaction's ID is sha256 of its signed bytes, a UTXO's is
 * sha256(outputIndex as uint64 || txID) (ids.ID.Prefix), both shown in cb58.
 */
import { type Common, Utxo, avaxSerial, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';

export type ChainName = 'X' | 'P';
export type Transaction = Common.Transaction;

export interface DecodedTx {
  chain: ChainName;
  tx: Transaction;
  /** One list of signatures per input, in the node's order. */
  credentials: Uint8Array[][];
  bytes: Uint8Array;
  id: string;
  /** sha256 of the unsigned bytes: what every signature signs. */
  unsignedHash: Uint8Array;
}

const manager = (chain: ChainName) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');

export const cb58 = (bytes: Uint8Array): string => utils.base58check.encode(bytes);
export const fromCb58 = (text: string): Uint8Array => utils.base58check.decode(text);
export const hashID = (bytes: Uint8Array): string => cb58(sha256(bytes));

/** Decodes the signed bytes of a transaction of `chain`; the codec's own error when they are not one. */
export function decodeTx(chain: ChainName, bytes: Uint8Array): DecodedTx {
  const codecs = manager(chain);
  const signed = codecs.unpack(bytes, avaxSerial.SignedTx);
  const tx = signed.unsignedTx;
  const unsigned = codecs.packCodec(tx);
  const credentials = signed.getCredentials().map((credential: { getSignatures(): string[] }) => credential.getSignatures().map((hex) => utils.hexToBuffer(hex) as Uint8Array));
  return { chain, tx, credentials, bytes, id: hashID(bytes), unsignedHash: sha256(unsigned) };
}

/** The ID under which a UTXO is stored and spent (avax.UTXOID.InputID). */
export function inputID(txID: Uint8Array, outputIndex: number): string {
  const prefix = new Uint8Array(8 + 32);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(outputIndex));
  prefix.set(txID, 8);
  return cb58(sha256(prefix));
}

/** A UTXO's bytes as `getUTXOs` returns them: codec version, then the UTXO. */
export function utxoBytes(chain: ChainName, utxo: Utxo): Uint8Array {
  const codecs = manager(chain);
  return utils.concatBytes(codecs.getDefaultCodecId().toBytes(), utxo.toBytes(codecs.getDefaultCodec()));
}

export function parseUtxo(chain: ChainName, bytes: Uint8Array): Utxo {
  return manager(chain).unpack(bytes, Utxo);
}

/** The bytes of a transaction inside a block: a block's codec version covers it, so its own is left out. */
export const withoutCodecVersion = (bytes: Uint8Array): Uint8Array => bytes.subarray(2);
