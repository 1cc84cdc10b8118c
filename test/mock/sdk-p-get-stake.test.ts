/**
 * platform.getStake through avalanchejs 5.2.0's PVMApi (which decodes the staked outputs): the outputs of the
 * current stakers whose stake the addresses own, in the node's current staker iterator order (service.go GetStake:
 * state.Staker.Less, end time first, a delegator before a validator ending at the same time), `validatorsOnly`
 * leaving delegators out, and nothing once the periods end.
 */
import { type UnsignedTx, addTxSignatures, bls, pvm, utils } from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

let node: RunningMockNode;
let api: pvm.PVMApi;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  api = new pvm.PVMApi(node.url);
});
afterAll(() => node?.close());

const DAY = 86_400n;
const nodeId = `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(0x71))}`;

async function props() {
  const context = sdkContext(node.world);
  const { utxos } = await api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, props: { utxos, feeState: await api.getFeeState(), fromAddressesBytes: [ewoq] } };
}

async function issue(unsigned: UnsignedTx): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return (await api.issueSignedTx(unsigned.getSignedTx())).txID;
}

const amounts = (outputs: { amount(): bigint }[]) => outputs.map((o) => o.amount());

describe('getStake with avalanchejs', () => {
  it('lists the staked outputs in the staker iterator order; validatorsOnly keeps the validator', async () => {
    const ewoqP = `P-${utils.formatBech32(sdkContext(node.world).hrp, ewoq)}`;
    const now = BigInt(Date.parse((await api.getTimestamp()).timestamp) / 1000);
    const { minValidatorStake, minDelegatorStake } = await api.getMinStake();
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

    const all = await api.getStake({ addresses: [ewoqP] });
    expect(all.staked).toBe(validatorStake + delegatorStake);
    // The delegator ends first, so the node's iterator yields it first, though it was added second.
    expect(amounts(all.stakedOutputs.map((o) => o.output as never))).toEqual([delegatorStake, validatorStake]);
    const validators = await api.getStake({ addresses: [ewoqP], validatorsOnly: true } as never);
    expect(validators.staked).toBe(validatorStake);

    await node.dev.setTime({ timestamp: Number(now + 30n * DAY) });
    expect((await api.getStake({ addresses: [ewoqP] })).stakedOutputs).toEqual([]);
  });
});
