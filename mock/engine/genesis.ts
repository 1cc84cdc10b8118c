/**
 * A starting ledger for a network: its identity, fees, the AVAX asset, genesis blocks, and funds. `fund` is also the
 * development control that gives an address AVAX or an asset on X or P: a UTXO of a transaction ID derived from a
 * counter, so the same calls make the same UTXOs.
 */
import { Address, BigIntPr, Id, Int, OutputOwners, TransferOutput, Utxo, avaxSerial, pvmSerial, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { blockBytes, blockID } from './blocks.ts';
import { type ChainName, inputID, utxoBytes } from './codec.ts';
import { type FeeSetup, type Ledger, emptyChain } from './ledger.ts';

export interface NetworkIdentity {
  networkID: number;
  hrp: string;
  avaxAssetID: string;
  chainIDs: { X: string; P: string; C: string };
  fees: FeeSetup;
  /** Unix seconds. */
  genesisTime: bigint;
}

/** The local network of AvalancheGo's genesis/genesis_local.go and genesis_local.json. */
export const LOCAL: NetworkIdentity = {
  networkID: 12345,
  hrp: 'local',
  avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
  chainIDs: { X: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed', P: '11111111111111111111111111111111LpoYY', C: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU' },
  fees: {
    txFee: 1_000_000n,
    createAssetTxFee: 1_000_000n,
    weights: { bandwidth: 1n, dbRead: 1000n, dbWrite: 1000n, compute: 4n },
    maxCapacity: 1_000_000n,
    maxPerSecond: 100_000n,
    targetPerSecond: 50_000n,
    minPrice: 1n,
    excessConversionConstant: 2_164_043n,
  },
  genesisTime: 1_700_000_000n,
};

export function createLedger(identity: NetworkIdentity = LOCAL): Ledger {
  const ledger: Ledger = {
    networkID: identity.networkID,
    hrp: identity.hrp,
    avaxAssetID: identity.avaxAssetID,
    chainIDs: { ...identity.chainIDs },
    time: identity.genesisTime,
    fees: identity.fees,
    feeState: { capacity: identity.fees.maxCapacity, excess: 0n },
    chains: { X: emptyChain(identity.chainIDs.X), P: emptyChain(identity.chainIDs.P) },
    shared: new Map(),
    assets: new Map([[identity.avaxAssetID, { id: identity.avaxAssetID, name: 'Avalanche', symbol: 'AVAX', denomination: 9, fxs: [0] }]]),
    subnets: new Map(),
    blockchains: new Map(),
    stakers: new Map(),
  };
  for (const chain of ['X', 'P'] as const) {
    const bytes = blockBytes(chain, '11111111111111111111111111111111LpoYY', 0, identity.genesisTime, []);
    const id = blockID(bytes);
    ledger.chains[chain].blocks.push({ id, parentID: '11111111111111111111111111111111LpoYY', height: 0, timestamp: identity.genesisTime, txIDs: [], bytes });
    ledger.chains[chain].blockIndex.set(id, 0);
  }
  return ledger;
}

let counter = 0;

/** Gives `address` (20 bytes) `amount` of `assetID` (AVAX by default) on `chain`; on P optionally stakeable-locked. */
export function fund(ledger: Ledger, chain: ChainName, address: Uint8Array, amount: bigint, options: { assetID?: string; stakeableUntil?: bigint; locktime?: bigint } = {}): string {
  const assetID = options.assetID ?? ledger.avaxAssetID;
  const txID = sha256(utils.concatBytes(new TextEncoder().encode(`fund ${chain} ${counter++}`), address));
  const owners = new OutputOwners(new BigIntPr(options.locktime ?? 0n), new Int(1), [new Address(address)]);
  let output = new TransferOutput(new BigIntPr(amount), owners);
  if (chain === 'P' && options.stakeableUntil) output = new pvmSerial.StakeableLockOut(new BigIntPr(options.stakeableUntil), output);
  const utxo = new Utxo(new avaxSerial.UTXOID(new Id(txID), new Int(0)), Id.fromString(assetID), output);
  const id = inputID(txID, 0);
  ledger.chains[chain].utxos.set(id, { utxo, bytes: utxoBytes(chain, utxo) });
  return id;
}
