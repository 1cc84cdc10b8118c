/**
 * The world's records: plain data. Addresses and short IDs are kept as 40-hex strings (the 20 bytes), IDs as cb58,
 * amounts and times (Unix seconds) as bigint; the bytes are the node's codec bytes, codec version included.
 */
export type UtxoChain = 'X' | 'P';

export interface Owner {
  locktime: bigint;
  threshold: number;
  /** Sorted, 40-hex each. */
  addresses: string[];
}

export interface Utxo {
  /**
   * The UTXO's ID, sha256(outputIndex as uint64 BE ++ txID) (ids.ID.Prefix), in hex: the key of the UTXO tables and
   * the order the node lists an address's UTXOs in. `utxoIDOf` gives its cb58 form, which only answers need.
   */
  key: string;
  txID: string;
  outputIndex: number;
  assetID: string;
  amount: bigint;
  owner: Owner;
  /** P-Chain stakeable.LockOut's locktime; 0n for a plain output. */
  stakeableLocktime: bigint;
  bytes: Uint8Array;
}

/** A UTXO in shared memory, exported from `sourceChain` (a chain ID) for `destinationChain` to import. */
export interface AtomicUtxo extends Utxo {
  sourceChain: string;
  destinationChain: string;
}

type TxStatus = 'Processing' | 'Accepted' | 'Committed' | 'Aborted' | 'Dropped' | 'Unknown';

export interface Tx {
  id: string;
  chain: UtxoChain;
  /** The signed transaction's bytes, codec version first. */
  bytes: Uint8Array;
  status: TxStatus;
  /** Why a transaction was dropped or aborted, in the node's words. */
  reason?: string;
  /** The accepted block holding it; genesis transactions have none. */
  blockID?: string;
}

export interface Block {
  id: string;
  chain: UtxoChain;
  height: number;
  parentID: string;
  /** Unix seconds. */
  timestamp: bigint;
  txIDs: string[];
  bytes: Uint8Array;
}

export interface Asset {
  id: string;
  name: string;
  symbol: string;
  denomination: number;
  /** The fx indices of its initial states (0 secp256k1fx, 1 nftfx, 2 propertyfx); absent means secp256k1fx alone. */
  fxs?: number[];
}

export interface Subnet {
  id: string;
  owner: Owner;
  /** After ConvertSubnetToL1Tx: the manager's chain and address, and the conversion ID. */
  conversion?: { chainID: string; address: string; conversionID: string };
}

/** What platform.getBlockchains lists; its feature extensions and genesis data are its CreateChainTx's (a P-Chain tx). */
export interface Blockchain {
  id: string;
  name: string;
  subnetID: string;
  vmID: string;
}

interface Signer {
  /** 0x hex, as the node writes them. */
  publicKey: string;
  proofOfPossession: string;
}

/** A permissioned or permissionless validator (or a delegator, with `validatorTxID`) of a subnet. */
export interface Staker {
  txID: string;
  subnetID: string;
  nodeID: string;
  startTime: bigint;
  endTime: bigint;
  weight: bigint;
  /** The staked outputs (codec bytes), returned to their owners at the end. */
  stake: Utxo[];
  rewardOwner?: Owner;
  delegationRewardOwner?: Owner;
  /** Parts per million of delegators' rewards. */
  delegationFee?: number;
  signer?: Signer;
  potentialReward: bigint;
  /** Set for a delegator: its validator's txID. */
  validatorTxID?: string;
  /** False once its period ended without a reward (its node's uptime fell short: the abort block). */
  rewarded?: false;
}

export interface L1Validator {
  validationID: string;
  subnetID: string;
  nodeID: string;
  publicKey: string;
  remainingBalanceOwner: Owner;
  deactivationOwner: Owner;
  startTime: bigint;
  weight: bigint;
  minNonce: bigint;
  /** nAVAX left to pay the continuous fee; 0 when inactive. */
  balance: bigint;
  /** The transaction that added it (ConvertSubnetToL1Tx or RegisterL1ValidatorTx): its block's height is its first. */
  addedBy?: string;
}

export interface FeeState {
  capacity: bigint;
  excess: bigint;
  /** Unix seconds of the last update. */
  timestamp: bigint;
}

export interface ValidatorFeeState {
  excess: bigint;
  timestamp: bigint;
}

/** Configuration that no transaction changes (the network's upgrade parameters). */
export interface WorldConfig {
  /** X-Chain static fees (avm.getTxFee). */
  txFee: bigint;
  createAssetTxFee: bigint;
  fee: {
    weights: [number, number, number, number];
    maxCapacity: bigint;
    maxPerSecond: bigint;
    targetPerSecond: bigint;
    minPrice: bigint;
    excessConversionConstant: bigint;
  };
  validatorFee: { capacity: bigint; target: bigint; minPrice: bigint; excessConversionConstant: bigint };
  staking: {
    minValidatorStake: bigint;
    maxValidatorStake: bigint;
    minDelegatorStake: bigint;
    minDelegationFee: number;
    minStakeDuration: bigint;
    maxStakeDuration: bigint;
    rewardConfig: { maxConsumptionRate: bigint; minConsumptionRate: bigint; mintingPeriod: bigint; supplyCap: bigint };
  };
}

/** The node's names of a bytes encoding (formatting.Encoding), as answers echo them. */
export type Encoding = 'hex' | 'hexc' | 'hexnc' | 'json';

export type HealthKind = 'health' | 'readiness' | 'liveness';

/** A health report: each check's last result by name (./health-checks.ts), and whether all pass. */
export interface HealthReport {
  checks: Record<string, unknown>;
  healthy: boolean;
}
