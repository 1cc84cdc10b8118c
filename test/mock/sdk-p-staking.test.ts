/**
 * A staking app over HTTP with avalanchejs 5.2.0 only: it reads the fee state and the minimum stake from the node,
 * builds an AddPermissionlessValidatorTx with a BLS signer of its own (avalanchejs' bls signs the proof of possession)
 * and an AddPermissionlessDelegatorTx to it, issues both, and reads them back through PVMApi.
 */
import { type UnsignedTx, addTxSignatures, bls, pvm, utils } from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { describe, expect, it } from 'vitest';
import { EWOQ, ewoq, localPChain, sdkContext } from './sdk-world.ts';

const local = localPChain();

const DAY = 86_400n;
const validatorOwner = new Uint8Array(20).fill(7);
const delegatorOwner = new Uint8Array(20).fill(8);
const nodeID = `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(0x42))}`;
const secretKeyBytes = new Uint8Array(32).fill(9);
const publicKey = bls12_381.getPublicKey(secretKeyBytes);
const proof = bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secretKeyBytes));
const hex0x = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

async function issue(unsigned: UnsignedTx): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  const { txID } = await local.api.issueSignedTx(unsigned.getSignedTx());
  return txID;
}

/** What every builder takes from the node: ewoq's P UTXOs and the fee state as PVMApi.getFeeState reads it. */
async function fromEwoq() {
  const context = sdkContext(local.node.world);
  const { utxos } = await local.api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, utxos, feeState: await local.api.getFeeState(), fromAddressesBytes: [ewoq] };
}

describe('Primary Network staking with avalanchejs over HTTP', () => {
  it('adds a validator with a BLS signer and a delegator to it; the reads show both', async () => {
    const { minValidatorStake, minDelegatorStake } = await local.api.getMinStake();
    const now = BigInt(Date.parse((await local.api.getTimestamp()).timestamp) / 1000);
    const end = now + 30n * DAY;

    const v = await fromEwoq();
    const validatorTxID = await issue(
      pvm.newAddPermissionlessValidatorTx(
        {
          ...v,
          nodeId: nodeID,
          subnetId: v.context.pBlockchainID,
          start: now,
          end,
          weight: BigInt(minValidatorStake),
          rewardAddresses: [validatorOwner],
          delegatorRewardsOwner: [validatorOwner],
          shares: 30_000,
          publicKey,
          signature: proof,
        },
        v.context,
      ),
    );
    expect((await local.api.getTxStatus({ txID: validatorTxID })).status).toBe('Committed');

    const d = await fromEwoq();
    const delegatorTxID = await issue(
      pvm.newAddPermissionlessDelegatorTx(
        {
          ...d,
          nodeId: nodeID,
          subnetId: d.context.pBlockchainID,
          start: now,
          end: end - DAY,
          weight: BigInt(minDelegatorStake),
          rewardAddresses: [delegatorOwner],
        },
        d.context,
      ),
    );
    expect((await local.api.getTxStatus({ txID: delegatorTxID })).status).toBe('Committed');

    const { validators } = await local.api.getCurrentValidators({ nodeIDs: [nodeID] });
    expect(validators).toHaveLength(1);
    const validator = validators[0] as unknown as Record<string, unknown>;
    expect(validator).toMatchObject({
      txID: validatorTxID,
      nodeID,
      endTime: String(end),
      weight: String(minValidatorStake),
      delegationFee: '3.0000',
      signer: { publicKey: hex0x(publicKey), proofOfPossession: hex0x(proof) },
      validationRewardOwner: {
        locktime: '0',
        threshold: '1',
        addresses: [`P-${utils.formatBech32(v.context.hrp, validatorOwner)}`],
      },
      delegatorCount: '1',
      delegatorWeight: String(minDelegatorStake),
    });
    const delegators = validator.delegators as Record<string, unknown>[];
    expect(delegators).toHaveLength(1);
    expect(delegators[0]).toMatchObject({
      txID: delegatorTxID,
      nodeID,
      endTime: String(end - DAY),
      weight: String(minDelegatorStake),
      rewardOwner: { addresses: [`P-${utils.formatBech32(d.context.hrp, delegatorOwner)}`] },
    });
    expect(BigInt(String(delegators[0]!.potentialReward))).toBeGreaterThan(0n);

    // getStake of ewoq: both stakes, as staked outputs.
    const stake = await local.api.getStake({ addresses: [`P-${utils.formatBech32(v.context.hrp, ewoq)}`] });
    expect(BigInt(String(stake.staked))).toBe(BigInt(minValidatorStake) + BigInt(minDelegatorStake));
    expect(stake.stakedOutputs).toHaveLength(2);

    // getValidatorsAt answers the bare map (GetValidatorsAtReply.MarshalJSON): the stake of the validator and its
    // delegator together, under its BLS key.
    const { height } = await local.api.getHeight();
    const at = (await local.api.getValidatorsAt({
      height: String(height),
      subnetID: v.context.pBlockchainID,
    } as never)) as never as Record<string, { publicKey: string; weight: string }>;
    expect(at[nodeID]).toEqual({
      publicKey: hex0x(publicKey),
      weight: String(BigInt(minValidatorStake) + BigInt(minDelegatorStake)),
    });
  });
});
