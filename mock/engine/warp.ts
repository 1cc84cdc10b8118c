import { avalanche } from '../shared/avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { EMPTY_ID } from '../world/networks.ts';
import { validatorSet } from '../world/stakers.ts';
import type { World } from '../world/world.ts';
import type { Transaction } from './codec.ts';
import { publicKeyFromBytes, signatureFromBytes, uncompressed, verifyAggregate } from './bls.ts';
import { Refusal } from './refusals.ts';
import { unmarshal } from './parse-errors.ts';

// Read on use: importing this module (the engine does, at start-up) must not load the codec.
const warp = () => avalanche().pvmSerial.warp;
const payloads = () => warp().AddressedCallPayloads;
const QUORUM = { numerator: 67n, denominator: 100n };

/** A refusal of txs/executor's warp verifier, which block/executor/manager.go wraps apart from execution's. */
export class WarpRefusal extends Refusal {}

const WARP_TEXTS = {
  // vms/platformvm/warp/signer.go, signature.go, validator.go
  wrongNetworkID: 'wrong networkID',
  invalidBitSet: 'bitset is invalid',
  unknownValidator: (index: number, count: number) =>
    `unknown validator: NumIndices (${index}) >= NumFilteredValidators (${count})`,
  insufficientWeight: (total: bigint, signed: bigint) =>
    `signature weight is insufficient: ${QUORUM.numerator}*${total} > ${QUORUM.denominator}*${signed}`,
  parseSignature: (inner: string) => `failed to parse signature: ${inner}`,
  invalidSignature: 'signature is invalid',
  // vms/platformvm/validators/manager.go GetSubnetID
  unknownChain: (chainID: string) => `problem retrieving blockchain "${chainID}": not found`,
  notAChain: (chainID: string) => `"${chainID}" is not a blockchain`,
  // vms/platformvm/warp/message/payload.go, warp/payload/payload.go
  wrongPayloadType: (goType: string) => `wrong payload type: ${goType}`,
} as const;

export interface ParsedWarp {
  networkID: number;
  sourceChainID: string;
  /** The unsigned message's bytes (codec version first): what the validators sign. */
  unsignedBytes: Uint8Array;
  payload: Uint8Array;
  signers: Uint8Array;
  signature: Uint8Array;
}

const manager = () => warp().getWarpManager();
/** The node's codec text as a refusal; any other error (a bug of the mock's) as it is. */
const codecRefusal = (error: unknown) => new Refusal((error as Error).message);
/** What a struct takes encoded, to tell avalanchejs' lenient short read from a complete one. */
const encodedSize = (value: { toBytes(codec: never): Uint8Array }) =>
  value.toBytes(manager().getDefaultCodec() as never).length;
/** payload/codec.go: the payload codec's limit (message/codec.go and warp/codec.go have none). */
const MAX_PAYLOAD_SIZE = 24 * 1024;

/** warp.ParseMessage: codec/manager.go's Unmarshal, in the node's words. */
export function parseWarp(bytes: Uint8Array): ParsedWarp {
  let message: Transaction;
  try {
    message = unmarshal(manager(), warp().WarpMessage, bytes, encodedSize);
  } catch (error) {
    throw codecRefusal(error);
  }
  const unsigned = message.unsignedMessage;
  return {
    networkID: unsigned.networkId.value(),
    sourceChainID: unsigned.sourceChainId.toString(),
    unsignedBytes: bytes.subarray(0, 2 + unsignedLength(unsigned)),
    payload: unsigned.payload.bytes,
    signers: message.signature.signers.bytes,
    signature: message.signature.signature.toBytes(),
  };
}

/** Codec version, network ID, source chain, then the length-prefixed payload. */
const unsignedLength = (unsigned: { payload: { bytes: Uint8Array } }) => 4 + 32 + 4 + unsigned.payload.bytes.length;

type Struct = { fromBytes(buf: Uint8Array, codec: never): [{ toBytes(codec: never): Uint8Array }, Uint8Array] };

/** payload.Hash (type 0 of the payload codec), which avalanchejs lacks: its type ID, then the hash. */
const HashPayload: Struct = {
  fromBytes(buf) {
    const { Int, Id } = avalanche();
    const [, afterType] = Int.fromBytes(buf);
    const [hash, rest] = Id.fromBytes(afterType);
    return [{ toBytes: () => new Uint8Array(4 + hash.toBytes().length) }, rest];
  },
};

/**
 * Parse of a codec whose value is an interface (payload.Parse, message.Parse): the type ID read, then the whole value
 * of that type, and only then the caller's type assertion (ErrWrongType). `types` are the registered types in ID order.
 */
function parseInterface<T>(bytes: Uint8Array, types: readonly [string, Struct][], wanted: number, max?: number): T {
  try {
    if (max !== undefined && bytes.length > max)
      throw new Error(`byte array exceeds maximum length: ${bytes.length} > ${max}`);
    if (bytes.length < 2) throw new Error("couldn't unpack codec version");
    if (Buffer.from(bytes.subarray(0, 2)).readUInt16BE(0) !== 0) throw new Error('unknown codec version');
    if (bytes.length < 6) throw new Error("couldn't unmarshal interface: packer has insufficient length for input");
    const type = Buffer.from(bytes.subarray(2, 6)).readUInt32BE(0);
    const entry = types[type];
    if (!entry) throw new Error(`couldn't unmarshal interface: unknown type ID ${type}`);
    const value = unmarshal(manager(), entry[1], bytes, encodedSize);
    if (type !== wanted) throw new Error(WARP_TEXTS.wrongPayloadType(entry[0]));
    return value as T;
  } catch (error) {
    throw codecRefusal(error);
  }
}

/** payload.ParseAddressedCall: its source address and payload. */
export function parseAddressedCall(bytes: Uint8Array): { sourceAddress: Uint8Array; payload: Uint8Array } {
  const types: [string, Struct][] = [
    ['*payload.Hash', HashPayload],
    ['*payload.AddressedCall', payloads().AddressedCall as unknown as Struct],
  ];
  const call = parseInterface<Transaction>(bytes, types, 1, MAX_PAYLOAD_SIZE);
  return { sourceAddress: call.sourceAddress.toBytes(), payload: call.payload.bytes };
}

/** message.ParseRegisterL1Validator / ParseL1ValidatorWeight: the message of type `typeID`, or the node's refusal. */
export function parseL1Message<T>(bytes: Uint8Array, typeID: 1 | 3): T {
  const types: [string, Struct][] = [
    ['*message.SubnetToL1Conversion', payloads().SubnetToL1ConversionMessage as unknown as Struct],
    ['*message.RegisterL1Validator', payloads().RegisterL1ValidatorMessage as unknown as Struct],
    ['*message.L1ValidatorRegistration', payloads().L1ValidatorRegistrationMessage as unknown as Struct],
    ['*message.L1ValidatorWeight', payloads().L1ValidatorWeightMessage as unknown as Struct],
  ];
  return parseInterface<T>(bytes, types, typeID);
}

/** validators.GetSubnetID: the P-Chain is the Primary Network's; any other chain must be a CreateChainTx's. */
function subnetOfChain(world: World, chainID: string): string {
  if (chainID === world.chainIDs.P) return EMPTY_ID;
  const chain = world.chains.get(chainID);
  if (chain) return chain.subnetID;
  if (world.inPState(chainID)) throw new Refusal(WARP_TEXTS.notAChain(chainID));
  throw new Refusal(WARP_TEXTS.unknownChain(chainID));
}

/** The bits set in a big-endian bit vector (set.BitsFromBytes), and whether it has no superfluous leading zeros. */
function bitsOf(bytes: Uint8Array): { indices: number[]; bitLength: number; minimal: boolean } {
  const indices: number[] = [];
  let bitLength = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[bytes.length - 1 - i]!;
    for (let bit = 0; bit < 8; bit++) {
      if (byte & (1 << bit)) {
        indices.push(i * 8 + bit);
        bitLength = i * 8 + bit + 1;
      }
    }
  }
  return { indices, bitLength, minimal: bytes.length === 0 || bytes[0] !== 0 };
}

/** warpVerifier.verify: the message's signature against its source subnet's validators at the tip's height. */
export function verifyWarpSignature(world: World, bytes: Uint8Array): void {
  try {
    const message = parseWarp(bytes);
    const subnetID = subnetOfChain(world, message.sourceChainID);
    // validators.FlattenValidatorSet: keyless weight counts toward the total; keys merge, ordered by their bytes.
    const set = validatorSet(world, subnetID);
    const totalWeight = set.reduce((sum, v) => sum + v.weight, 0n);
    const byKey = new Map<string, { key: ReturnType<typeof publicKeyFromBytes>; weight: bigint }>();
    for (const v of set) {
      if (!v.publicKey) continue;
      const key = publicKeyFromBytes(Buffer.from(v.publicKey.slice(2), 'hex'));
      const id = Buffer.from(uncompressed(key)).toString('hex');
      const entry = byKey.get(id) ?? { key, weight: 0n };
      entry.weight += v.weight;
      byKey.set(id, entry);
    }
    const canonical = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
    if (message.networkID !== world.network.networkID) throw new Refusal(WARP_TEXTS.wrongNetworkID);
    const bits = bitsOf(message.signers);
    if (!bits.minimal) throw new Refusal(WARP_TEXTS.invalidBitSet);
    if (bits.bitLength > canonical.length)
      throw new Refusal(WARP_TEXTS.unknownValidator(bits.bitLength - 1, canonical.length));
    const signers = bits.indices.map((i) => canonical[i]!);
    const signed = signers.reduce((sum, v) => sum + v.weight, 0n);
    if (totalWeight * QUORUM.numerator > signed * QUORUM.denominator)
      throw new Refusal(WARP_TEXTS.insufficientWeight(totalWeight, signed));
    let signature: ReturnType<typeof signatureFromBytes>;
    try {
      signature = signatureFromBytes(message.signature);
    } catch (error) {
      throw new Refusal(WARP_TEXTS.parseSignature((error as Error).message));
    }
    // bls.AggregatePublicKeys refuses an empty list; only a zero-weight set lets one through to here.
    if (signers.length === 0) throw new Refusal('no public keys');
    if (
      !verifyAggregate(
        signers.map((s) => s.key),
        signature,
        message.unsignedBytes,
      )
    )
      throw new Refusal(WARP_TEXTS.invalidSignature);
  } catch (error) {
    throw error instanceof Refusal ? new WarpRefusal(error.message) : error;
  }
}

export const nodeIDText = (bytes: Uint8Array): string => `NodeID-${cb58Encode(bytes)}`;
