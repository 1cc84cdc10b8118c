/**
 * The X-Chain's address-transactions index (vms/components/index at v1.13.0, fed by the VM's onAccept): for every
 * accepted transaction, each address of each UTXO it consumed from the chain's own set or produced (tx.UTXOs())
 * gets the transaction appended under each asset those UTXOs hold, once per transaction. Consumed UTXOs are a base
 * transaction's inputs and an OperationTx's operations' (InputUTXOs), as the node reads them from the state before
 * the block: one produced earlier in the same block is not there, so it is not indexed. Genesis transactions are not
 * indexed, nor are imported inputs (not in the chain's UTXO set). The index is derived from the world's accepted
 * blocks, kept per world and extended as blocks are added; a world reverted below it is indexed again.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
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

/**
 * The fx operation's Outs(): a mint's mint and transfer outputs (secp256k1fx), one NFT per owners of an NFT mint,
 * the NFT an NFT transfer moves.
 */
function operationOuts(op: Decoded): Decoded[] {
  switch (op._type) {
    case 'secp256k1fx.MintOperation':
      return [op.mintOutput, op.transferOutput];
    case 'nftfx.MintOperation':
      return op.outputOwnerList.outputOwners;
    case 'nftfx.TransferOperation':
      return [op.output];
  }
  throw new Error(`no outputs known for operation ${op._type}`);
}

/** tx.UTXOs(): the base outputs, then a CreateAssetTx's initial states' and an OperationTx's operations' outputs. */
function utxosOf(index: Index, world: World, txID: string) {
  let list = index.utxos.get(txID);
  if (list) return list;
  const tx = world.txs.get(txID);
  if (tx?.chain !== 'X') return undefined;
  const unsigned = avalanche()
    .utils.getManagerForVM('AVM')
    .unpack(forReading(tx.bytes), avalanche().avaxSerial.SignedTx).unsignedTx as Decoded;
  const base = unsigned.baseTx;
  list = base.outputs.map((o: Decoded) => ({ assetID: o.assetId.toString(), addresses: ownersOf(o.output) }));
  if (unsigned._type === 'avm.CreateAssetTx') {
    for (const state of unsigned.initialStates)
      for (const out of state.outputs) list!.push({ assetID: txID, addresses: ownersOf(out) });
  } else if (unsigned._type === 'avm.OperationTx') {
    for (const op of unsigned.ops)
      for (const out of operationOuts(op.transferOp))
        list!.push({ assetID: op.assetId.toString(), addresses: ownersOf(out) });
  }
  index.utxos.set(txID, list!);
  return list!;
}

/** Indexes a transaction of a block whose earlier transactions are `inBlock`. */
function accept(index: Index, world: World, txID: string, inBlock: ReadonlySet<string>): void {
  const unsigned = avalanche()
    .utils.getManagerForVM('AVM')
    .unpack(forReading(world.txs.get(txID)!.bytes), avalanche().avaxSerial.SignedTx).unsignedTx as Decoded;
  const touched = [...utxosOf(index, world, txID)!];
  const consumed = [
    ...unsigned.baseTx.inputs.map((input: Decoded) => input.utxoID),
    ...(unsigned._type === 'avm.OperationTx' ? unsigned.ops.flatMap((op: Decoded) => op.UTXOId) : []),
  ];
  for (const utxoID of consumed) {
    const producer = utxoID.txID.toString();
    if (inBlock.has(producer)) continue;
    const utxo = utxosOf(index, world, producer)?.[utxoID.outputIdx.value()];
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
    const inBlock = new Set<string>();
    for (const txID of block.txIDs) {
      accept(index, world, txID, inBlock);
      inBlock.add(txID);
    }
    index.height = height;
    index.blockID = block.id;
  }
  return index.txIDs.get(`${address}:${assetID}`) ?? [];
}
