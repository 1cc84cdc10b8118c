/**
 * The X-Chain's reads (vms/avm/service.go), from the world. Balances count secp256k1fx transfer outputs owned by the
 * address alone and unlocked at the chain's time (all of them with includePartial), as the node does.
 */
import { addressTxs } from './address-txs.ts';
import { EMPTY_ID } from './networks.ts';
import {
  type Params,
  blockReads,
  parseID,
  parseServiceAddress,
  txAnswer,
  type TxTypes,
  type UtxoPageParams,
  utxoPage,
  utxoRef,
} from './reads.ts';
import type { Utxo } from './types.ts';
import type { World } from './world.ts';

/** avm's maxPageSize: the most transaction IDs getAddressTxs answers at once. */
const MAX_PAGE_SIZE = 1024;

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

/** The linearcodec type ID of a UTXO's output (after codec version, tx ID, output index and asset ID). */
const outputTypeID = (bytes: Uint8Array) =>
  ((bytes[70]! << 24) | (bytes[71]! << 16) | (bytes[72]! << 8) | bytes[73]!) >>> 0;
const SECP256K1FX_TRANSFER_OUTPUT = 7;

/**
 * The transfer outputs a balance counts: secp256k1fx ones alone (not mint outputs, not NFTs). One owner's list is
 * already in the node's order and without repeats, so it is filtered as it stands: a balance read is the mock's
 * commonest call, and allUtxos's sets and sort for a single address were most of its cost.
 */
function counted(world: World, owner: string, includePartial: boolean, assetID?: string): Utxo[] {
  const now = world.time.get();
  const out: Utxo[] = [];
  for (const u of world.utxosOf('X', owner)) {
    if (assetID !== undefined && u.assetID !== assetID) continue;
    if (outputTypeID(u.bytes) !== SECP256K1FX_TRANSFER_OUTPUT || u.stakeableLocktime !== 0n) continue;
    if (includePartial || (u.owner.addresses.length === 1 && u.owner.locktime <= now)) out.push(u);
  }
  return out;
}

/** `types` knows the X-Chain's transaction types (the engine's): their JSON form, their UTXOs. */
export function xChainReads(world: World, types: TxTypes) {
  const txID = (params: Params<'txID'>) => {
    const id = parseID(params.txID) ?? EMPTY_ID;
    if (id === EMPTY_ID) throw new Error('nil transaction ID');
    return id;
  };
  return {
    getBalance: (p: Params<'address' | 'assetID' | 'includePartial'>) => {
      const owner = serviceAddress(world, p.address);
      const assetID = lookupAssetID(world, p.assetID);
      const utxos = counted(world, owner, p.includePartial === true, assetID);
      let balance = 0n;
      for (const u of utxos) balance += u.amount;
      return { balance: String(balance), utxoIDs: utxos.map(utxoRef) };
    },
    getAllBalances: (p: Params<'address' | 'includePartial'>) => {
      const owner = serviceAddress(world, p.address);
      const balances = new Map<string, bigint>();
      for (const u of counted(world, owner, p.includePartial === true))
        balances.set(u.assetID, (balances.get(u.assetID) ?? 0n) + u.amount);
      const avax = world.network.avaxAssetID;
      return {
        balances: [...balances].map(([asset, balance]) => ({
          asset: asset === avax ? 'AVAX' : asset,
          balance: String(balance),
        })),
      };
    },
    getAssetDescription: (p: Params<'assetID'>) => {
      const assetID = lookupAssetID(world, p.assetID);
      const asset = world.assets.get(assetID);
      if (!asset) {
        // service.go GetAssetDescription reads state.GetTx: accepted txs only, never a pooled one.
        const tx = world.txs.get(assetID);
        throw new Error(
          tx?.chain === 'X' && tx.status === 'Accepted' ? "transaction doesn't create an asset" : 'not found',
        );
      }
      return { assetID, name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) };
    },
    getTxFee: () => ({ txFee: String(world.config.txFee), createAssetTxFee: String(world.config.createAssetTxFee) }),
    getHeight: () => ({ height: String(world.tip('X').height) }),
    ...blockReads(world, 'X', types),
    getTx: (p: Params<'txID' | 'encoding'>) => {
      const tx = world.txs.get(txID(p));
      if (tx?.chain !== 'X' || tx.status !== 'Accepted') throw new Error('not found');
      return txAnswer(world, tx, p, types);
    },
    getTxStatus: (p: Params<'txID'>) => {
      const tx = world.txs.get(txID(p));
      return { status: tx?.chain === 'X' && tx.status === 'Accepted' ? ('Accepted' as const) : ('Unknown' as const) };
    },
    getUTXOs: (p: UtxoPageParams) => utxoPage(world, 'X', p),
    getAddressTxs: (p: Params<'address' | 'assetID' | 'cursor' | 'pageSize'>) => {
      // A uint64 the answer's cursor carries on in full (Number() would round one past 2^53).
      const cursor = BigInt(String(p.cursor ?? 0));
      let pageSize = Number(p.pageSize ?? 0);
      if (pageSize > MAX_PAGE_SIZE) throw new Error(`pageSize > maximum allowed (${MAX_PAGE_SIZE})`);
      if (pageSize === 0) pageSize = MAX_PAGE_SIZE;
      const text = typeof p.address === 'string' ? p.address : '';
      let owner: string;
      try {
        owner = parseServiceAddress(world, 'X', text);
      } catch (error) {
        throw new Error(`couldn't parse argument 'address' to address: ${(error as Error).message}`);
      }
      let assetID: string;
      try {
        assetID = lookupAssetID(world, p.assetID);
      } catch (error) {
        throw new Error(`specified \`assetID\` is invalid: ${(error as Error).message}`);
      }
      const start = Number(cursor);
      const page = addressTxs(world, types, owner, assetID).slice(start, start + pageSize);
      // A nil slice when the page is empty: Go writes null.
      return { txIDs: page.length > 0 ? page : null, cursor: String(cursor + BigInt(page.length)) };
    },
  };
}
