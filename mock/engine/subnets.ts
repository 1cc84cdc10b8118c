/**
 * Permissioned subnets on the P-Chain (vms/platformvm/txs/executor/staker_tx_verification.go): AddSubnetValidatorTx,
 * RemoveSubnetValidatorTx and TransferSubnetOwnershipTx, each authorized by the subnet's owner (the last credential).
 */
import { cb58Encode } from '../../generators/formats.ts';
import { isCurrent } from '../world/stakers.ts';
import type { Staker } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { type DecodedTx, ownerOf } from './codec.ts';
import { type Effects, noEffects, outputsOf } from './effects.ts';
import { verifyOwners, verifySigIndices } from './syntax.ts';
import { authorize, txFee, spendAll, syntacticP, verifyMemo } from './p.ts';
import { verifyConservation } from './locked.ts';
import { Refusal, TEXTS } from './refusals.ts';

/** The node's GetValidator: a current or pending validator (not a delegator) of the subnet. */
export function findValidator(world: World, subnetID: string, nodeID: string): Staker | undefined {
  const now = world.time.get();
  for (const s of world.stakers.values())
    if (s.subnetID === subnetID && s.nodeID === nodeID && !s.validatorTxID && (isCurrent(s, now) || s.startTime > now))
      return s;
  return undefined;
}

/** Spends the base inputs with the credentials before the authorization's, and checks the flow with the fee. */
function pay(world: World, decoded: DecodedTx, creds: Uint8Array[][], effects: Effects): void {
  const { ins, outs } = syntacticP(world, decoded);
  try {
    effects.consumed = spendAll(world, decoded, ins, creds);
    verifyConservation(world, ins, outs, txFee(world, decoded));
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`${TEXTS.flowCheckFailed}: ${error.message}`) : error;
  }
  effects.produced = outputsOf('P', decoded, outs);
}

export function verifySubnetTx(world: World, decoded: DecodedTx): Effects | undefined {
  const tx = decoded.tx;
  const effects = noEffects();
  switch (tx._type) {
    case 'pvm.AddSubnetValidator': {
      const validator = tx.subnetValidator.validator;
      const subnetID: string = tx.subnetValidator.subnetId.toString();
      // AddSubnetValidatorTx.SyntacticVerify: verify.All(&tx.SubnetValidator, tx.SubnetAuth), unwrapped.
      if (subnetID === world.chainIDs.P) throw new Refusal(TEXTS.addPrimaryWithSubnetTx);
      syntacticP(world, decoded, false);
      if (validator.weight.value() === 0n) throw new Refusal(TEXTS.weightTooSmall);
      verifySigIndices(tx.subnetAuth);
      verifyMemo(decoded);
      const nodeID = `NodeID-${cb58Encode(validator.nodeId.toBytes())}`;
      const start = world.time.get();
      const end: bigint = validator.endTime.value();
      const staking = world.config.staking;
      if (end - start < staking.minStakeDuration) throw new Refusal(TEXTS.stakeTooShort);
      if (end - start > staking.maxStakeDuration) throw new Refusal(TEXTS.stakeTooLong);
      if (findValidator(world, subnetID, nodeID))
        throw new Refusal(`attempted to issue duplicate validator for ${nodeID} on subnet ${subnetID}`);
      const primary = findValidator(world, world.chainIDs.P, nodeID);
      if (!primary) throw new Refusal(`${nodeID} ${TEXTS.notValidator} of the primary network`);
      if (start < primary.startTime || end > primary.endTime) throw new Refusal(TEXTS.periodMismatch);
      pay(world, decoded, authorize(world, decoded, subnetID, tx.subnetAuth), effects);
      const staker: Staker = {
        txID: decoded.id,
        subnetID,
        nodeID,
        startTime: start,
        endTime: end,
        weight: validator.weight.value(),
        stake: [],
        potentialReward: 0n,
      };
      effects.apply = (w) => w.stakers.set(staker.txID, staker);
      return effects;
    }
    case 'pvm.RemoveSubnetValidator': {
      const subnetID: string = tx.subnetId.toString();
      if (subnetID === world.chainIDs.P) throw new Refusal(TEXTS.removePrimaryWithSubnetTx);
      syntacticP(world, decoded, false);
      verifySigIndices(tx.subnetAuth);
      verifyMemo(decoded);
      const nodeID = `NodeID-${cb58Encode(tx.nodeId.toBytes())}`;
      const staker = findValidator(world, subnetID, nodeID);
      if (!staker) throw new Refusal(`${nodeID} ${TEXTS.notValidator} of ${subnetID}: ${TEXTS.notFound}`);
      if (staker.stake.length > 0) throw new Refusal(TEXTS.removePermissionless);
      pay(world, decoded, authorize(world, decoded, subnetID, tx.subnetAuth, false), effects);
      effects.apply = (w) => void w.stakers.delete(staker.txID);
      return effects;
    }
    case 'pvm.TransferSubnetOwnershipTx': {
      const subnetID: string = tx.subnetID.toString();
      if (subnetID === world.chainIDs.P) throw new Refusal(TEXTS.transferPermissionless);
      syntacticP(world, decoded, false);
      verifySigIndices(tx.subnetAuth);
      verifyOwners(tx.subnetOwners);
      verifyMemo(decoded);
      pay(world, decoded, authorize(world, decoded, subnetID, tx.subnetAuth, false), effects);
      const owner = ownerOf(tx.subnetOwners)!;
      effects.apply = (w) => w.subnets.set(subnetID, { ...w.subnets.get(subnetID)!, owner });
      return effects;
    }
    default:
      return undefined;
  }
}
