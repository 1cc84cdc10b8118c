/**
 * The proposervm (Snowman++) blocks that wrap each chain's blocks, as vms/proposervm builds them: what a node's
 * consensus accepts, and so what its block indexes hold. The first block after a chain's genesis is built on the
 * pre-fork genesis (pre_fork_block.go buildChild): unsigned and without an epoch, type 0. Every later one carries the
 * epoch acp181.NewEpoch gives it once Granite is active (type 2, statelessGraniteBlock; before Granite type 0), and is
 * signed by the node's staking key (block/build.go Build) where the mock has that key: on `local` the mock is local
 * node 1, whose certificate and key AvalancheGo publishes (staking/local/staker1.*); on other networks the mock's node
 * has no certificate, and its blocks are the unsigned form (BuildUnsigned) that any node may build once the proposer
 * windows have passed.
 *
 * Codec (block/codec.go, linearcodec, version 0): u16 version, u32 type ID, then the fields in order; `[]byte` is a
 * u32 length and the bytes. The block ID is the SHA-256 of the bytes up to the signature's length prefix.
 */
import { X509Certificate, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idBytes, idFromBytes, idOf, sha256, u32, u64 } from './codec.ts';

export interface Epoch {
  pChainHeight: bigint;
  number: bigint;
  /** Unix seconds. */
  startTime: bigint;
}

export const NO_EPOCH: Epoch = { pChainHeight: 0n, number: 0n, startTime: 0n };

/** A proposervm block as plain data (saved with the world): its bytes follow from it (`proposerBlockBytes`). */
export interface ProposerBlock {
  id: string;
  chainID: string;
  parentID: string;
  /** Unix seconds. */
  timestamp: bigint;
  pChainHeight: bigint;
  epoch: Epoch;
  signed: boolean;
  /** The wrapped block's bytes. */
  inner: Uint8Array;
  /** An option of a proposal block (block/option.go): the parent and the inner bytes alone, never signed. */
  option?: true;
}

const STATELESS_BLOCK = 0;
const OPTION = 1;
const STATELESS_GRANITE_BLOCK = 2;

/** The staking certificate (DER) and key of local node 1, read once. */
let staker: { certificate: Uint8Array; key: ReturnType<typeof createPrivateKey> } | undefined;
function localStaker(): NonNullable<typeof staker> {
  const read = (name: string) => readFileSync(join(import.meta.dirname, 'data', name));
  staker ??= {
    certificate: new X509Certificate(read('local-staker1.crt')).raw,
    key: createPrivateKey(read('local-staker1.key')),
  };
  return staker;
}

const isEpoch = (epoch: Epoch) => epoch.number !== 0n || epoch.pChainHeight !== 0n || epoch.startTime !== 0n;

/** The bytes before the signature's length prefix, around the wrapped block (not copied, for a block of megabytes). */
function unsignedParts(block: Omit<ProposerBlock, 'id'>, certificate: Uint8Array): Uint8Array[] {
  const head = Buffer.alloc(6);
  head.writeUInt32BE(isEpoch(block.epoch) ? STATELESS_GRANITE_BLOCK : STATELESS_BLOCK, 2);
  const epoch = isEpoch(block.epoch)
    ? [u64(block.epoch.pChainHeight), u64(block.epoch.number), u64(block.epoch.startTime)]
    : [];
  return [
    head,
    idBytes(block.parentID),
    u64(block.timestamp),
    u64(block.pChainHeight),
    u32(certificate.length),
    certificate,
    u32(block.inner.length),
    block.inner,
    ...epoch,
  ];
}

/** A new proposervm block: its ID now, its bytes (and signature) when asked for. */
export function buildProposerBlock(fields: Omit<ProposerBlock, 'id'>): ProposerBlock {
  const certificate = fields.signed ? localStaker().certificate : new Uint8Array();
  return { ...fields, id: idFromBytes(sha256(...unsignedParts(fields, certificate))) };
}

/**
 * block.BuildOption: the proposervm block of an oracle block's option (a P-Chain commit or abort block), built on the
 * proposervm block of its proposal. It has no time, P-Chain height or epoch of its own: postForkOption answers its
 * parent's, which its children build on.
 */
export function buildOptionBlock(parent: ProposerBlock, inner: Uint8Array): ProposerBlock {
  const { chainID, timestamp, pChainHeight, epoch } = parent;
  const fields = { chainID, parentID: parent.id, timestamp, pChainHeight, epoch, signed: false, inner };
  return { ...fields, option: true, id: idFromBytes(sha256(...optionParts(parent.id, inner))) };
}

function optionParts(parentID: string, inner: Uint8Array): Uint8Array[] {
  const head = Buffer.alloc(6);
  head.writeUInt32BE(OPTION, 2);
  return [head, idBytes(parentID), u32(inner.length), inner];
}

/** A proposervm block's fields from its bytes (a source's index: ../fork/indexes.ts), or undefined for bytes that are none. */
export function parseProposerBlock(bytes: Uint8Array, chainID: string): ProposerBlock | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number) => {
    if (at + n > view.length) throw new RangeError('short');
    const start = at;
    at += n;
    return start;
  };
  try {
    if (view.readUInt16BE(need(2)) !== 0) return undefined;
    const type = view.readUInt32BE(need(4));
    if (type !== STATELESS_BLOCK && type !== OPTION && type !== STATELESS_GRANITE_BLOCK) return undefined;
    const parentID = idFromBytes(view.subarray(need(32), at));
    if (type === OPTION) {
      // An option (block/option.go) has no time, P-Chain height or epoch of its own: its proposal's, filled in by the
      // caller. Its ID is the hash of all its bytes.
      const inner = Uint8Array.from(view.subarray(need(view.readUInt32BE(need(4))), at));
      if (at !== view.length) return undefined;
      const none = { timestamp: 0n, pChainHeight: 0n, epoch: NO_EPOCH };
      return { id: idOf(view), chainID, parentID, ...none, signed: false, inner, option: true };
    }
    const timestamp = view.readBigUInt64BE(need(8));
    const pChainHeight = view.readBigUInt64BE(need(8));
    const certificateLength = view.readUInt32BE(need(4));
    need(certificateLength);
    const innerLength = view.readUInt32BE(need(4));
    const inner = Uint8Array.from(view.subarray(need(innerLength), at));
    const epoch =
      type === STATELESS_GRANITE_BLOCK
        ? {
            pChainHeight: view.readBigUInt64BE(need(8)),
            number: view.readBigUInt64BE(need(8)),
            startTime: view.readBigUInt64BE(need(8)),
          }
        : NO_EPOCH;
    const id = idOf(view.subarray(0, at));
    return { id, chainID, parentID, timestamp, pChainHeight, epoch, signed: certificateLength > 0, inner };
  } catch {
    return undefined;
  }
}

/** Whether this world's node can sign its blocks (./node-identity.ts: on `local` it is local node 1). */
export const canSign = (networkName: string) => networkName === 'local';

const bytesOf = new WeakMap<ProposerBlock, Uint8Array>();

/** The block as the node serialises it, signed over its header (block/header.go: chain, parent, body ID). */
export function proposerBlockBytes(block: ProposerBlock): Uint8Array {
  let bytes = bytesOf.get(block);
  if (!bytes && block.option) {
    bytes = Buffer.concat(optionParts(block.parentID, block.inner));
    bytesOf.set(block, bytes);
  }
  if (!bytes) {
    const certificate = block.signed ? localStaker().certificate : new Uint8Array();
    const header = Buffer.concat([Buffer.alloc(2), idBytes(block.chainID), idBytes(block.parentID), idBytes(block.id)]);
    const signature = block.signed ? sign('sha256', header, localStaker().key) : new Uint8Array();
    bytes = Buffer.concat([...unsignedParts(block, certificate), u32(signature.length), signature]);
    bytesOf.set(block, bytes);
  }
  return bytes;
}

/**
 * acp181.NewEpoch: the epoch of a child block from its parent's P-Chain height, epoch and timestamp. `graniteAt` is
 * whether Granite is active at the child's time; `duration` the network's epoch length in seconds.
 */
export function childEpoch(
  parent: { pChainHeight: bigint; epoch: Epoch; timestamp: bigint },
  graniteAt: boolean,
  duration: bigint,
): Epoch {
  if (!graniteAt) return NO_EPOCH;
  if (!isEpoch(parent.epoch)) return { pChainHeight: parent.pChainHeight, number: 1n, startTime: parent.timestamp };
  if (parent.timestamp < parent.epoch.startTime + duration) return parent.epoch;
  return { pChainHeight: parent.pChainHeight, number: parent.epoch.number + 1n, startTime: parent.timestamp };
}
