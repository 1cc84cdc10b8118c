/**
 * Staking on the P-Chain: AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx on the Primary Network
 * (vms/platformvm/txs/executor/staker_tx_verification.go, post-Durango: a staker starts at the chain time), and the
 * end of staking periods when the chain time passes them (RewardValidatorTx's effects: stake returned, reward paid).
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { avalanche } from '../shared/avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { accruedDelegateeReward, delegateeShare, potentialReward } from '../world/reward.ts';
import { earnsReward } from '../world/uptime.ts';
import { EMPTY_ID } from '../world/networks.ts';
import type { Staker, Utxo } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, ownerOf, utxoRecord } from './codec.ts';
import { verifyProofOfPossession } from './bls.ts';
import { type Effects, noEffects, outputsOf } from './effects.ts';
import { makeUtxo } from '../world/codec.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { txFee, spendAll, syntacticP, verifyMemo, wrapped } from './p.ts';
import { verifyConservation } from './locked.ts';
import { advanceL1 } from './l1-state.ts';
import { findValidator } from './subnets.ts';
import { byIteratorOrder, endsWithReward } from '../world/stakers.ts';
import { type PackProposal, acceptRewardBlocks } from './reward-blocks.ts';
import { checkOutputsSorted, verifyOwners, verifyTransferableOutput } from './syntax.ts';

const MAX_VALIDATOR_WEIGHT_FACTOR = 5n;
const PERCENT = 1_000_000n;
const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Verifies a staking transaction; undefined for any other kind (./p.ts verifies those). */
export function verifyStaking(world: World, decoded: DecodedTx): Effects | undefined {
  const tx = decoded.tx;
  if (tx._type !== 'pvm.AddPermissionlessValidator' && tx._type !== 'pvm.AddPermissionlessDelegator') return undefined;
  const isValidator = tx._type === 'pvm.AddPermissionlessValidator';
  const { ins, outs } = isValidator ? syntacticValidator(world, decoded) : syntacticDelegator(world, decoded);
  // staker_tx_verification.go: the memo after SyntacticVerify, then the subnet's rules (getValidatorRules: any other
  // subnet's come from its TransformSubnetTx, which none has since Etna).
  verifyMemo(decoded);
  const staking = world.config.staking;
  const validator = tx.subnetValidator.validator;
  const subnetID: string = tx.subnetValidator.subnetId.toString();
  if (subnetID !== world.chainIDs.P) throw new Refusal(TEXTS.notFound);
  const nodeID = `NodeID-${cb58Encode(validator.nodeId.toBytes())}`;
  const start = world.time.get();
  const end: bigint = validator.endTime.value();
  const weight: bigint = validator.weight.value();
  // tx.EndTime() is time.Unix(int64(End), 0): an End past 2^63-1 is before 1970, a period too short, not too long.
  const duration = BigInt.asIntN(64, end) - start;
  const stakeOuts: TransferableOutput[] = [...tx.stake];
  const stakedAsset: string = stakeOuts[0]!.getAssetId();
  let validatorOf: Staker | undefined;
  if (isValidator) {
    if (weight < staking.minValidatorStake) throw new Refusal(TEXTS.weightTooSmall);
    if (weight > staking.maxValidatorStake) throw new Refusal(TEXTS.weightTooLarge);
    if (tx.shares.value() < staking.minDelegationFee) throw new Refusal(TEXTS.insufficientDelegationFee);
  } else if (weight < staking.minDelegatorStake) throw new Refusal(TEXTS.weightTooSmall);
  if (duration < staking.minStakeDuration) throw new Refusal(TEXTS.stakeTooShort);
  if (duration > staking.maxStakeDuration) throw new Refusal(TEXTS.stakeTooLong);
  if (stakedAsset !== world.network.avaxAssetID)
    throw new Refusal(TEXTS.wrongStakedAsset(world.network.avaxAssetID, stakedAsset));
  const existing = findValidator(world, subnetID, nodeID);
  if (isValidator && existing) throw new Refusal(TEXTS.duplicateValidator(nodeID, subnetID));
  if (!isValidator) {
    if (!existing) throw new Refusal(TEXTS.noValidator(nodeID, subnetID));
    validatorOf = existing;
    if (start < existing.startTime || end > existing.endTime) throw new Refusal(TEXTS.periodMismatch);
    const max = [existing.weight * MAX_VALIDATOR_WEIGHT_FACTOR, staking.maxValidatorStake].reduce((a, b) =>
      a < b ? a : b,
    );
    const delegated = [...world.stakers.values()]
      .filter((s) => s.validatorTxID === existing.txID && s.endTime > start)
      .reduce((sum, s) => sum + s.weight, 0n);
    if (existing.weight + delegated + weight > max) throw new Refusal(TEXTS.overDelegated);
  }
  const effects = noEffects();
  try {
    effects.consumed = spendAll(world, decoded, ins, decoded.credentials);
    verifyConservation(world, ins, [...outs, ...stakeOuts], txFee(world, decoded));
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`${TEXTS.flowCheckFailed}: ${error.message}`) : error;
  }
  effects.produced = outputsOf('P', decoded, outs);
  const stake = stakeOuts.map((out, i) => utxoRecord('P', decoded.id, outs.length + i, out.getAssetId(), out.output));
  const rewardOwner = ownerOf(isValidator ? tx.validatorRewardsOwner : tx.delegatorRewardsOwner);
  effects.apply = (w) => {
    const reward = potentialReward(staking.rewardConfig, duration, weight, w.supply.get());
    w.supply.set(w.supply.get() + reward);
    const signer =
      isValidator && tx.signer?.proof
        ? { publicKey: `0x${hex(tx.signer.proof.publicKey)}`, proofOfPossession: `0x${hex(tx.signer.proof.signature)}` }
        : undefined;
    w.stakers.set(decoded.id, {
      txID: decoded.id,
      subnetID,
      nodeID,
      startTime: start,
      endTime: end,
      weight,
      stake,
      ...(rewardOwner ? { rewardOwner } : {}),
      ...(isValidator
        ? { delegationRewardOwner: ownerOf(tx.delegatorRewardsOwner)!, delegationFee: tx.shares.value() }
        : {}),
      ...(signer ? { signer } : {}),
      potentialReward: reward,
      ...(validatorOf ? { validatorTxID: validatorOf.txID } : {}),
    });
  };
  return effects;
}

type Syntactic = { ins: TransferableInput[]; outs: TransferableOutput[] };
const isEmptyID = (id: { toBytes(): Uint8Array }) => id.toBytes().every((b) => b === 0);

/** AddPermissionlessValidatorTx.SyntacticVerify (add_permissionless_validator_tx.go), in the node's order. */
function syntacticValidator(world: World, decoded: DecodedTx): Syntactic {
  const tx = decoded.tx;
  const validator = tx.subnetValidator.validator;
  if (isEmptyID(validator.nodeId)) throw new Refusal(TEXTS.emptyNodeID);
  if (tx.stake.length === 0) throw new Refusal(TEXTS.noStake);
  if (BigInt(tx.shares.value()) > PERCENT) throw new Refusal(TEXTS.tooManyShares);
  const base = wrapped(TEXTS.baseTxFailed, () => syntacticP(world, decoded, false));
  // verify.All(&tx.Validator, tx.Signer, tx.ValidatorRewardsOwner, tx.DelegatorRewardsOwner)
  const proof = tx.signer?.proof;
  wrapped(TEXTS.signerOrOwners, () => {
    if (validator.weight.value() === 0n) throw new Refusal(TEXTS.weightTooSmall);
    if (proof) verifyProofOfPossession(proof.publicKey, proof.signature);
    verifyOwners(tx.validatorRewardsOwner);
    verifyOwners(tx.delegatorRewardsOwner);
  });
  const primary = tx.subnetValidator.subnetId.toString() === world.chainIDs.P;
  if (Boolean(proof) !== primary) throw new Refusal(TEXTS.invalidSigner(Boolean(proof), primary));
  verifyStake(tx.stake, validator.weight.value(), TEXTS.validatorWeightMismatch);
  return base;
}

/** AddPermissionlessDelegatorTx.SyntacticVerify (add_permissionless_delegator_tx.go). */
function syntacticDelegator(world: World, decoded: DecodedTx): Syntactic {
  const tx = decoded.tx;
  if (tx.stake.length === 0) throw new Refusal(TEXTS.noStake);
  const base = wrapped(TEXTS.baseTxFailed, () => syntacticP(world, decoded, false));
  const weight: bigint = tx.subnetValidator.validator.weight.value();
  wrapped(TEXTS.validatorOrOwner, () => {
    if (weight === 0n) throw new Refusal(TEXTS.weightTooSmall);
    verifyOwners(tx.delegatorRewardsOwner);
  });
  verifyStake(tx.stake, weight, TEXTS.delegatorWeightMismatch);
  return base;
}

/**
 * The stake outputs' checks both permissionless staking txs share: each output verified, one staked asset, their sum
 * (a uint64: the node's math.Add refuses an overflow) sorted and equal to the weight.
 */
function verifyStake(
  stake: readonly TransferableOutput[],
  weight: bigint,
  mismatch: (weight: bigint, stake: bigint) => string,
): void {
  for (const out of stake) wrapped('failed to verify output', () => verifyTransferableOutput(out));
  const asset = stake[0]!.getAssetId();
  let total = stake[0]!.amount();
  for (const out of stake.slice(1)) {
    total += out.amount();
    if (total > MAX_UINT64) throw new Refusal(TEXTS.overflow);
    if (out.getAssetId() !== asset) throw new Refusal(TEXTS.multipleStakedAssets(asset, out.getAssetId()));
  }
  checkOutputsSorted(stake, avalanche().utils.getManagerForVM('PVM').getDefaultCodec());
  if (total !== weight) throw new Refusal(mismatch(weight, total));
}

/** When the node's Primary Network validation that `staker` belongs to started: its uptime counts from then. */
function primaryStart(world: World, staker: Staker): bigint {
  for (const s of world.stakers.values())
    if (s.nodeID === staker.nodeID && s.subnetID === EMPTY_ID && !s.validatorTxID && s.startTime <= staker.startTime)
      if (s.endTime >= staker.endTime) return s.startTime;
  return staker.startTime;
}

/**
 * Moves the chain time to `time`, ending every staking period that ends by then in the node's order: each staker
 * rewarded by a transaction with a proposal block and its option at its end time (./reward-blocks.ts), the proposal
 * block carrying what `pack` takes from the mempool, a permissioned subnet validator by the time's advance alone.
 */
export function advanceTime(world: World, time: bigint, pack: PackProposal = () => []): void {
  advanceL1(world, time);
  // In the order the node rewards them: its current staker iterator's (a delegator before its validator). Found
  // again only after a proposal block packed txs, which may have added a staker that ends by `time` too (sorting all
  // stakers again after each would be quadratic in a fork's thousands).
  const ending = () =>
    [...world.stakers.values()]
      .filter((s) => s.endTime <= time && !world.rewardUtxos.has(s.txID))
      .sort(byIteratorOrder);
  let packed = false;
  const packing: PackProposal = () => {
    const txs = pack();
    packed ||= txs.length > 0;
    return txs;
  };
  let queue = ending();
  for (let next = 0; next < queue.length; ) {
    const staker = queue[next++]!;
    packed = false;
    const rewarded = earnsReward(world, staker, primaryStart(world, staker));
    if (endsWithReward(staker))
      acceptRewardBlocks(world, staker, rewarded, () => endPeriod(world, staker, rewarded), packing);
    else endPeriod(world, staker, rewarded);
    if (packed) [queue, next] = [ending(), 0];
  }
  if (time > world.time.get()) world.time.set(time);
}

/**
 * rewardValidatorTx's changes (proposal_tx_executor.go): the stake comes back, and with `rewarded` (the commit block)
 * the reward is paid to the reward owner (a delegator's reward less its validator's fee, which is paid with the
 * validator's); getRewardUTXOs lists them.
 */
function endPeriod(world: World, staker: Staker, rewarded: boolean): void {
  // The stake comes back as staked (rewardValidatorTx: `Out: out.Output()`): a stakeable lock stays, passed or not.
  for (const utxo of staker.stake) world.utxos.P.set(utxo.key, utxo);
  const index = Math.max(-1, ...staker.stake.map((u) => u.outputIndex)) + 1;
  const rewards: Utxo[] = [];
  let own = rewarded ? staker.potentialReward : 0n;
  // A delegator's fee accrues to its validator (paid when the validator ends, in this call or a later one).
  if (staker.validatorTxID) own -= delegateeShare(own, world.stakers.get(staker.validatorTxID)?.delegationFee ?? 0);
  if (!rewarded) {
    // The abort block: no reward, and the reward promised at staking leaves the supply again.
    world.supply.set(world.supply.get() - staker.potentialReward);
    world.stakers.set(staker.txID, { ...staker, rewarded: false });
  }
  // Delegators end before their validator (sorted so at the same time), so theirs have accrued by now.
  const accrued = staker.validatorTxID ? 0n : accruedDelegateeReward(world, staker);
  const pay = (amount: bigint, owner: Staker['rewardOwner'], outputIndex: number) => {
    if (amount <= 0n || !owner) return;
    rewards.push(
      makeUtxo({
        txID: staker.txID,
        outputIndex,
        assetID: world.network.avaxAssetID,
        amount,
        owner,
        stakeableLocktime: 0n,
      }),
    );
  };
  pay(own, staker.rewardOwner, index);
  // The delegatee reward follows the validator's own reward output, or takes its index when there is none.
  pay(accrued, staker.delegationRewardOwner, own > 0n && staker.rewardOwner ? index + 1 : index);
  for (const utxo of rewards) world.utxos.P.set(utxo.key, utxo);
  world.rewardUtxos.set(staker.txID, rewards);
}
