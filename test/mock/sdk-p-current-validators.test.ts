/**
 * platform.getCurrentValidators read through avalanchejs 5.2.0's PVMApi, in the node's order and shapes
 * (service.go getPrimaryOrSubnetValidators): the stakers as the current staker iterator yields them (state.Staker
 * Less: end time, then priority, then tx ID bytes), a validator's delegators likewise, and a permissioned subnet's
 * validators as the bare platformapi.Staker (toPlatformStaker: no reward, fee or delegator fields).
 */
import { type UnsignedTx, addTxSignatures, bls, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { describe, expect, it } from 'vitest';
import { cb58Decode } from '../../generators/formats.ts';
import { EWOQ, ewoq, localPChain, sdkContext } from './sdk-world.ts';

const local = localPChain();

const DAY = 86_400n;
type Listed = { txID: string; endTime: string; nodeID: string; delegators?: Listed[] };

/** state.Staker.Less for stakers of one priority: end time, then the tx ID's bytes. */
function iteratorOrder(stakers: Listed[]): Listed[] {
  const id = (s: Listed) => Buffer.from(cb58Decode(s.txID)!);
  return [...stakers].sort((a, b) => {
    const end = BigInt(a.endTime) - BigInt(b.endTime);
    return end !== 0n ? (end < 0n ? -1 : 1) : Buffer.compare(id(a), id(b));
  });
}

async function props() {
  const context = sdkContext(local.node.world);
  const { utxos } = await local.api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, props: { utxos, feeState: await local.api.getFeeState(), fromAddressesBytes: [ewoq] } };
}

async function issue(unsigned: UnsignedTx, auth = false): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (auth) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
  return (await local.api.issueSignedTx(unsigned.getSignedTx())).txID;
}

const chainTime = async () => BigInt(Date.parse((await local.api.getTimestamp()).timestamp) / 1000);
const validators = async (params: object = {}) =>
  (await local.api.getCurrentValidators(params as never)).validators as unknown as Listed[];

describe('getCurrentValidators with avalanchejs', () => {
  it("lists the Primary Network's validators in the staker iterator's order: end time, then tx ID", async () => {
    const now = await chainTime();
    const { minValidatorStake } = await local.api.getMinStake();
    // Two more validators: one ending before every genesis staker, one after, issued in the other order.
    for (const [seed, end] of [
      [0x61, now + 300n * DAY],
      [0x62, now + 15n * DAY],
    ] as const) {
      const secret = new Uint8Array(32).fill(seed);
      const publicKey = bls12_381.getPublicKey(secret);
      const { context, props: p } = await props();
      await issue(
        pvm.newAddPermissionlessValidatorTx(
          {
            ...p,
            nodeId: `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(seed))}`,
            subnetId: context.pBlockchainID,
            start: now,
            end,
            weight: BigInt(minValidatorStake),
            rewardAddresses: [ewoq],
            delegatorRewardsOwner: [ewoq],
            shares: 20_000,
            publicKey,
            signature: bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret)),
          },
          context,
        ),
      );
    }
    const listed = await validators();
    expect(listed).toHaveLength(7);
    expect(listed.map((v) => v.txID)).toEqual(iteratorOrder(listed).map((v) => v.txID));
  });

  it("lists one validator's delegators by end time, then tx ID", async () => {
    const now = await chainTime();
    const { minDelegatorStake } = await local.api.getMinStake();
    const [target] = iteratorOrder(await validators()).slice(-1);
    for (const days of [20n, 10n, 10n, 5n]) {
      const { context, props: p } = await props();
      await issue(
        pvm.newAddPermissionlessDelegatorTx(
          {
            ...p,
            nodeId: target!.nodeID,
            subnetId: context.pBlockchainID,
            start: now,
            end: now + days * DAY,
            weight: BigInt(minDelegatorStake),
            rewardAddresses: [ewoq],
          },
          context,
        ),
      );
    }
    const [listed] = await validators({ nodeIDs: [target!.nodeID] });
    expect(listed!.delegators).toHaveLength(4);
    expect(listed!.delegators!.map((d) => d.txID)).toEqual(iteratorOrder(listed!.delegators!).map((d) => d.txID));
  });

  it("writes a permissioned subnet's validator as platformapi.Staker: txID, times, weight, node ID", async () => {
    let { context, props: p } = await props();
    const subnetId = await issue(pvm.newCreateSubnetTx({ ...p, subnetOwners: [ewoq] }, context));
    const now = await chainTime();
    const [primary] = await validators();
    ({ context, props: p } = await props());
    const txID = await issue(
      pvm.newAddSubnetValidatorTx(
        { ...p, nodeId: primary!.nodeID, subnetId, start: now, end: now + DAY, weight: 10n, subnetAuth: [0] },
        context,
      ),
      true,
    );
    expect(await validators({ subnetID: subnetId })).toStrictEqual([
      { txID, startTime: String(now), endTime: String(now + DAY), weight: '10', nodeID: primary!.nodeID },
    ]);
  });
});
