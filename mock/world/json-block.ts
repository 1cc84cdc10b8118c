/**
 * The node's JSON form of a block (`getBlock` / `getBlockByHeight` with `encoding: "json"`): Go's marshalling of
 * vms/avm/block.StandardBlock and vms/platformvm/block's blocks, read from the block's bytes (type ID, then the
 * header fields in codec order), with each transaction in its JSON form (the engine's: TxTypes.json).
 */
import { cb58Encode } from '../../generators/formats.ts';
import type { GoJson } from './json-go.ts';
import type { TxTypes } from './reads.ts';
import type { Block } from './types.ts';
import type { World } from './world.ts';

/**
 * linearcodec type IDs of the P-Chain's blocks (vms/platformvm/block/codec.go: the Apricot blocks registered first,
 * from 0, the Banff blocks from 29) and the X-Chain's StandardBlock.
 */
const P_APRICOT_PROPOSAL = 0;
const P_APRICOT_ABORT = 1;
const P_APRICOT_COMMIT = 2;
const P_APRICOT_STANDARD = 3;
const P_APRICOT_ATOMIC = 4;
const P_BANFF_PROPOSAL = 29;
const P_BANFF_ABORT = 30;
const P_BANFF_COMMIT = 31;
const P_BANFF_STANDARD = 32;
const X_STANDARD = 20;

export function blockJson(world: World, block: Block, types: TxTypes): GoJson {
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  const typeID = bytes.readUInt32BE(2);
  const u64 = (at: number) => bytes.readBigUInt64BE(at);
  const id32 = (at: number) => cb58Encode(bytes.subarray(at, at + 32));
  const txs = () =>
    block.txIDs.map((txID) => {
      const tx = world.txs.get(txID);
      if (!tx) throw new Error(`block ${block.id} holds unknown transaction ${txID}`);
      return types.json(tx, world.network.hrp);
    });
  if (block.chain === 'X') {
    if (typeID !== X_STANDARD) throw new Error(`no JSON form for X-Chain block type ${typeID}`);
    return {
      parentID: id32(6),
      height: u64(38),
      time: u64(46),
      merkleRoot: id32(54),
      // The node answers its genesis from the object it built with no transaction list (vms/avm/state/state.go:350),
      // kept in its block cache (:485): nil, `null`. Other blocks' lists, built or parsed, are never nil.
      txs: block.height === 0 ? null : txs(),
      id: block.id,
    };
  }
  // CommonBlock (parentID, height, id) follows the Banff blocks' time; its fields are embedded where it sits.
  const common = (at: number) => ({ parentID: id32(at), height: u64(at + 32), id: block.id });
  // A proposal or atomic block's one transaction (`tx`) comes after its CommonBlock, so after a Banff proposal
  // block's decision transactions (`txs`, counted at its offset 14): the last of the block's transactions.
  const proposal = () => {
    const all = txs();
    if (all.length === 0) throw new Error(`block ${block.id} holds no proposal transaction`);
    return { decisions: all.slice(0, -1), tx: all.at(-1)! };
  };
  switch (typeID) {
    case P_APRICOT_ABORT:
    case P_APRICOT_COMMIT:
      return common(6);
    case P_APRICOT_STANDARD:
      return { ...common(6), txs: txs() };
    case P_APRICOT_PROPOSAL:
    case P_APRICOT_ATOMIC:
      return { ...common(6), tx: proposal().tx };
    case P_BANFF_PROPOSAL: {
      const { decisions, tx } = proposal();
      if (decisions.length !== bytes.readUInt32BE(14))
        throw new Error(`block ${block.id} holds ${block.txIDs.length} transactions, its bytes another count`);
      // CommonBlock sits after the decision transactions, whose lengths the record's parent and height spare reading.
      return { time: u64(6), txs: decisions, parentID: block.parentID, height: BigInt(block.height), id: block.id, tx };
    }
    case P_BANFF_ABORT:
    case P_BANFF_COMMIT:
      return { time: u64(6), ...common(14) };
    case P_BANFF_STANDARD:
      return { time: u64(6), ...common(14), txs: txs() };
  }
  throw new Error(`no JSON form for P-Chain block type ${typeID}`);
}
