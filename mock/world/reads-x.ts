/**
 * The X-Chain's reads (vms/avm/service.go), from the world. Balances count secp256k1fx transfer outputs owned by the
 * address alone and unlocked at the chain's time (all of them with includePartial), as the node does.
 */
import { EMPTY_ID } from './networks.ts';
import {
  type Params,
  type Read,
  allUtxos,
  encode,
  encodingOf,
  parseID,
  parseServiceAddress,
  utxoPage,
  utxoRef,
} from './reads.ts';
import type { Block } from './types.ts';
import type { World } from './world.ts';

/** vm.lookupAssetID: an asset ID as it is, else an alias of one. */
function lookupAssetID(world: World, asset: unknown): string {
  const text = typeof asset === 'string' ? asset : '';
  const id = parseID(text) ?? world.assetAliases.get(text);
  if (!id) throw new Error(`asset '${text}' not found`);
  return id;
}

function serviceAddress(world: World, address: unknown): string {
  const text = typeof address === 'string' ? address : '';
  try {
    return parseServiceAddress(world, 'X', text);
  } catch (error) {
    throw new Error(`problem parsing address '${text}': ${(error as Error).message}`);
  }
}

/** The transfer outputs a balance counts. */
function counted(world: World, owner: string, includePartial: boolean) {
  const now = world.time.get();
  return allUtxos(world, 'X', [owner]).filter(
    (u) =>
      u.stakeableLocktime === 0n && (includePartial || (u.owner.addresses.length === 1 && u.owner.locktime <= now)),
  );
}

function blockAnswer(block: Block, params: Params, what: string) {
  const encoding = encodingOf(params);
  let text: string;
  try {
    text = encode(block.bytes, encoding);
  } catch (error) {
    throw new Error(`couldn't encode block ${what} as string: ${(error as Error).message}`);
  }
  return { block: text, encoding };
}

export function xChainReads(world: World): Record<string, Read> {
  const txID = (params: Params) => {
    const id = parseID(params.txID) ?? EMPTY_ID;
    if (id === EMPTY_ID) throw new Error('nil transaction ID');
    return id;
  };
  return {
    getBalance: (p) => {
      const owner = serviceAddress(world, p.address);
      const assetID = lookupAssetID(world, p.assetID);
      const utxos = counted(world, owner, p.includePartial === true).filter((u) => u.assetID === assetID);
      return { balance: String(utxos.reduce((sum, u) => sum + u.amount, 0n)), utxoIDs: utxos.map(utxoRef) };
    },
    getAddressTxs: (p) => {
      let owner: string;
      try {
        owner = parseServiceAddress(world, 'X', typeof p.address === 'string' ? p.address : '');
      } catch (error) {
        throw new Error(`couldn't parse argument 'address' to address: ${(error as Error).message}`);
      }
      let assetID: string;
      try {
        assetID = lookupAssetID(world, p.assetID);
      } catch (error) {
        throw new Error(`specified \`assetID\` is invalid: ${(error as Error).message}`);
      }
      const cursor = Number(p.cursor ?? 0);
      const pageSize = Number(p.pageSize ?? 0);
      if (pageSize > 1024) throw new Error('pageSize > maximum allowed (1024)');
      // The index's view, from the outputs the world holds: each transaction that paid the address in the asset.
      const txIDs = [
        ...new Set(
          allUtxos(world, 'X', [owner])
            .filter((u) => u.assetID === assetID)
            .map((u) => u.txID),
        ),
      ].slice(cursor, cursor + (pageSize || 1024));
      return { txIDs: txIDs.length > 0 ? txIDs : null, cursor: String(cursor + txIDs.length) };
    },
    getAllBalances: (p) => {
      const owner = serviceAddress(world, p.address);
      const balances = new Map<string, bigint>();
      for (const u of counted(world, owner, p.includePartial === true))
        balances.set(u.assetID, (balances.get(u.assetID) ?? 0n) + u.amount);
      const alias = (id: string) => (id === world.network.avaxAssetID ? 'AVAX' : id);
      return { balances: [...balances].map(([asset, balance]) => ({ asset: alias(asset), balance: String(balance) })) };
    },
    getAssetDescription: (p) => {
      const assetID = lookupAssetID(world, p.assetID);
      const asset = world.assets.get(assetID);
      if (!asset)
        throw new Error(world.txs.get(assetID)?.chain === 'X' ? "transaction doesn't create an asset" : 'not found');
      return { assetID, name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) };
    },
    getTxFee: () => ({ txFee: String(world.config.txFee), createAssetTxFee: String(world.config.createAssetTxFee) }),
    getHeight: () => ({ height: String(world.tip('X').height) }),
    getBlock: (p) => {
      const id = String(p.blockID ?? EMPTY_ID);
      const block = world.blockIDs.get(id);
      if (block?.chain !== 'X') throw new Error(`couldn't get block with id ${id}: not found`);
      return blockAnswer(block, p, id);
    },
    getBlockByHeight: (p) => {
      const height = Number(p.height ?? 0);
      const block = world.blocks.X.at(height);
      if (!block) throw new Error(`couldn't get block at height ${p.height ?? 0}: not found`);
      return blockAnswer(block, p, block.id);
    },
    getTx: (p) => {
      const tx = world.txs.get(txID(p));
      if (tx?.chain !== 'X' || tx.status !== 'Accepted') throw new Error('not found');
      const encoding = encodingOf(p);
      return { tx: encode(tx.bytes, encoding), encoding };
    },
    getTxStatus: (p) => {
      const tx = world.txs.get(txID(p));
      return { status: tx?.chain === 'X' && tx.status === 'Accepted' ? 'Accepted' : 'Unknown' };
    },
    getUTXOs: (p) => utxoPage(world, 'X', p),
  };
}
