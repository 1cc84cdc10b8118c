/**
 * Signed transactions through the official codec (@avalabs/avalanchejs): the mock never parses a transaction's binary
 * format by hand. A transaction's ID is sha256 of its signed bytes; what its signatures sign is sha256 of its unsigned
 * bytes (codec version, then the typed transaction), as the node computes them.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { idBytes, idOf, sha256, utxoKeyOf } from '../world/codec.ts';
import type { Owner, Utxo, UtxoChain } from '../world/types.ts';
import { MAX_TX_SIZE, parseError, trailing } from './parse-errors.ts';
import { Refusal } from './refusals.ts';

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
  /** Each credential's type (`secp256k1fx.Credential`, `nftfx.Credential`): the fx it belongs to. */
  credentialTypes: string[];
  bytes: Uint8Array;
  id: string;
  /** What every signature signs. */
  unsignedHash: Uint8Array;
  /** The release the tx is issued to (`--node-version`): its fees (./p.ts txFee) and its refusals' wrapping. */
  release?: string;
}

const manager = (chain: UtxoChain | 'C') =>
  avalanche().utils.getManagerForVM(chain === 'X' ? 'AVM' : chain === 'P' ? 'PVM' : 'EVM');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Zeros after the bytes while decoding: avalanchejs' readers return a short value past the end rather than fail, so
 * a transaction cut short reads on into them, and a read that ends past the real end tells it.
 */
const PAST_END = 256;
const SIGNATURE_BYTES = 65;

/**
 * The signed bytes of a transaction of `chain` through its codec: the transaction, its signatures and its unsigned
 * bytes (a slice of `bytes`: the codec's encoding is canonical, so the node's re-marshalled bytes are these); the node's
 * parse error (./parse-errors.ts) when they are not one. `check` runs on a complete read, before trailing bytes count.
 */
export function decodeSigned(
  chain: UtxoChain | 'C',
  bytes: Uint8Array,
  check?: (tx: Transaction) => void,
): { tx: Transaction; credentials: Uint8Array[][]; unsigned: Uint8Array } {
  const { avaxSerial, utils } = avalanche();
  if (bytes.length > MAX_TX_SIZE) throw new Refusal(parseError(chain, bytes, ''));
  let signed: InstanceType<typeof avaxSerial.SignedTx>;
  let rest: Uint8Array;
  try {
    const [codec, body] = manager(chain).getCodecFromBuffer(forReading(bytes, PAST_END));
    [signed, rest] = avaxSerial.SignedTx.fromBytes(body, codec);
  } catch (error) {
    throw new Refusal(parseError(chain, bytes, (error as Error).message));
  }
  const read = bytes.length + PAST_END - rest.length;
  // Read past the end: where the node's reader stops.
  if (read > bytes.length) throw new Refusal(parseError(chain, bytes, ''));
  const tx = signed.unsignedTx;
  check?.(tx);
  if (read < bytes.length) throw new Refusal(trailing(read, bytes.length));
  const creds: { getSignatures(): string[] }[] = signed.getCredentials();
  const credentials = creds.map((credential) =>
    credential.getSignatures().map((sig) => utils.hexToBuffer(sig) as Uint8Array),
  );
  // The credentials' encoding (a count, then per credential its type ID, a count and the signatures) ends the bytes;
  // what comes before is the unsigned tx as the node hashes it.
  const credentialBytes = 4 + credentials.reduce((sum, sigs) => sum + 8 + SIGNATURE_BYTES * sigs.length, 0);
  return { tx, credentials, unsigned: bytes.subarray(0, bytes.length - credentialBytes) };
}

/** Decodes the signed bytes of a transaction of `chain`; the node's parse error (./parse-errors.ts) when they are not one. */
export function decodeTx(chain: UtxoChain, bytes: Uint8Array): DecodedTx {
  const { tx, credentials, unsigned } = decodeSigned(chain, bytes, chain === 'X' ? checkTransferables : undefined);
  const credentialTypes = credentialTypesOf(chain, bytes, unsigned.length, credentials.length);
  return { chain, tx, credentials, credentialTypes, bytes, id: idOf(bytes), unsignedHash: sha256(unsigned) };
}

/**
 * The node's codec refuses, while parsing, an X-Chain output or input of a type its interface does not admit (a mint
 * output or an NFT where a TransferableOut must be, an output where a TransferableIn must be); avalanchejs' admits any
 * registered type there. avalanchejs names the X-Chain's types after the node's Go packages.
 */
function checkTransferables(tx: Transaction): void {
  if (!tx.baseTx) return;
  const refuse = (value: { _type: string }, iface: string) => {
    throw new Refusal(`couldn't unmarshal interface: *${value._type} does not implement interface ${iface}`);
  };
  for (const out of [...tx.baseTx.outputs, ...(tx._type === 'avm.ExportTx' ? tx.outs : [])])
    if (out.output._type !== 'secp256k1fx.TransferOutput') refuse(out.output, 'avax.TransferableOut');
  for (const input of [...tx.baseTx.inputs, ...(tx._type === 'avm.ImportTx' ? tx.ins : [])])
    if (input.input._type !== 'secp256k1fx.TransferInput') refuse(input.input, 'avax.TransferableIn');
}

const CREDENTIAL_TYPES: Record<number, string> = {
  9: 'secp256k1fx.Credential',
  14: 'nftfx.Credential',
  19: 'propertyfx.Credential',
};

/**
 * Each credential's type, read from its type ID in the signed bytes: avalanchejs 5.2.0 decodes an nftfx credential
 * into a secp256k1fx one (the subclass inherits its parent's fromBytes), and the fx a credential names matters to the
 * node. The layout after the unsigned bytes is the codec's: a count, then per credential its type ID, a signature
 * count and 65-byte signatures, already checked by the decode above.
 */
export function credentialTypesOf(chain: UtxoChain, bytes: Uint8Array, offset: number, count: number): string[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const types: string[] = [];
  let at = offset + 4;
  for (let i = 0; i < count; i++) {
    const typeID = view.readUInt32BE(at);
    types.push(chain === 'X' ? (CREDENTIAL_TYPES[typeID] ?? `type ${typeID}`) : 'secp256k1fx.Credential');
    at += 8 + 65 * view.readUInt32BE(at + 4);
  }
  return types;
}

/** cb58 texts of IDs by their hex: a world's transactions name few distinct IDs, and cb58 encoding is slow. */
const idTexts = new Map<string, string>();

/** An avalanchejs ID's cb58 text (its `toString()`), encoded once per distinct ID. */
export function idText(id: { toBytes(): Uint8Array }): string {
  const bytes = id.toBytes();
  const key = hex(bytes);
  let text = idTexts.get(key);
  if (text === undefined) {
    text = cb58Encode(bytes);
    if (idTexts.size >= 4096) idTexts.clear();
    idTexts.set(key, text);
  }
  return text;
}

/** The UTXO table key (hex of the UTXO ID) of an input's UTXOID. */
export function keyOf(input: { utxoID: { txID: { toBytes(): Uint8Array }; outputIdx: { value(): number } } }): string {
  return utxoKeyOf(idText(input.utxoID.txID), input.utxoID.outputIdx.value());
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
    new avaxSerial.UTXOID(new Id(idBytes(txID)), new Int(index)),
    new Id(idBytes(assetID)),
    output,
  );
  const bytes = utils.concatBytes(
    codecs.getDefaultCodecId().toBytes(),
    utxo.toBytes(codecs.getDefaultCodec()),
  ) as Uint8Array;
  return utxoOf(txID, index, assetID, output, bytes);
}

/** The world's record of a UTXO from its codec output (a stakeable.LockOut unwrapped) and its bytes. */
export function utxoOf(
  txID: string,
  outputIndex: number,
  assetID: string,
  output: Transaction,
  bytes: Uint8Array,
): Utxo {
  let inner = output;
  let stakeableLocktime = 0n;
  if (inner._type === 'pvm.StakeableLockOut') {
    stakeableLocktime = inner.lockTime.value();
    inner = inner.transferOut;
  }
  const amount = inner._type === 'secp256k1fx.TransferOutput' ? (inner.amount() as bigint) : 0n;
  const owner = ownerOf(inner) ?? { locktime: 0n, threshold: 0, addresses: [] };
  return { key: utxoKeyOf(txID, outputIndex), txID, outputIndex, assetID, amount, owner, stakeableLocktime, bytes };
}

/** linearcodec type ID of a stored UTXO's output (after codec version, tx ID, index, asset ID). */
export const outputType = (utxo: Utxo): number => {
  const { bytes } = utxo;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32BE(70);
};
export const TRANSFER_OUTPUT = 7;
/** The AVM codec's type IDs of the fxs' outputs (vms/avm/txs/parser.go: secp256k1fx from 5, nftfx from 10). */
export const MINT_OUTPUT = 6;
export const NFT_MINT_OUTPUT = 10;
export const NFT_TRANSFER_OUTPUT = 11;

/** The fx output a stored X-Chain UTXO holds, decoded by the codec (operations compare its group ID and payload). */
export function storedOutput(utxo: Utxo): Transaction {
  return manager('X').unpack(forReading(utxo.bytes), avalanche().Utxo).output;
}

/** The class the AVM codec registers under `typeID` (avalanchejs exports no nftfx classes by name). */
export function avmClass(typeID: number): new (...args: never[]) => Transaction {
  const codec = manager('X').getDefaultCodec() as unknown as { typeIdToType: (new (...args: never[]) => unknown)[] };
  return codec.typeIdToType[typeID]!;
}
export const STAKEABLE_LOCK_OUT = 22;

export const shortIDText = (address: string): string => cb58Encode(Buffer.from(address, 'hex'));
