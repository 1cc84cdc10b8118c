/**
 * What the node answers for bytes that are not a transaction, in the words of AvalancheGo's codec (codec/manager.go,
 * codec/reflectcodec/type_codec.go, codec/linearcodec/codec.go, utils/wrappers/packing.go) rather than avalanchejs'.
 *
 * The node reads a transaction field by field and fails at the first read the bytes cannot satisfy, naming the Go
 * kind it was reading (a uint32, a slice's length, an interface's type ID, ...). avalanchejs reads the same fields in
 * the same order but fails less precisely ("not enough bytes", or a short value and no error at all), so the failure
 * is located by decoding the bytes again, padded, with avalanchejs' primitive readers checked: the first read that
 * runs past the real end is where the node stopped, and its kind gives the node's text. The checks are on only while
 * locating (decoding is synchronous), so no other user of avalanchejs in the process sees them.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
import type { UtxoChain } from '../world/types.ts';

/** codec.NewDefaultManager's limit (256 KiB), the same for the X- and P-Chain parsers. */
export const MAX_TX_SIZE = 256 * 1024;
const MAX_SLICE_LENGTH = 0x7fff_ffff;
const INSUFFICIENT = 'packer has insufficient length for input';
const PADDING = 256;

/** The text for a read of `kind` past the end (reflectcodec prefixes all but fixed-size byte arrays). */
const shortRead = (kind: string) => (kind === 'bytes' ? INSUFFICIENT : `couldn't unmarshal ${kind}: ${INSUFFICIENT}`);
const tooLong = (length: number) =>
  `max slice length exceeded; array length, ${length}, exceeds maximum length, ${MAX_SLICE_LENGTH}`;

/** The node's error, thrown out of avalanchejs' readers while locating. */
class NodeError extends Error {}

type Reader = (buf: Uint8Array, codec?: unknown) => [unknown, Uint8Array];
type Readable = { fromBytes: Reader };

let locating: { total: number; end: number } | undefined;
/** The call site of the list reader's length read, learnt once (see calibrate). */
let listSite: string | undefined;

/** The frame that called the guarded reader: past this function, the guard's check and the reader's wrapper. */
const callSite = () => new Error().stack?.split('\n')[4] ?? '';
const offsetOf = (buf: Uint8Array) => locating!.total - buf.length;
const pastEnd = (buf: Uint8Array, size: number, skip = 0) => offsetOf(buf) + skip + size > locating!.end;
const u32 = (buf: Uint8Array) => Buffer.from(buf.buffer, buf.byteOffset, buf.length).readUInt32BE(0);
const u16 = (buf: Uint8Array) => Buffer.from(buf.buffer, buf.byteOffset, buf.length).readUInt16BE(0);

function guard(type: Readable, check: (buf: Uint8Array) => void): void {
  const original = type.fromBytes.bind(type);
  type.fromBytes = (buf, codec) => {
    if (locating) check(buf);
    return original(buf, codec);
  };
}

function fixed(type: Readable, size: number, kind: string): void {
  guard(type, (buf) => {
    if (pastEnd(buf, size)) throw new NodeError(shortRead(kind));
  });
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  const {
    BigIntPr,
    Short,
    Byte,
    Bool,
    Id,
    Address,
    NodeId,
    Signature,
    BlsPublicKey,
    BlsSignature,
    Int,
    Bytes,
    Stringpr,
  } = avalanche();
  fixed(BigIntPr as unknown as Readable, 8, 'uint64');
  fixed(Short as unknown as Readable, 2, 'uint16');
  fixed(Byte as unknown as Readable, 1, 'uint8');
  fixed(Bool as unknown as Readable, 1, 'bool');
  for (const [type, size] of [
    [Id, 32],
    [Address, 20],
    [NodeId, 20],
    [Signature, 65],
    [BlsPublicKey, 48],
    [BlsSignature, 96],
  ] as const)
    fixed(type as unknown as Readable, size, 'bytes');
  // An Int is a uint32 field, or a slice's length when the list reader reads it.
  guard(Int as unknown as Readable, (buf) => {
    const list = listSite === undefined || callSite() === listSite;
    if (pastEnd(buf, 4)) {
      if (listSite === undefined) listSite = callSite();
      throw new NodeError(shortRead(list ? 'slice' : 'uint32'));
    }
    if (list && u32(buf) > MAX_SLICE_LENGTH) throw new NodeError(tooLong(u32(buf)));
  });
  guard(Bytes as unknown as Readable, (buf) => {
    if (pastEnd(buf, 4)) throw new NodeError(shortRead('slice'));
    if (u32(buf) > MAX_SLICE_LENGTH) throw new NodeError(tooLong(u32(buf)));
    if (pastEnd(buf, u32(buf), 4)) throw new NodeError(INSUFFICIENT);
  });
  guard(Stringpr as unknown as Readable, (buf) => {
    if (pastEnd(buf, 2) || pastEnd(buf, u16(buf), 2)) throw new NodeError(shortRead('string'));
  });
  calibrate();
}

/** Learns the list reader's call site from a list known to be cut short: a credential's signatures. */
function calibrate(): void {
  locating = { total: 0, end: 0 };
  try {
    (avalanche().Credential as unknown as Readable).fromBytes(
      new Uint8Array(),
      avalanche().utils.getManagerForVM('AVM').getDefaultCodec(),
    );
  } catch {
    // Expected: the short read taught listSite.
  } finally {
    locating = undefined;
  }
}

const managerOf = (chain: UtxoChain | 'C') =>
  avalanche().utils.getManagerForVM(chain === 'X' ? 'AVM' : chain === 'P' ? 'PVM' : 'EVM');

type Manager = ReturnType<typeof managerOf>;

/** An interface's type ID read past the end: the codec's UnpackPrefix, on each codec instance once. */
function guardPrefix(manager: Manager): void {
  const codec = manager.getDefaultCodec() as unknown as { UnpackPrefix: Reader; guarded?: boolean };
  if (codec.guarded) return;
  const original = codec.UnpackPrefix;
  codec.UnpackPrefix = (buf) => {
    if (locating && pastEnd(buf, 4)) throw new NodeError(shortRead('interface'));
    return original(buf);
  };
  codec.guarded = true;
}

/**
 * Where the node's reader would stop in `bytes` read as `type` (after the codec version): its text, or the
 * avalanchejs error's when it is the node's too (an unknown type ID), else `fallback`.
 */
function locate(manager: Manager, type: Readable, bytes: Uint8Array, fallback: string): string {
  install();
  guardPrefix(manager);
  const padded = forReading(new Uint8Array(bytes.length + PADDING));
  padded.set(bytes);
  locating = { total: padded.length, end: bytes.length };
  try {
    manager.unpack(padded, type as never);
  } catch (error) {
    if (error instanceof NodeError) return error.message;
    const message = (error as Error).message;
    if (message.startsWith("couldn't unmarshal interface: unknown type ID")) return message;
  } finally {
    locating = undefined;
  }
  return fallback;
}

/**
 * codec/manager.go Unmarshal of `bytes` as `type`, a struct of avalanchejs' (codec version, then its fields): the
 * value, or a thrown Error with the node's text (version, a read past the end, trailing bytes). `size` is the length
 * the value takes encoded, to tell a complete read from avalanchejs' lenient short one.
 */
export function unmarshal<T>(
  manager: Manager,
  type: { fromBytes(buf: Uint8Array, codec: never): [T, Uint8Array] },
  bytes: Uint8Array,
  size: (value: T) => number,
): T {
  if (bytes.length < 2) throw new Error("couldn't unpack codec version");
  if (u16(bytes) !== 0) throw new Error('unknown codec version');
  let value: T;
  let rest: Uint8Array;
  try {
    [value, rest] = type.fromBytes(forReading(bytes.subarray(2)), manager.getDefaultCodec() as never);
  } catch (error) {
    throw new Error(locate(manager, type as unknown as Readable, bytes, (error as Error).message));
  }
  const read = 2 + size(value);
  if (read > bytes.length) throw new Error(locate(manager, type as unknown as Readable, bytes, INSUFFICIENT));
  if (rest.length > 0) throw new Error(trailing(bytes.length - rest.length, bytes.length));
  return value;
}

/**
 * The registered types that are no transaction, as Go's reflect names them (txs/codec.go, txs/parser.go; for the
 * C-Chain's atomic transactions coreth's plugin/evm/atomic/codec.go).
 */
const NOT_A_TX: Record<UtxoChain | 'C', Record<number, string>> = {
  C: {
    5: '*secp256k1fx.TransferInput',
    7: '*secp256k1fx.TransferOutput',
    9: '*secp256k1fx.Credential',
    10: '*secp256k1fx.Input',
    11: '*secp256k1fx.OutputOwners',
  },
  X: {
    5: '*secp256k1fx.TransferInput',
    6: '*secp256k1fx.MintOutput',
    7: '*secp256k1fx.TransferOutput',
    8: '*secp256k1fx.MintOperation',
    9: '*secp256k1fx.Credential',
    10: '*nftfx.MintOutput',
    11: '*nftfx.TransferOutput',
    12: '*nftfx.MintOperation',
    13: '*nftfx.TransferOperation',
    14: '*nftfx.Credential',
    15: '*propertyfx.MintOutput',
    16: '*propertyfx.OwnedOutput',
    17: '*propertyfx.MintOperation',
    18: '*propertyfx.BurnOperation',
    19: '*propertyfx.Credential',
  },
  P: {
    5: '*secp256k1fx.TransferInput',
    7: '*secp256k1fx.TransferOutput',
    9: '*secp256k1fx.Credential',
    10: '*secp256k1fx.Input',
    11: '*secp256k1fx.OutputOwners',
    21: '*stakeable.LockIn',
    22: '*stakeable.LockOut',
    27: '*signer.Empty',
    28: '*signer.ProofOfPossession',
  },
};

/** The node's text for `bytes` that avalanchejs could not decode (or decoded from a prefix only). */
export function parseError(chain: UtxoChain | 'C', bytes: Uint8Array, fallback: string): string {
  if (bytes.length > MAX_TX_SIZE) return `byte array exceeds maximum length: ${bytes.length} > ${MAX_TX_SIZE}`;
  if (bytes.length < 2) return "couldn't unpack codec version";
  if (u16(bytes) !== 0) return 'unknown codec version';
  if (bytes.length >= 6) {
    const name = NOT_A_TX[chain][u32(bytes.subarray(2))];
    const iface = chain === 'C' ? 'atomic.UnsignedAtomicTx' : 'txs.UnsignedTx';
    if (name) return `couldn't unmarshal interface: ${name} does not implement interface ${iface}`;
  }
  return locate(managerOf(chain), avalanche().avaxSerial.SignedTx as unknown as Readable, bytes, fallback);
}

/** codec/manager.go Unmarshal's check that the whole input was read. */
export const trailing = (read: number, provided: number) => `trailing buffer space: read ${read} provided ${provided}`;
