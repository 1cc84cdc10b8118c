/**
 * The X-Chain's address-transactions index (vms/components/index at v1.13.0, fed by the VM's onAccept): for every
 * accepted transaction, each address of each UTXO it consumed from the chain's own set or produced (tx.UTXOs())
 * gets the transaction appended under each asset those UTXOs hold, once per transaction. Consumed UTXOs are a base
 * transaction's inputs and an OperationTx's operations' (InputUTXOs), as the node reads them from the state before
 * the block: one produced earlier in the same block is not there, so it is not indexed. Genesis transactions are not
 * indexed, nor are imported inputs (not in the chain's UTXO set). The index is derived from the world's accepted
 * blocks, kept per world and extended as blocks are added; a world reverted below it is indexed again. What each
 * transaction type produces and spends is the engine's to know (TxTypes.xUtxos).
 */
import type { TxTypes, TxUtxos } from './reads.ts';
import type { World } from './world.ts';

interface Index {
  /** The last block indexed: its height and ID (a revert changes the ID at that height). */
  height: number;
  blockID: string;
  /** `${address hex}:${assetID}` -> transaction IDs, oldest first. */
  txIDs: Map<string, string[]>;
  /** X transactions' UTXOs and those they spend, by transaction ID. */
  utxos: Map<string, TxUtxos>;
}

const indexes = new WeakMap<World, Index>();

function utxosOf(index: Index, world: World, types: TxTypes, txID: string): TxUtxos | undefined {
  let utxos = index.utxos.get(txID);
  const tx = world.txs.get(txID);
  if (!utxos && tx?.chain === 'X') index.utxos.set(txID, (utxos = types.xUtxos(tx)));
  return utxos;
}

/** Indexes a transaction of a block whose earlier transactions are `inBlock`. */
function accept(index: Index, world: World, types: TxTypes, txID: string, inBlock: ReadonlySet<string>): void {
  const { produced, spent } = utxosOf(index, world, types, txID)!;
  const touched = [...produced];
  for (const { txID: producer, outputIndex } of spent) {
    const utxo = inBlock.has(producer) ? undefined : utxosOf(index, world, types, producer)?.produced[outputIndex];
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
export function addressTxs(world: World, types: TxTypes, address: string, assetID: string): readonly string[] {
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
      accept(index, world, types, txID, inBlock);
      inBlock.add(txID);
    }
    index.height = height;
    index.blockID = block.id;
  }
  return index.txIDs.get(`${address}:${assetID}`) ?? [];
}
