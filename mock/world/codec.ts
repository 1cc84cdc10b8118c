/**
 * The node's bytes for the world's records. UTXOs of the common shapes (secp256k1fx.TransferOutput, optionally inside
 * a P-Chain stakeable.LockOut) are laid out here directly, because a world of 100,000 UTXOs must build in well under a
 * second; test/mock/world.test.ts checks every layout against @avalabs/avalanchejs' codec byte for byte. Blocks are
 * laid out as AvalancheGo's block codecs do (vms/platformvm/block, vms/avm/block); an ID is the SHA-256 of the bytes.
 */
import { createHash, hash as hashOnce } from 'node:crypto';
import { cb58Decode, cb58Encode } from '../../generators/formats.ts';
import type { Block, Owner, Utxo, UtxoChain } from './types.ts';

/** linearcodec type IDs: secp256k1fx.TransferOutput (both VMs), stakeable.LockOut (P), blocks. */
const TRANSFER_OUTPUT = 7;
const STAKEABLE_LOCK_OUT = 0x16;
const P_APRICOT_COMMIT_BLOCK = 2;
const P_BANFF_PROPOSAL_BLOCK = 29;
const P_BANFF_ABORT_BLOCK = 30;
const P_BANFF_COMMIT_BLOCK = 31;
const P_BANFF_STANDARD_BLOCK = 32;
/** txs/codec.go: RewardValidatorTx, registered twentieth. */
const REWARD_VALIDATOR_TX = 20;
const X_STANDARD_BLOCK = 20;

/** A big-endian u32, as the node's codec writes lengths and type IDs. */
export function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b;
}

/** A big-endian u64 (int64 fields too: the mock's values are never negative). */
export function u64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(value);
  return b;
}

export function sha256(...parts: Uint8Array[]): Buffer {
  if (parts.length === 1) return hashOnce('sha256', parts[0]!, 'buffer') as unknown as Buffer;
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** Decoded IDs: a world's UTXOs share few transaction and asset IDs, and cb58 decoding is slow. */
const decoded = new Map<string, Uint8Array>();

export function idBytes(id: string): Uint8Array {
  let bytes = decoded.get(id);
  if (!bytes) {
    bytes = cb58Decode(id);
    if (bytes?.length !== 32) throw new Error(`not an ID: ${id}`);
    if (decoded.size >= 4096) decoded.clear();
    decoded.set(id, bytes);
  }
  return bytes;
}

/**
 * An ID's text from its 32 bytes, which `idBytes` then has without decoding it (a new block's ID is its child's
 * parent).
 */
export function idFromBytes(bytes: Uint8Array): string {
  const id = cb58Encode(bytes);
  if (decoded.size >= 4096) decoded.clear();
  decoded.set(id, bytes);
  return id;
}

/** The ID of a transaction or block: the SHA-256 of its bytes, cb58. */
export function idOf(bytes: Uint8Array): string {
  return idFromBytes(sha256(bytes));
}

/** outputIndex as uint64 BE, then the tx ID: what a UTXO ID hashes, in one reused buffer. */
const prefixed = Buffer.alloc(40);
let prefixedTxID = '';

/**
 * The UTXO table key of output `outputIndex` of `txID`: the hex of its UTXO ID, ids.ID.Prefix(outputIndex), by one
 * one-shot hash (no Hash object).
 */
export function utxoKeyOf(txID: string, outputIndex: number): string {
  if (txID !== prefixedTxID) {
    prefixed.set(idBytes(txID), 8);
    prefixedTxID = txID;
  }
  prefixed.writeUInt32BE(Math.floor(outputIndex / 2 ** 32), 0);
  prefixed.writeUInt32BE(outputIndex >>> 0, 4);
  return hashOnce('sha256', prefixed, 'hex');
}

/** The byte length of a secp256k1fx.TransferOutput (type ID first), with its stakeable.LockOut wrapper if locked. */
export function outputLength(owner: Owner, stakeableLocktime = 0n): number {
  return (stakeableLocktime === 0n ? 0 : 12) + 12 + 16 + 20 * owner.addresses.length;
}

/** Writes the output at `at` of `out`: stakeable.LockOut (when locked), TransferOutput, owner (sorted addresses). */
export function writeOutput(out: Buffer, at: number, amount: bigint, owner: Owner, stakeableLocktime: bigint): void {
  let i = at;
  if (stakeableLocktime !== 0n) {
    out.writeUInt32BE(STAKEABLE_LOCK_OUT, i);
    out.writeBigUInt64BE(stakeableLocktime, i + 4);
    i += 12;
  }
  out.writeUInt32BE(TRANSFER_OUTPUT, i);
  out.writeBigUInt64BE(amount, i + 4);
  out.writeBigUInt64BE(owner.locktime, i + 12);
  out.writeUInt32BE(owner.threshold, i + 20);
  out.writeUInt32BE(owner.addresses.length, i + 24);
  i += 28;
  for (const address of owner.addresses) {
    out.write(address, i, 'hex');
    i += 20;
  }
}

export type UtxoFields = Omit<Utxo, 'key' | 'bytes'>;

/**
 * A UTXO of the common shapes, its codec bytes (codec version 0, tx ID, output index, asset ID, output) laid out
 * when first read: a world of 100,000 UTXOs holds fields only (the owner shared between a key's UTXOs), and most of
 * its UTXOs are never read. JSON (the state file) gets the bytes as a plain record would have them.
 */
class LaidOutUtxo implements Utxo {
  public key: string;
  public txID: string;
  public outputIndex: number;
  public assetID: string;
  public amount: bigint;
  public owner: Owner;
  public stakeableLocktime: bigint;
  constructor(
    key: string,
    txID: string,
    outputIndex: number,
    assetID: string,
    amount: bigint,
    owner: Owner,
    stakeableLocktime: bigint,
  ) {
    this.key = key;
    this.txID = txID;
    this.outputIndex = outputIndex;
    this.assetID = assetID;
    this.amount = amount;
    this.owner = owner;
    this.stakeableLocktime = stakeableLocktime;
  }

  /** Kept once laid out, so that `bytes` is one object, as a plain record's field is. */
  #bytes: Buffer | undefined;

  get bytes(): Uint8Array {
    if (this.#bytes) return this.#bytes;
    const bytes = Buffer.allocUnsafe(70 + outputLength(this.owner, this.stakeableLocktime));
    bytes.writeUInt16BE(0, 0);
    bytes.set(idBytes(this.txID), 2);
    bytes.writeUInt32BE(this.outputIndex, 34);
    bytes.set(idBytes(this.assetID), 38);
    writeOutput(bytes, 70, this.amount, this.owner, this.stakeableLocktime);
    this.#bytes = bytes;
    return bytes;
  }

  toJSON(): Utxo {
    return { ...this, bytes: this.bytes };
  }
}

/** A UTXO record of a TransferOutput (in a stakeable.LockOut when locked) with its ID; see LaidOutUtxo. */
export function makeUtxo(fields: UtxoFields): Utxo {
  const { txID, outputIndex, assetID, amount, owner, stakeableLocktime } = fields;
  return new LaidOutUtxo(utxoKeyOf(txID, outputIndex), txID, outputIndex, assetID, amount, owner, stakeableLocktime);
}

export function utxoIDOf(utxo: Utxo): string {
  return cb58Encode(Buffer.from(utxo.key, 'hex'));
}

/** A signed transaction as it sits inside a block: its bytes without the codec version. */
const inBlock = (txBytes: Uint8Array) => txBytes.subarray(2);

/**
 * A block on top of `parent` (or the first block of a chain when `parent` is undefined) holding `txs` (signed tx
 * bytes): a P-Chain BanffStandardBlock or an X-Chain StandardBlock, as the nodes build them after Banff/Cortina.
 */
export function makeBlock(
  chain: UtxoChain,
  parent: { id: string; height: number } | undefined,
  timestamp: bigint,
  txs: Array<{ id: string; bytes: Uint8Array }>,
): Block {
  const height = parent ? parent.height + 1 : 0;
  const count = Buffer.alloc(4);
  count.writeUInt32BE(txs.length);
  const u64 = (value: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(value);
    return b;
  };
  const typeID = Buffer.alloc(6);
  typeID.writeUInt32BE(chain === 'P' ? P_BANFF_STANDARD_BLOCK : X_STANDARD_BLOCK, 2);
  const parentBytes = idBytes(parent?.id ?? cb58Encode(new Uint8Array(32)));
  const body =
    chain === 'P'
      ? [u64(timestamp), parentBytes, u64(BigInt(height))]
      : [parentBytes, u64(BigInt(height)), u64(timestamp), new Uint8Array(32)];
  const bytes = Buffer.concat([typeID, ...body, count, ...txs.map((tx) => inBlock(tx.bytes))]);
  return {
    id: idOf(bytes),
    chain,
    height,
    parentID: cb58Encode(parentBytes),
    timestamp,
    txIDs: txs.map((tx) => tx.id),
    bytes,
  };
}

/**
 * builder.go NewRewardValidatorTx: txs.NewSigned(&RewardValidatorTx{TxID}, txs.Codec, nil), no credentials. Its ID is
 * the same for every node, so the node's ID for the end of `stakerTxID`.
 */
export function rewardValidatorTx(stakerTxID: string): { id: string; bytes: Uint8Array } {
  const bytes = Buffer.concat([Buffer.alloc(2), u32(REWARD_VALIDATOR_TX), idBytes(stakerTxID), u32(0)]);
  return { id: idOf(bytes), bytes };
}

/**
 * block.NewBanffProposalBlock(timestamp, parent, height, tx, decisions): the time, the decision transactions the
 * builder packed from the mempool (builder.go buildBlock), the CommonBlock, then the proposal transaction. Its
 * `txIDs` list the decisions, then the proposal transaction.
 */
export function makeProposalBlock(
  parent: { id: string; height: number },
  timestamp: bigint,
  tx: { id: string; bytes: Uint8Array },
  decisions: ReadonlyArray<{ id: string; bytes: Uint8Array }> = [],
): Block {
  const height = parent.height + 1;
  const bytes = Buffer.concat([
    Buffer.alloc(2),
    u32(P_BANFF_PROPOSAL_BLOCK),
    u64(timestamp),
    u32(decisions.length),
    ...decisions.map((decision) => inBlock(decision.bytes)),
    idBytes(parent.id),
    u64(BigInt(height)),
    inBlock(tx.bytes),
  ]);
  const txIDs = [...decisions.map((decision) => decision.id), tx.id];
  return { id: idOf(bytes), chain: 'P', height, parentID: parent.id, timestamp, txIDs, bytes };
}

/** The option a proposal block's acceptance ends with (options.go): a BanffCommitBlock or BanffAbortBlock at its time. */
export function makeOptionBlock(proposal: Block, commit: boolean): Block {
  const height = proposal.height + 1;
  const type = commit ? P_BANFF_COMMIT_BLOCK : P_BANFF_ABORT_BLOCK;
  const bytes = Buffer.concat([
    Buffer.alloc(2),
    u32(type),
    u64(proposal.timestamp),
    idBytes(proposal.id),
    u64(BigInt(height)),
  ]);
  const { timestamp } = proposal;
  return { id: idOf(bytes), chain: 'P', height, parentID: proposal.id, timestamp, txIDs: [], bytes };
}

/** Whether a P-Chain block is a Banff proposal block, whose state is written only with its option's. */
export function isProposalBlock(block: { bytes: Uint8Array }): boolean {
  return Buffer.from(block.bytes.buffer, block.bytes.byteOffset, 6).readUInt32BE(2) === P_BANFF_PROPOSAL_BLOCK;
}

/** Whether a P-Chain block is an option of a proposal block: the mock builds only Banff ones after its genesis. */
export function isOptionBlock(block: { bytes: Uint8Array }): boolean {
  const type = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, 6).readUInt32BE(2);
  return type === P_BANFF_ABORT_BLOCK || type === P_BANFF_COMMIT_BLOCK;
}

/** The P-Chain's genesis block: an ApricotCommitBlock at height 0 whose parent is the genesis bytes' hash. */
export function pGenesisBlock(genesisID: string, timestamp: bigint): Block {
  const bytes = Buffer.alloc(2 + 4 + 32 + 8);
  bytes.writeUInt32BE(P_APRICOT_COMMIT_BLOCK, 2);
  bytes.set(idBytes(genesisID), 6);
  return { id: idOf(bytes), chain: 'P', height: 0, parentID: genesisID, timestamp, txIDs: [], bytes };
}
