/**
 * platform.getStake through avalanchejs 5.2.0's PVMApi (which decodes the staked outputs): the outputs of the
 * current stakers whose stake the addresses own, in the node's current staker iterator order (service.go GetStake:
 * state.Staker.Less, end time first, a delegator before a validator ending at the same time), `validatorsOnly`
 * leaving delegators out, and nothing once the periods end.
 */
import { type UnsignedTx, addTxSignatures, bls, pvm, utils } from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { describe, expect, it } from 'vitest';
import { EWOQ, ewoq, localPChain, sdkContext } from './sdk-world.ts';

const local = localPChain();

const DAY = 86_400n;
const nodeId = `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(0x71))}`;

async function props() {
  const context = sdkContext(local.node.world);
  const { utxos } = await local.api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, props: { utxos, feeState: await local.api.getFeeState(), fromAddressesBytes: [ewoq] } };
}

async function issue(unsigned: UnsignedTx): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return (await local.api.issueSignedTx(unsigned.getSignedTx())).txID;
}

const amounts = (outputs: { amount(): bigint }[]) => outputs.map((o) => o.amount());

describe('getStake with avalanchejs', () => {
  it('lists the staked outputs in the staker iterator order; validatorsOnly keeps the validator', async () => {
    const ewoqP = `P-${utils.formatBech32(sdkContext(local.node.world).hrp, ewoq)}`;
    const now = BigInt(Date.parse((await local.api.getTimestamp()).timestamp) / 1000);
    const { minValidatorStake, minDelegatorStake } = await local.api.getMinStake();
    const validatorStake = BigInt(minValidatorStake);
    const delegatorStake = BigInt(minDelegatorStake) * 3n;
    const secret = new Uint8Array(32).fill(0x71);
    const publicKey = bls12_381.getPublicKey(secret);
    let { context, props: p } = await props();
    await issue(
      pvm.newAddPermissionlessValidatorTx(
        {
          ...p,
          nodeId,
          subnetId: context.pBlockchainID,
          start: now,
          end: now + 30n * DAY,
          weight: validatorStake,
          rewardAddresses: [ewoq],
          delegatorRewardsOwner: [ewoq],
          shares: 20_000,
          publicKey,
          signature: bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret)),
        },
        context,
      ),
    );
    ({ context, props: p } = await props());
    await issue(
      pvm.newAddPermissionlessDelegatorTx(
        {
          ...p,
          nodeId,
          subnetId: context.pBlockchainID,
          start: now,
          end: now + 10n * DAY,
          weight: delegatorStake,
          rewardAddresses: [ewoq],
        },
        context,
      ),
    );

    const all = await local.api.getStake({ addresses: [ewoqP] });
    expect(all.staked).toBe(validatorStake + delegatorStake);
    // The delegator ends first, so the node's iterator yields it first, though it was added second.
    expect(amounts(all.stakedOutputs.map((o) => o.output as never))).toEqual([delegatorStake, validatorStake]);
    const validators = await local.api.getStake({ addresses: [ewoqP], validatorsOnly: true } as never);
    expect(validators.staked).toBe(validatorStake);

    await local.node.dev.setTime({ timestamp: Number(now + 30n * DAY) });
    expect((await local.api.getStake({ addresses: [ewoqP] })).stakedOutputs).toEqual([]);
  });
});
