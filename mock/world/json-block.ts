/**
 * The node's JSON form of a block (`getBlock` / `getBlockByHeight` with `encoding: "json"`): Go's marshalling of
 * vms/avm/block.StandardBlock and vms/platformvm/block's blocks, read from the block's bytes (type ID, then the
 * header fields in codec order), with each transaction in its JSON form (./json-tx.ts).
 */
import { cb58Encode } from '../../generators/formats.ts';
import type { GoJson } from './json-go.ts';
import { txJson } from './json-tx.ts';
import type { Block } from './types.ts';
import type { World } from './world.ts';

/** linearcodec type IDs of the P-Chain's blocks (vms/platformvm/block/codec.go) and the X-Chain's StandardBlock. */
const P_APRICOT_COMMIT = 2;
const P_BANFF_ABORT = 30;
const P_BANFF_COMMIT = 31;
const P_BANFF_STANDARD = 32;
const X_STANDARD = 20;

export function blockJson(world: World, block: Block): GoJson {
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  const typeID = bytes.readUInt32BE(2);
  const u64 = (at: number) => bytes.readBigUInt64BE(at);
  const id32 = (at: number) => cb58Encode(bytes.subarray(at, at + 32));
  const txs = () =>
    block.txIDs.map((txID) => {
      const tx = world.txs.get(txID);
      if (!tx) throw new Error(`block ${block.id} holds unknown transaction ${txID}`);
      return txJson({ chain: block.chain, hrp: world.network.hrp }, tx.bytes, txID);
    });
  if (block.chain === 'X') {
    if (typeID !== X_STANDARD) throw new Error(`no JSON form for X-Chain block type ${typeID}`);
    return {
      parentID: id32(6),
      height: u64(38),
      time: u64(46),
      merkleRoot: id32(54),
      txs: txs(),
      id: block.id,
    };
  }
  // CommonBlock (parentID, height, id) follows the Banff blocks' time.
  const common = (at: number) => ({ parentID: id32(at), height: u64(at + 32), id: block.id });
  switch (typeID) {
    case P_APRICOT_COMMIT:
      return common(6);
    case P_BANFF_ABORT:
    case P_BANFF_COMMIT:
      return { time: u64(6), ...common(14) };
    case P_BANFF_STANDARD:
      return { time: u64(6), ...common(14), txs: txs() };
  }
  throw new Error(`no JSON form for P-Chain block type ${typeID}`);
}
