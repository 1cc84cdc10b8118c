/**
 * The X-Chain's address-transactions index (vms/components/index at v1.13.0, fed by the VM's onAccept): for every
 * accepted transaction, each address of each UTXO it consumed from the chain's own set or produced (tx.UTXOs())
 * gets the transaction appended under each asset those UTXOs hold, once per transaction. Genesis transactions are
 * not indexed, nor are imported inputs (not in the chain's UTXO set). The index is derived from the world's
 * accepted blocks, kept per world and extended as blocks are added; a world reverted below it is indexed again.
 */
import { avalanche } from '../engine/avalanche.ts';
import type { World } from './world.ts';

// biome-ignore lint/suspicious/noExplicitAny: avalanchejs keeps the decoded fields private; they are read by name
type Decoded = any;

interface Index {
  /** The last block indexed: its height and ID (a revert changes the ID at that height). */
  height: number;
  blockID: string;
  /** `${address hex}:${assetID}` -> transaction IDs, oldest first. */
  txIDs: Map<string, string[]>;
  /** Decoded X transactions' UTXOs (asset and owners by output index), by transaction ID. */
  utxos: Map<string, Array<{ assetID: string; addresses: string[] }>>;
}

const indexes = new WeakMap<World, Index>();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function ownersOf(out: Decoded): string[] {
  const owners = out.outputOwners ?? out;
  return Array.isArray(owners.addrs) ? owners.addrs.map((a: Decoded) => hex(a.toBytes())) : [];
}

/** tx.UTXOs(): the base outputs, then a CreateAssetTx's initial states' and an OperationTx's operations' outputs. */
function utxosOf(index: Index, world: World, txID: string) {
  let list = index.utxos.get(txID);
  if (list) return list;
  const tx = world.txs.get(txID);
  if (tx?.chain !== 'X') return undefined;
  const unsigned = avalanche().utils.getManagerForVM('AVM').unpack(tx.bytes, avalanche().avaxSerial.SignedTx)
    .unsignedTx as Decoded;
  const base = unsigned.baseTx;
  list = base.outputs.map((o: Decoded) => ({ assetID: o.assetId.toString(), addresses: ownersOf(o.output) }));
  if (unsigned._type === 'avm.CreateAssetTx') {
    for (const state of unsigned.initialStates)
      for (const out of state.outputs) list!.push({ assetID: txID, addresses: ownersOf(out) });
  } else if (unsigned._type === 'avm.OperationTx') {
    for (const op of unsigned.ops) {
      const inner = op.transferOp;
      for (const out of [inner.mintOutput, inner.transferOutput].filter(Boolean))
        list!.push({ assetID: op.assetId.toString(), addresses: ownersOf(out) });
    }
  }
  index.utxos.set(txID, list!);
  return list!;
}

function accept(index: Index, world: World, txID: string): void {
  const unsigned = avalanche()
    .utils.getManagerForVM('AVM')
    .unpack(world.txs.get(txID)!.bytes, avalanche().avaxSerial.SignedTx).unsignedTx as Decoded;
  const touched = [...utxosOf(index, world, txID)!];
  for (const input of unsigned.baseTx.inputs) {
    const produced = utxosOf(index, world, input.utxoID.txID.toString());
    const utxo = produced?.[input.utxoID.outputIdx.value()];
    if (utxo) touched.push(utxo);
  }
  const keys = new Set<string>();
  for (const utxo of touched) for (const address of utxo.addresses) keys.add(`${address}:${utxo.assetID}`);
  for (const key of keys) {
    const list = index.txIDs.get(key);
    if (list) list.push(txID);
    else index.txIDs.set(key, [txID]);
  }
}

/** The transactions indexed under an address (40-hex) and an asset ID, oldest first. */
export function addressTxs(world: World, address: string, assetID: string): readonly string[] {
  const blocks = world.blocks.X;
  let index = indexes.get(world);
  if (!index || blocks.at(index.height)?.id !== index.blockID) {
    const genesis = blocks.at(0)!;
    index = { height: 0, blockID: genesis.id, txIDs: new Map(), utxos: new Map() };
    indexes.set(world, index);
  }
  const tip = world.tip('X');
  for (let height = index.height + 1; height <= tip.height; height++) {
    const block = blocks.at(height)!;
    for (const txID of block.txIDs) accept(index, world, txID);
    index.height = height;
    index.blockID = block.id;
  }
  return index.txIDs.get(`${address}:${assetID}`) ?? [];
}
