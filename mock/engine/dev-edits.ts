/**
 * Direct edits of the chain state (`/ext/dev`), like anvil's `anvil_setBalance`/`anvil_setStorageAt` in the UTXO
 * world's terms: a UTXO with any owners and locks, a validator or delegator with its period and reward owner, a
 * node's connection and uptime, a subnet with its owner. Each is checked as genesis data would be
 * and changes nothing when refused; each goes through the world's journal, so snapshots cover it.
 */
import { cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { makeUtxo, sha256, utxoIDOf } from '../world/codec.ts';
import { EMPTY_ID } from '../world/networks.ts';
import { LAST_RFC3339_SECOND, type Params, rfc3339 } from '../world/reads.ts';
import { potentialReward } from '../world/reward.ts';
import { isCurrent } from '../world/stakers.ts';
import type { Owner, UtxoChain } from '../world/types.ts';
import { setConnection, uptimeFrom } from '../world/uptime.ts';
import type { World } from '../world/world.ts';
import { addL1Validator, convertSubnet, setL1ValidatorBalance } from './dev-l1.ts';
import { MAX_UINT64, assetOf, ownerOf, uint } from './dev-params.ts';

const percent = (share: number) => (share * 100).toFixed(4);

/** A `NodeID-<cb58>` of 20 bytes, or the refusal. */
function nodeIDOf(value: unknown): string {
  const text = String(value ?? '');
  const bytes = text.startsWith('NodeID-') ? cb58Decode(text.slice('NodeID-'.length)) : undefined;
  if (bytes?.length !== 20) throw new Error(`${JSON.stringify(text)} is not a node ID (NodeID-<cb58>)`);
  return text;
}

export class StateEdits {
  private made = 0;
  protected readonly world: World;
  /** Builds an empty P-Chain block: a staker set changes with blocks, so the validator-set history sees the edit. */
  private readonly mineP: () => void;

  constructor(world: World, mineP: () => void) {
    this.world = world;
    this.mineP = mineP;
  }

  /** The ID of no real transaction, unique per edit. */
  protected syntheticTxID(kind: string, detail: string): string {
    // A fork starts from its source's tips: its source's URL keeps its IDs apart from the source's own edits.
    const origin = this.world.fork ? ` fork of ${this.world.fork.source.url}` : '';
    const tips = `${this.world.tip('P').id} ${this.world.tip('X').id}`;
    return cb58Encode(sha256(Buffer.from(`dev.${kind} ${this.made++} ${tips} ${detail}${origin}`)));
  }

  /** A UTXO with any owners, threshold, locktime and (P) stakeable lock, out of nothing. */
  addUtxo(p: Params<'chain' | 'addresses' | 'threshold' | 'locktime' | 'amount' | 'assetID' | 'stakeableLocktime'>): {
    utxoID: string;
    txID: string;
    outputIndex: number;
  } {
    const chain: unknown = p.chain;
    if (chain !== 'X' && chain !== 'P') throw new Error(`unknown chain '${String(chain)}': UTXOs are on X or P`);
    const owner = ownerOf(this.world, p);
    const amount = uint(p.amount, 'amount');
    if (amount === 0n) throw new Error('amount must be greater than 0');
    const stakeableLocktime = p.stakeableLocktime === undefined ? 0n : uint(p.stakeableLocktime, 'stakeableLocktime');
    if (stakeableLocktime > 0n && chain !== 'P') throw new Error('only P-Chain UTXOs are stake-locked');
    const assetID = assetOf(this.world, p.assetID);
    if (chain === 'P' && assetID !== this.world.network.avaxAssetID) throw new Error('P-Chain UTXOs hold AVAX only');
    const txID = this.syntheticTxID('addUtxo', owner.addresses.join(','));
    const utxo = makeUtxo({ txID, outputIndex: 0, assetID, amount, owner, stakeableLocktime });
    this.world.utxos[chain].set(utxo.key, utxo);
    return { utxoID: utxoIDOf(utxo), txID, outputIndex: 0 };
  }

  /** Takes a UTXO out of the chain's set, as if spent by no transaction. */
  removeUtxo(p: Params<'chain' | 'utxoID'>): Record<string, never> {
    const chain = p.chain as UtxoChain;
    if (chain !== 'X' && chain !== 'P') throw new Error(`unknown chain '${String(chain)}': UTXOs are on X or P`);
    const id = cb58Decode(String(p.utxoID ?? ''));
    const key = id?.length === 32 ? Buffer.from(id).toString('hex') : undefined;
    if (!key || !this.world.utxos[chain].delete(key)) throw new Error(`UTXO ${String(p.utxoID)} not found on ${chain}`);
    return {};
  }

  /**
   * A Primary Network validator (or, with `delegate`, a delegator of one) from now to `endTime`, its stake minted and
   * returned to the reward owner at the end, its reward promised as the node promises one. Connected unless
   * `connected` is false.
   */
  addStaker(
    p: Params<
      | 'nodeID'
      | 'weight'
      | 'endTime'
      | 'rewardAddresses'
      | 'rewardThreshold'
      | 'delegate'
      | 'delegationFee'
      | 'connected'
    >,
  ): { txID: string; potentialReward: string } {
    const world = this.world;
    const nodeID = nodeIDOf(p.nodeID);
    const weight = uint(p.weight, 'weight');
    const start = world.time.get();
    const end = uint(p.endTime, 'endTime');
    if (weight === 0n) throw new Error('weight must be greater than 0');
    if (end <= start) throw new Error(`endTime ${end} must be after ${start}`);
    // The chain time never passes the last second Go's JSON writes (getTimestamp): a later end would never come.
    if (end > LAST_RFC3339_SECOND)
      throw new Error(`endTime ${end} is after ${rfc3339(LAST_RFC3339_SECOND)}, the last time the chain can reach`);
    const rewardOwner: Owner = ownerOf(world, { addresses: p.rewardAddresses, threshold: p.rewardThreshold });
    const current = [...world.stakers.values()].filter(
      (s) => s.nodeID === nodeID && s.subnetID === EMPTY_ID && !s.validatorTxID && isCurrent(s, start),
    );
    const delegate = p.delegate === true;
    const validator = current[0];
    if (delegate && !validator) throw new Error(`${nodeID} is not a Primary Network validator to delegate to`);
    if (delegate && end > validator!.endTime) throw new Error(`endTime ${end} is after the validator's end`);
    if (!delegate && validator) throw new Error(`${nodeID} is already a Primary Network validator`);
    const fee = p.delegationFee === undefined ? 20_000 : Number(uint(p.delegationFee, 'delegationFee'));
    if (fee > 1_000_000) throw new Error('delegationFee is in parts per million: at most 1000000');
    const supply = world.supply.get();
    const reward = potentialReward(world.config.staking.rewardConfig, end - start, weight, supply);
    if (supply + reward > MAX_UINT64) throw new Error('the supply would overflow');
    const txID = this.syntheticTxID('addStaker', nodeID);
    const avax = world.network.avaxAssetID;
    world.supply.set(supply + reward);
    world.stakers.set(txID, {
      txID,
      subnetID: EMPTY_ID,
      nodeID,
      startTime: start,
      endTime: end,
      weight,
      stake: [
        makeUtxo({ txID, outputIndex: 0, assetID: avax, amount: weight, owner: rewardOwner, stakeableLocktime: 0n }),
      ],
      rewardOwner,
      ...(delegate ? { validatorTxID: validator!.txID } : { delegationRewardOwner: rewardOwner, delegationFee: fee }),
      potentialReward: reward,
    });
    if (!delegate && p.connected !== false) setConnection(world, nodeID, { connected: true });
    this.mineP();
    return { txID, potentialReward: String(reward) };
  }

  /**
   * Connects or disconnects a node (from now on), and sets its uptime since its validation started (`uptime`, a
   * percentage): at the end of a staking period rewards follow it (80% needed).
   */
  setConnection(p: Params<'nodeID' | 'connected' | 'uptime'>): { connected: boolean; uptime: string } {
    const world = this.world;
    const nodeID = nodeIDOf(p.nodeID);
    if (p.connected !== undefined && typeof p.connected !== 'boolean')
      throw new Error('connected must be true or false');
    const asked = p.uptime === undefined ? undefined : Number(p.uptime);
    if (asked !== undefined && !(asked >= 0 && asked <= 100)) throw new Error('uptime must be a percentage, 0 to 100');
    const now = world.time.get();
    const validation = [...world.stakers.values()].find(
      (s) => s.nodeID === nodeID && s.subnetID === EMPTY_ID && !s.validatorTxID && isCurrent(s, now),
    );
    const start = validation?.startTime ?? now;
    setConnection(world, nodeID, {
      ...(p.connected === undefined ? {} : { connected: p.connected as boolean }),
      ...(asked === undefined ? {} : { uptime: asked / 100, start }),
    });
    return { connected: world.uptimes.get(nodeID)!.connected, uptime: percent(uptimeFrom(world, nodeID, start)) };
  }

  /** A subnet with the given owner, without a CreateSubnetTx. */
  addSubnet(p: Params<'addresses' | 'threshold' | 'locktime'>): { subnetID: string } {
    const owner = ownerOf(this.world, p);
    const subnetID = this.syntheticTxID('addSubnet', owner.addresses.join(','));
    this.world.subnets.set(subnetID, { id: subnetID, owner });
    return { subnetID };
  }

  /** A subnet's owner (who authorises its chains and validators), without a TransferSubnetOwnershipTx. */
  setSubnetOwner(p: Params<'subnetID' | 'addresses' | 'threshold' | 'locktime'>): Record<string, never> {
    const subnet = this.world.subnets.get(String(p.subnetID ?? ''));
    if (!subnet) throw new Error(`subnet ${String(p.subnetID)} not found`);
    this.world.subnets.set(subnet.id, { ...subnet, owner: ownerOf(this.world, p) });
    return {};
  }

  /** Makes a subnet an L1 managed from `chainID` at `address`, without a ConvertSubnetToL1Tx. */
  convertSubnet(p: Params<'subnetID' | 'chainID' | 'address'>): { conversionID: string } {
    return convertSubnet(this.world, p);
  }

  /** An L1 validator with its key, weight, balance and owners, without a RegisterL1ValidatorTx. */
  addL1Validator(
    p: Params<
      'subnetID' | 'nodeID' | 'publicKey' | 'weight' | 'balance' | 'remainingBalanceOwner' | 'deactivationOwner'
    >,
  ): { validationID: string } {
    const nodeID = nodeIDOf(p.nodeID);
    const added = addL1Validator(this.world, p, nodeID, () => this.syntheticTxID('addL1Validator', nodeID));
    this.mineP();
    return added;
  }

  /** An L1 validator's balance; at 0 it is inactive (and leaves the validator set's active part). */
  setL1ValidatorBalance(p: Params<'validationID' | 'balance'>): Record<string, never> {
    const answer = setL1ValidatorBalance(this.world, p);
    this.mineP();
    return answer;
  }
}
