/**
 * Staking on the P-Chain: AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx on the Primary Network
 * (vms/platformvm/txs/executor/staker_tx_verification.go, post-Durango: a staker starts at the chain time), and the
 * end of staking periods when the chain time passes them (RewardValidatorTx's effects: stake returned, reward paid).
 */
import type { utils } from '@avalabs/avalanchejs';
import { avalanche } from './avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { accruedDelegateeReward, delegateeShare, potentialReward } from '../world/reward.ts';
import { isCurrent } from '../world/stakers.ts';
import type { Staker, Utxo } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, type Transaction, ownerOf, utxoRecord } from './codec.ts';
import { verifyProofOfPossession } from './bls.ts';
import { type Effects, noEffects, outputsOf } from './effects.ts';
import { makeUtxo } from '../world/codec.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { dynamicFee, flowP, spendAll, syntacticP, wrapped } from './p.ts';
import { advanceL1 } from './l1-state.ts';
import { checkOutputsSorted, verifyTransferableOutput } from './syntax.ts';

const MAX_VALIDATOR_WEIGHT_FACTOR = 5n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function currentValidator(world: World, subnetID: string, nodeID: string): Staker | undefined {
  const now = world.time.get();
  for (const s of world.stakers.values())
    if (s.subnetID === subnetID && s.nodeID === nodeID && !s.validatorTxID && (isCurrent(s, now) || s.startTime > now))
      return s;
  return undefined;
}

/** Verifies a staking transaction; undefined for any other kind (./p.ts verifies those). */
export function verifyStaking(world: World, decoded: DecodedTx): Effects | undefined {
  const tx = decoded.tx;
  if (tx._type !== 'pvm.AddPermissionlessValidator' && tx._type !== 'pvm.AddPermissionlessDelegator') return undefined;
  const { ins, outs } = syntacticP(world, decoded);
  const staking = world.config.staking;
  const validator = tx.subnetValidator.validator;
  const subnetID: string = tx.subnetValidator.subnetId.toString();
  // getValidatorRules: any other subnet's rules come from its TransformSubnetTx, which none has since Etna.
  if (subnetID !== world.chainIDs.P) throw new Refusal(TEXTS.notFound);
  const nodeID = `NodeID-${cb58Encode(validator.nodeId.toBytes())}`;
  const start = world.time.get();
  const end: bigint = validator.endTime.value();
  const weight: bigint = validator.weight.value();
  const duration = end - start;
  const stakeOuts = [...tx.stake];
  // add_permissionless_*_tx.go SyntacticVerify: each stake output verified, then the stake outputs sorted.
  for (const out of stakeOuts) wrapped('failed to verify output', () => verifyTransferableOutput(out));
  checkOutputsSorted(stakeOuts, avalanche().utils.getManagerForVM('PVM').getDefaultCodec());
  const stakedAsset: string = stakeOuts[0]?.getAssetId() ?? '';
  const isValidator = tx._type === 'pvm.AddPermissionlessValidator';
  if (isValidator) verifySigner(tx.signer);
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
  const existing = currentValidator(world, subnetID, nodeID);
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
    flowP(world, ins, [...outs, ...stakeOuts], dynamicFee(world, tx));
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

/**
 * AddPermissionlessValidatorTx.SyntacticVerify's signer: its proof of possession verifies, and a Primary Network
 * validator (the only kind the mock's permissionless staking takes) has a key.
 */
function verifySigner(signer: Transaction): void {
  const proof = signer?.proof;
  if (proof) {
    try {
      verifyProofOfPossession(proof.publicKey, proof.signature);
    } catch (error) {
      throw error instanceof Refusal ? new Refusal(`${TEXTS.signerOrOwners}: ${error.message}`) : error;
    }
  } else throw new Refusal(`${TEXTS.invalidSigner}: hasKey=false != isPrimaryNetwork=true`);
}

/**
 * Moves the chain time to `time`, ending every staking period that ends by then, earliest first (delegators before
 * their validator at the same time): the stake comes back as UTXOs, the reward is paid to the reward owner (a
 * delegator's reward less its validator's fee, which is paid with the validator's), and getRewardUTXOs lists them.
 */
export function advanceTime(world: World, time: bigint): void {
  advanceL1(world, time);
  const ending = [...world.stakers.values()]
    .filter((s) => s.endTime <= time && !world.rewardUtxos.has(s.txID))
    .sort((a, b) =>
      a.endTime === b.endTime
        ? (a.validatorTxID ? -1 : 0) - (b.validatorTxID ? -1 : 0)
        : a.endTime < b.endTime
          ? -1
          : 1,
    );
  for (const staker of ending) {
    // The stake comes back as staked (rewardValidatorTx: `Out: out.Output()`): a stakeable lock stays, passed or not.
    for (const utxo of staker.stake) world.utxos.P.set(utxo.key, utxo);
    const index = Math.max(-1, ...staker.stake.map((u) => u.outputIndex)) + 1;
    const rewards: Utxo[] = [];
    let own = staker.potentialReward;
    // A delegator's fee accrues to its validator (paid when the validator ends, in this call or a later one).
    if (staker.validatorTxID) own -= delegateeShare(own, world.stakers.get(staker.validatorTxID)?.delegationFee ?? 0);
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
  if (time > world.time.get()) world.time.set(time);
}
