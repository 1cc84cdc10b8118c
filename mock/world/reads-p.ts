/**
 * The P-Chain's reads (vms/platformvm/service.go), from the world. Balances sort each UTXO into the node's lock
 * categories at the chain's time; validator answers come from the stakers (./stakers.ts).
 */
import { isConnected, uptimeFrom } from './uptime.ts';
import { createHash } from 'node:crypto';
import { gasPrice } from './fees.ts';
import { EMPTY_ID } from './networks.ts';
import {
  type Params,
  allUtxos,
  apiOwner,
  blockReads,
  encode,
  encodingOf,
  heightOf,
  parseID,
  parseServiceAddress,
  rfc3339,
  txAnswer,
  type TxTypes,
  type UtxoPageParams,
  utxoPage,
  utxoRef,
} from './reads.ts';
import { accruedDelegateeReward } from './reward.ts';
import { pChainListReads } from './reads-p-chains.ts';
import { byIteratorOrder, delegatorsOf, validatorSet, validatorsOf } from './stakers.ts';
import type { L1Validator, Staker } from './types.ts';
import { cb58Decode } from '../../generators/formats.ts';
import type { World } from './world.ts';

const MAX_STAKE_ADDRESSES = 256;

const nodeIDBytes = (nodeID: string) => Buffer.from(cb58Decode(nodeID.slice('NodeID-'.length)) ?? []);
const subnetOf = (params: Params<'subnetID'>) => parseID(params.subnetID) ?? EMPTY_ID;
const amounts = (map: Map<string, bigint>) =>
  Object.fromEntries([...map].map(([asset, amount]) => [asset, String(amount)]));
const add = (map: Map<string, bigint>, asset: string, amount: bigint) =>
  map.set(asset, (map.get(asset) ?? 0n) + amount);
/** formatting.Encode, its refusal (`json`) wrapped in the method's words. */
function encodeOr(bytes: Uint8Array, encoding: string, context: string): string {
  try {
    return encode(bytes, encoding);
  } catch (error) {
    throw new Error(`${context}: ${(error as Error).message}`);
  }
}
/** avajson.Float32 with four decimals, as the node writes percentages. */
const percent = (ppm: number) => (ppm / 10000).toFixed(4);

export function pChainReads(world: World, types: TxTypes) {
  const avax = world.network.avaxAssetID;
  const addresses = (p: Params<'addresses'>) =>
    (Array.isArray(p.addresses) ? (p.addresses as string[]) : []).map((a) => parseServiceAddress(world, 'P', a));

  const validatorJSON = (v: Staker, withDelegators: boolean) => {
    const primary = v.subnetID === EMPTY_ID;
    const staker = {
      txID: v.txID,
      startTime: String(v.startTime),
      endTime: String(v.endTime),
      weight: String(v.weight),
      nodeID: v.nodeID,
    };
    // service.go: a permissioned subnet's validator (no reward owner: AddSubnetValidatorTx) is toPlatformStaker alone.
    return { ...staker, ...(!primary && !v.rewardOwner ? {} : stakingJSON(v, primary, withDelegators)) };
  };

  /** What a permissionless validator adds to its staker fields (platformapi.PermissionlessValidator). */
  const stakingJSON = (v: Staker, primary: boolean, withDelegators: boolean) => {
    const delegators = delegatorsOf(world, v);
    return {
      ...(v.rewardOwner ? { validationRewardOwner: apiOwner(world, 'P', v.rewardOwner) } : {}),
      ...(v.delegationRewardOwner ? { delegationRewardOwner: apiOwner(world, 'P', v.delegationRewardOwner) } : {}),
      potentialReward: String(v.potentialReward),
      accruedDelegateeReward: String(accruedDelegateeReward(world, v)),
      delegationFee: percent(v.delegationFee ?? 0),
      // As this node sees them: the network's own nodes up since genesis, others as dev.setConnection says.
      ...(primary
        ? {
            uptime: (uptimeFrom(world, v.nodeID, v.startTime) * 100).toFixed(4),
            connected: isConnected(world, v.nodeID),
          }
        : {}),
      ...(v.signer ? { signer: v.signer } : {}),
      delegatorCount: String(delegators.length),
      delegatorWeight: String(delegators.reduce((sum, d) => sum + d.weight, 0n)),
      ...(withDelegators
        ? {
            delegators: delegators.map((d) => ({
              txID: d.txID,
              startTime: String(d.startTime),
              endTime: String(d.endTime),
              weight: String(d.weight),
              nodeID: d.nodeID,
              ...(d.rewardOwner ? { rewardOwner: apiOwner(world, 'P', d.rewardOwner) } : {}),
              potentialReward: String(d.potentialReward),
            })),
          }
        : {}),
    };
  };

  /** service.go convertL1ValidatorToAPI (platformapi.APIL1Validator). */
  const l1ValidatorJSON = (v: L1Validator) => ({
    nodeID: v.nodeID,
    weight: String(v.weight),
    startTime: String(v.startTime),
    validationID: v.validationID,
    publicKey: v.publicKey,
    remainingBalanceOwner: apiOwner(world, 'P', v.remainingBalanceOwner),
    deactivationOwner: apiOwner(world, 'P', v.deactivationOwner),
    minNonce: String(v.minNonce),
    balance: String(v.balance),
  });

  const heightParam = (p: Params<'height' | 'subnetID'>): number => {
    if (p.height === 'proposed') return world.tip('P').height;
    const height = heightOf(p);
    const tip = world.tip('P').height;
    if (height > BigInt(tip))
      throw new Error(
        `failed to get validator set at ${height}: failed to fetch validator set at unfinalized height with ` +
          `SubnetID = ` +
          `${subnetOf(p)}: current P-chain height (${tip}) < requested P-Chain height (${height})`,
      );
    return Number(height);
  };

  const transformationNotFound = (subnetID: string) =>
    new Error(`failed fetching subnet transformation for ${subnetID}: not found`);

  return {
    ...pChainListReads(world),
    getBalance: (p: Params<'addresses' | 'address'>) => {
      const now = world.time.get();
      const unlocked = new Map<string, bigint>();
      const lockedStakeable = new Map<string, bigint>();
      const lockedNotStakeable = new Map<string, bigint>();
      // Releases before v1.9.8 append `address` to `addresses` (service.go GetBalance); later ones never decode it.
      const owners = addresses(p);
      if (typeof p.address === 'string') owners.push(parseServiceAddress(world, 'P', p.address));
      const utxos = allUtxos(world, 'P', owners);
      for (const u of utxos) {
        if (u.owner.locktime > now) add(lockedNotStakeable, u.assetID, u.amount);
        else if (u.stakeableLocktime > now) add(lockedStakeable, u.assetID, u.amount);
        else add(unlocked, u.assetID, u.amount);
      }
      const total = new Map<string, bigint>();
      for (const map of [lockedStakeable, lockedNotStakeable, unlocked])
        for (const [asset, amount] of map) add(total, asset, amount);
      return {
        balance: String(total.get(avax) ?? 0n),
        unlocked: String(unlocked.get(avax) ?? 0n),
        lockedStakeable: String(lockedStakeable.get(avax) ?? 0n),
        lockedNotStakeable: String(lockedNotStakeable.get(avax) ?? 0n),
        balances: amounts(total),
        unlockeds: amounts(unlocked),
        lockedStakeables: amounts(lockedStakeable),
        lockedNotStakeables: amounts(lockedNotStakeable),
        // Only appended to (service.go:218): nil, `null`, when no UTXO is counted.
        utxoIDs: utxos.length > 0 ? utxos.map(utxoRef) : null,
      };
    },
    getUTXOs: (p: UtxoPageParams) => utxoPage(world, 'P', p),
    getStake: (p: Params<'addresses' | 'validatorsOnly' | 'encoding'>) => {
      const list = Array.isArray(p.addresses) ? p.addresses : [];
      if (list.length > MAX_STAKE_ADDRESSES)
        throw new Error(`${list.length} addresses provided but this method can take at most ${MAX_STAKE_ADDRESSES}`);
      const owners = new Set(addresses(p));
      const staked = new Map<string, bigint>();
      const outputs: Array<{ assetID: string; bytes: Uint8Array }> = [];
      const now = world.time.get();
      // service.go GetStake walks the current staker iterator.
      for (const s of [...world.stakers.values()].sort(byIteratorOrder)) {
        if (s.endTime <= now || (p.validatorsOnly === true && s.validatorTxID)) continue;
        for (const out of s.stake) {
          if (!out.owner.addresses.some((a) => owners.has(a))) continue;
          add(staked, out.assetID, out.amount);
          // A TransferableOutput: the UTXO's bytes after its codec version, tx ID and output index.
          outputs.push({
            assetID: out.assetID,
            bytes: Buffer.concat([out.bytes.subarray(0, 2), out.bytes.subarray(38)]),
          });
        }
      }
      const encoding = encodingOf(p);
      return {
        staked: String(staked.get(avax) ?? 0n),
        stakeds: amounts(staked),
        stakedOutputs: outputs.map((o) =>
          encodeOr(o.bytes, encoding, `couldn't encode output ${o.assetID} as ${encoding}`),
        ),
        encoding,
      };
    },
    getCurrentValidators: (p: Params<'subnetID' | 'nodeIDs'>) => {
      const subnetID = subnetOf(p);
      const nodeIDs = new Set(Array.isArray(p.nodeIDs) ? (p.nodeIDs as string[]) : []);
      const validators = validatorsOf(world, subnetID).filter((v) => nodeIDs.size === 0 || nodeIDs.has(v.nodeID));
      const legacy = validators.map((v) => validatorJSON(v, nodeIDs.size === 1));
      if (!world.subnets.get(subnetID)?.conversion) return { validators: legacy };
      // An L1 (service.go getL1Validators): its legacy validators, then every L1 validator, by node ID bytes.
      const l1 = [...world.l1Validators.values()]
        .filter((v) => v.subnetID === subnetID && (nodeIDs.size === 0 || nodeIDs.has(v.nodeID)))
        .sort((a, b) => Buffer.compare(nodeIDBytes(a.nodeID), nodeIDBytes(b.nodeID)));
      return { validators: [...legacy, ...l1.map(l1ValidatorJSON)] };
    },
    getValidatorsAt: (p: Params<'height' | 'subnetID'>) => {
      const set = validatorSet(world, subnetOf(p), heightParam(p));
      return Object.fromEntries(set.map((v) => [v.nodeID, { publicKey: v.publicKey, weight: String(v.weight) }]));
    },
    sampleValidators: (p: Params<'size' | 'subnetID'>) => {
      const subnetID = subnetOf(p);
      const size = Number(p.size ?? 0);
      const set = validatorSet(world, subnetID);
      if (set.length === 0 && size > 0) throw new Error(`sampling ${subnetID} errored with missing validators`);
      if (size > set.length) throw new Error(`sampling ${subnetID} errored with insufficient weight`);
      // A deterministic draw: the chain's tip seeds the order, so the same state samples the same nodes.
      const seed = world.tip('P').id;
      const rank = (nodeID: string) => createHash('sha256').update(`${seed} ${nodeID}`).digest('hex');
      const sample = set
        .map((v) => v.nodeID)
        .sort((a, b) => (rank(a) < rank(b) ? -1 : 1))
        .slice(0, size);
      return { validators: sample.sort() };
    },
    getTotalStake: (p: Params<'subnetID'>) => {
      const weight = String(validatorSet(world, subnetOf(p)).reduce((sum, v) => sum + v.weight, 0n));
      return { stake: weight, weight };
    },
    getCurrentSupply: (p: Params<'subnetID'>) => {
      const subnetID = subnetOf(p);
      if (subnetID !== EMPTY_ID) throw new Error('fetching current supply failed: not found');
      return { supply: String(world.supply.get()), height: String(world.tip('P').height) };
    },
    getMinStake: (p: Params<'subnetID'>) => {
      const subnetID = subnetOf(p);
      if (subnetID !== EMPTY_ID) throw transformationNotFound(subnetID);
      return {
        minValidatorStake: String(world.config.staking.minValidatorStake),
        minDelegatorStake: String(world.config.staking.minDelegatorStake),
      };
    },
    getStakingAssetID: (p: Params<'subnetID'>) => {
      const subnetID = subnetOf(p);
      if (subnetID !== EMPTY_ID) throw transformationNotFound(subnetID);
      return { assetID: avax };
    },
    getHeight: () => ({ height: String(world.tip('P').height) }),
    getProposedHeight: () => ({ height: String(world.tip('P').height) }),
    getTimestamp: () => ({ timestamp: rfc3339(world.time.get()) }),
    getTx: (p: Params<'txID' | 'encoding'>) => {
      const id = String(p.txID ?? '');
      const tx = world.txs.get(id);
      if (tx?.chain !== 'P' || (tx.status !== 'Committed' && tx.status !== 'Aborted'))
        throw new Error("couldn't get tx: not found");
      return txAnswer(world, tx, p, types);
    },
    getTxStatus: (p: Params<'txID'>) => {
      const tx = world.txs.get(String(p.txID ?? ''));
      // `Accepted` is the X-Chain's word: no P-Chain tx has it.
      if (tx?.chain !== 'P' || tx.status === 'Accepted') return { status: 'Unknown' as const };
      return { status: tx.status, ...(tx.reason ? { reason: tx.reason } : {}) };
    },
    ...blockReads(world, 'P', types),
    getRewardUTXOs: (p: Params<'txID' | 'encoding'>) => {
      const encoding = encodingOf(p);
      const utxos = world.rewardUtxos.get(String(p.txID ?? '')) ?? [];
      const encoded = utxos.map((u) => encodeOr(u.bytes, encoding, `couldn't encode utxo as ${encoding}`));
      return { numFetched: String(utxos.length), utxos: encoded, encoding };
    },
    getFeeConfig: () => {
      const f = world.config.fee;
      return {
        weights: f.weights,
        maxCapacity: f.maxCapacity,
        maxPerSecond: f.maxPerSecond,
        targetPerSecond: f.targetPerSecond,
        minPrice: f.minPrice,
        excessConversionConstant: f.excessConversionConstant,
      };
    },
    getFeeState: () => {
      const s = world.feeState.get();
      // Go's uint64s as bigints: the result writer writes their exact digits (a price capped at 2^64-1 too).
      return {
        capacity: s.capacity,
        excess: s.excess,
        price: gasPrice(world.config.fee.minPrice, s.excess, world.config.fee.excessConversionConstant),
        timestamp: rfc3339(s.timestamp),
      };
    },
    getValidatorFeeConfig: () => {
      const f = world.config.validatorFee;
      return {
        capacity: f.capacity,
        target: f.target,
        minPrice: f.minPrice,
        excessConversionConstant: f.excessConversionConstant,
      };
    },
    getValidatorFeeState: () => {
      const s = world.validatorFeeState.get();
      const f = world.config.validatorFee;
      return {
        excess: s.excess,
        price: gasPrice(f.minPrice, s.excess, f.excessConversionConstant),
        timestamp: rfc3339(s.timestamp),
      };
    },
    getL1Validator: (p: Params<'validationID'>) => {
      // An ids.ID: absent or null, the zero ID (service.go:972).
      const id = typeof p.validationID === 'string' ? p.validationID : EMPTY_ID;
      const v = world.l1Validators.get(id);
      if (!v) throw new Error(`fetching L1 validator ${JSON.stringify(id)} failed: not found`);
      return { ...l1ValidatorJSON(v), subnetID: v.subnetID, height: String(world.tip('P').height) };
    },
  };
}
