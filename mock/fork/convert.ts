/** The source's API answers as the world's records (./start.ts reads them, ./lazy.ts loads UTXOs). */
import { hash } from 'node:crypto';
import { bech32Decode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { utxoOf } from '../engine/codec.ts';
import { avalanche, forReading } from '../shared/avalanche.ts';
import { decodeBytes } from '../shared/formatting.ts';
import type { L1Validator, Owner, Staker, Utxo, UtxoChain } from '../world/types.ts';

type Json = Record<string, unknown>;

/** The 40-hex short ID of an address as the APIs write it (`P-fuji1…`, `fuji1…`). */
function shortIDOf(address: string): string {
  const text = address.slice(address.indexOf('-') + 1);
  // Older releases wrote subnets' control keys as cb58 short IDs.
  const payload = bech32Decode(text)?.payload ?? cb58Decode(text);
  if (payload?.length !== 20) throw new Error(`the fork source answered an address that is none: ${address}`);
  return Buffer.from(payload).toString('hex');
}

export function ownerFrom(api: unknown): Owner | undefined {
  const o = api as { locktime?: unknown; threshold?: unknown; addresses?: unknown } | undefined;
  if (!o || !Array.isArray(o.addresses)) return undefined;
  return {
    locktime: BigInt(String(o.locktime ?? 0)),
    threshold: Number(o.threshold ?? 0),
    addresses: (o.addresses as string[]).map(shortIDOf).sort(),
  };
}

/** `"2.0000"` (percent) as parts per million. */
const ppm = (percent: unknown) => Math.round(Number(percent ?? 0) * 10_000);

/**
 * One entry of `platform.getCurrentValidators` as a staker, or one of its `delegators` with its validator's txID
 * (the staked outputs are not in the answer: ./stakers.ts reads them from the staking transaction).
 */
export function stakerFrom(v: Json, subnetID: string, validatorTxID?: string): Staker {
  const signer = v.signer as { publicKey?: string; proofOfPossession?: string } | undefined;
  // A validator's is `validationRewardOwner`, a delegator's `rewardOwner`.
  const rewardOwner = ownerFrom(v.validationRewardOwner ?? v.rewardOwner);
  const delegationRewardOwner = ownerFrom(v.delegationRewardOwner);
  return {
    txID: String(v.txID),
    subnetID,
    nodeID: String(v.nodeID),
    startTime: BigInt(String(v.startTime)),
    endTime: BigInt(String(v.endTime)),
    weight: BigInt(String(v.weight ?? v.stakeAmount ?? 0)),
    stake: [],
    ...(rewardOwner ? { rewardOwner } : {}),
    ...(delegationRewardOwner ? { delegationRewardOwner } : {}),
    ...(v.delegationFee === undefined ? {} : { delegationFee: ppm(v.delegationFee) }),
    ...(signer?.publicKey && signer.proofOfPossession
      ? { signer: { publicKey: signer.publicKey, proofOfPossession: signer.proofOfPossession } }
      : {}),
    potentialReward: BigInt(String(v.potentialReward ?? 0)),
    ...(validatorTxID ? { validatorTxID } : {}),
  };
}

/** An L1 validator of `platform.getCurrentValidators` (one with a validationID). */
export function l1ValidatorFrom(v: Json, subnetID: string): L1Validator {
  const none: Owner = { locktime: 0n, threshold: 0, addresses: [] };
  return {
    validationID: String(v.validationID),
    subnetID,
    nodeID: String(v.nodeID),
    publicKey: String(v.publicKey ?? ''),
    remainingBalanceOwner: ownerFrom(v.remainingBalanceOwner) ?? none,
    deactivationOwner: ownerFrom(v.deactivationOwner) ?? none,
    startTime: BigInt(String(v.startTime ?? 0)),
    weight: BigInt(String(v.weight ?? 0)),
    minNonce: BigInt(String(v.minNonce ?? 0)),
    balance: BigInt(String(v.balance ?? 0)),
  };
}

const TRANSFER_OUTPUT = 7;
const STAKEABLE_LOCK_OUT = 22;

/** A UTXO's codec bytes (as `getUTXOs` answers them in hex) as the world's record; the bytes kept as they came. */
export function utxoFrom(chain: UtxoChain, bytes: Uint8Array): Utxo {
  return transferUtxo(bytes) ?? decodedUtxo(chain, bytes);
}

/**
 * The common shape read straight from its layout (codec version, tx ID, index, asset ID, then a secp256k1fx
 * TransferOutput, in a StakeableLockOut on P): a forked address may hold thousands, and the codec takes far longer.
 */
function transferUtxo(bytes: Uint8Array): Utxo | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 74 || view.readUInt16BE(0) !== 0) return undefined;
  let at = 70;
  let stakeableLocktime = 0n;
  if (view.readUInt32BE(at) === STAKEABLE_LOCK_OUT) {
    stakeableLocktime = view.readBigUInt64BE(at + 4);
    at += 12;
  }
  if (view.length < at + 28 || view.readUInt32BE(at) !== TRANSFER_OUTPUT) return undefined;
  const count = view.readUInt32BE(at + 24);
  if (view.length !== at + 28 + 20 * count) return undefined;
  const addresses = Array.from({ length: count }, (_, i) => view.toString('hex', at + 28 + 20 * i, at + 48 + 20 * i));
  const outputIndex = view.readUInt32BE(34);
  // ids.ID.Prefix: sha256 of the index as 8 bytes, then the tx ID's bytes.
  const prefixed = Buffer.alloc(40);
  prefixed.writeUInt32BE(outputIndex, 4);
  view.copy(prefixed, 8, 2, 34);
  return {
    key: hash('sha256', prefixed, 'hex'),
    txID: idText(view, 2),
    outputIndex,
    assetID: idText(view, 38),
    amount: view.readBigUInt64BE(at + 4),
    owner: { locktime: view.readBigUInt64BE(at + 12), threshold: view.readUInt32BE(at + 20), addresses },
    stakeableLocktime,
    bytes,
  };
}

/** cb58 is slow in JavaScript, and a page's UTXOs share a few tx IDs and one asset: each ID encoded once. */
const idTexts = new Map<string, string>();
function idText(view: Buffer, at: number): string {
  const hex = view.toString('hex', at, at + 32);
  let text = idTexts.get(hex);
  if (text === undefined) {
    if (idTexts.size >= 65_536) idTexts.clear();
    text = cb58Encode(view.subarray(at, at + 32));
    idTexts.set(hex, text);
  }
  return text;
}

function decodedUtxo(chain: UtxoChain, bytes: Uint8Array): Utxo {
  const { Utxo: CodecUtxo, utils } = avalanche();
  const manager = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
  const utxo = manager.unpack(forReading(bytes), CodecUtxo);
  const { utxoId } = utxo;
  return utxoOf(utxoId.txID.toString(), utxoId.outputIdx.value(), utxo.assetId.toString(), utxo.output, bytes);
}

/**
 * A chain height the source answered (a decimal string), checked: the mock keeps a record per height below the fork
 * point, so an absurd height would take all its memory. No chain of Avalanche is near the bound.
 */
export function heightOf(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : value;
  const height = typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(height <= MAX_HEIGHT))
    throw new Error(`${String(JSON.stringify(value)).slice(0, 40)} is not a height (0 to ${MAX_HEIGHT})`);
  return height;
}
const MAX_HEIGHT = 100_000_000;

/** RFC 3339 text as Unix seconds. */
export const seconds = (text: unknown): bigint => BigInt(Math.floor(Date.parse(String(text)) / 1000));

/** The node's hex encoding (0x, the bytes, then a 4-byte checksum) as bytes, checked: a source may answer garbage. */
export function hexBytes(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new Error(`${String(JSON.stringify(text)).slice(0, 40)} is not hex`);
  try {
    return decodeBytes(text, 'hex');
  } catch (error) {
    throw new Error(`not the node's hex (0x, the bytes, a checksum): ${(error as Error).message}`);
  }
}
