/**
 * What transactions change: the UTXO sets of X and P, the atomic (shared) memory between chains, blocks, transactions
 * and their statuses, assets, subnets and chains, the chain time. Plain maps and arrays, so a snapshot is a copy of
 * the maps (see ./snapshot.ts) and the world's read methods can serve straight from them.
 */
import type { Utxo } from '@avalabs/avalanchejs';
import type { ChainName } from './codec.ts';

export interface StoredUtxo {
  utxo: Utxo;
  /** The codec bytes `getUTXOs` returns. */
  bytes: Uint8Array;
}

export interface AtomicUtxo extends StoredUtxo {
  /** The chain that exported it. */
  source: string;
}

/** Processing while in the pool; the chain's accepted status once in a block; Dropped (with the reason) when refused. */
export type TxStatus = 'Processing' | 'Accepted' | 'Committed' | 'Dropped' | 'Aborted';

export interface TxRecord {
  id: string;
  chain: ChainName;
  bytes: Uint8Array;
  status: TxStatus;
  reason?: string;
  blockID?: string;
}

export interface BlockRecord {
  id: string;
  parentID: string;
  height: number;
  /** Unix seconds. */
  timestamp: bigint;
  txIDs: string[];
  bytes: Uint8Array;
}

export interface ChainLedger {
  /** The blockchain ID (cb58). */
  id: string;
  utxos: Map<string, StoredUtxo>;
  txs: Map<string, TxRecord>;
  blocks: BlockRecord[];
  blockIndex: Map<string, number>;
}

export interface Dimensions {
  bandwidth: bigint;
  dbRead: bigint;
  dbWrite: bigint;
  compute: bigint;
}

export interface FeeSetup {
  /** X-Chain static fees (avm.getTxFee). */
  txFee: bigint;
  createAssetTxFee: bigint;
  /** P-Chain dynamic fees (platform.getFeeConfig / getFeeState). */
  weights: Dimensions;
  maxCapacity: bigint;
  maxPerSecond: bigint;
  targetPerSecond: bigint;
  minPrice: bigint;
  excessConversionConstant: bigint;
}

export interface FeeState {
  capacity: bigint;
  excess: bigint;
}

export interface Subnet {
  id: string;
  owner: { locktime: bigint; threshold: number; addresses: Uint8Array[] };
  /** Set by ConvertSubnetToL1Tx. */
  conversion?: { chainID: string; address: Uint8Array; conversionID: string };
}

export interface Blockchain {
  id: string;
  subnetID: string;
  name: string;
  vmID: string;
}

export interface Asset {
  id: string;
  name: string;
  symbol: string;
  denomination: number;
  /** Feature extensions the asset supports (0 secp256k1fx, 1 nftfx, 2 propertyfx). */
  fxs: number[];
}

export interface Staker {
  txID: string;
  nodeID: string;
  subnetID: string;
  startTime: bigint;
  endTime: bigint;
  weight: bigint;
  kind: 'validator' | 'delegator' | 'subnetValidator';
  /** The staked outputs, returned at the end; the owner of the reward. */
  stake: StoredUtxo[];
  rewardOwner?: { locktime: bigint; threshold: number; addresses: Uint8Array[] };
  delegationShares?: number;
  potentialReward: bigint;
}

export interface Ledger {
  networkID: number;
  hrp: string;
  avaxAssetID: string;
  chainIDs: { X: string; P: string; C: string };
  /** Unix seconds of the chain time. */
  time: bigint;
  fees: FeeSetup;
  feeState: FeeState;
  chains: Record<ChainName, ChainLedger>;
  /** Per destination chain ID: UTXO ID -> exported UTXO. */
  shared: Map<string, Map<string, AtomicUtxo>>;
  assets: Map<string, Asset>;
  subnets: Map<string, Subnet>;
  blockchains: Map<string, Blockchain>;
  stakers: Map<string, Staker>;
}

export function emptyChain(id: string): ChainLedger {
  return { id, utxos: new Map(), txs: new Map(), blocks: [], blockIndex: new Map() };
}

export function sharedOf(ledger: Ledger, destination: string): Map<string, AtomicUtxo> {
  let memory = ledger.shared.get(destination);
  if (!memory) {
    memory = new Map();
    ledger.shared.set(destination, memory);
  }
  return memory;
}
