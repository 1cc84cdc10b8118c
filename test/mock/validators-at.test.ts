/**
 * `platform.getValidatorsAt` at past heights, from the validator-set history the world keeps per P-Chain block:
 * validators added, delegated to, removed and ended, each old height answering the set it had; sampleValidators
 * and getTotalStake agree with the tip; a revert takes the history back with the chain.
 */
import {
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  pvm,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { advanceTime } from '../../mock/engine/staking.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { EMPTY_ID } from '../../mock/world/networks.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { World } from '../../mock/world/world.ts';
import { proofOfPossession } from '../../mock/engine/bls.ts';

/** A Primary Network validator must register a BLS key with its proof of possession (the node's signer check). */
const blsSigner = (() => {
  const { publicKey, proof } = proofOfPossession(new Uint8Array(32).fill(11));
  return { publicKey, signature: proof };
})();

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const NEW_NODE = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

const fromP = () => {
  const { capacity, excess } = world.feeState.get();
  const price = gasPrice(world.config.fee.minPrice, excess, world.config.fee.excessConversionConstant);
  return {
    feeState: { capacity, excess, price, timestamp: new Date().toISOString() },
    fromAddressesBytes: [ewoq],
    utxos: world.utxosOf('P', hex(ewoq)).map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo)),
  };
};

async function issue(unsigned: UnsignedTx, auth = false): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (auth) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
  return engine.issue('P', unsigned.getSignedTx().toBytes());
}

const at = (height: number, subnetID?: string) =>
  pChainReads(world, TX_TYPES).getValidatorsAt!({ height, ...(subnetID ? { subnetID } : {}) }) as Record<
    string,
    { publicKey: string | null; weight: string }
  >;
const tip = () => world.tip('P').height;

describe('platform.getValidatorsAt at past heights', () => {
  it('answers each height with the validators, weights and keys it had', async () => {
    const ctx = sdkContext(world);
    const staking = world.config.staking;
    const genesis = at(0);
    expect(Object.keys(genesis)).toHaveLength(5);
    expect(Object.values(genesis).every((v) => v.publicKey?.startsWith('0x'))).toBe(true);

    const start = world.time.get();
    const end = start + staking.minStakeDuration * 2n;
    await issue(
      pvm.newAddPermissionlessValidatorTx(
        {
          ...fromP(),
          nodeId: NEW_NODE,
          subnetId: world.chainIDs.P,
          start,
          end,
          weight: staking.minValidatorStake,
          ...blsSigner,
          rewardAddresses: [ewoq],
          delegatorRewardsOwner: [ewoq],
          shares: 20_000,
        },
        ctx,
      ),
    );
    const added = tip();
    expect(at(added)[NEW_NODE]).toEqual({
      publicKey: `0x${Buffer.from(blsSigner.publicKey).toString('hex')}`,
      weight: String(staking.minValidatorStake),
    });
    expect(at(added - 1)).toEqual(genesis);

    await issue(
      pvm.newAddPermissionlessDelegatorTx(
        {
          ...fromP(),
          nodeId: NEW_NODE,
          subnetId: world.chainIDs.P,
          start,
          end,
          weight: staking.minDelegatorStake,
          rewardAddresses: [ewoq],
        },
        ctx,
      ),
    );
    const delegated = tip();
    expect(at(delegated)[NEW_NODE]!.weight).toBe(String(staking.minValidatorStake + staking.minDelegatorStake));
    expect(at(added)[NEW_NODE]!.weight).toBe(String(staking.minValidatorStake));

    const subnetID = await issue(pvm.newCreateSubnetTx({ ...fromP(), subnetOwners: [ewoq] }, ctx));
    const primary = Object.keys(genesis)[0]!;
    await issue(
      pvm.newAddSubnetValidatorTx(
        { ...fromP(), nodeId: primary, subnetId: subnetID, start, end, weight: 10n, subnetAuth: [0] },
        ctx,
      ),
      true,
    );
    const inSubnet = tip();
    await issue(
      pvm.newRemoveSubnetValidatorTx({ ...fromP(), nodeId: primary, subnetId: subnetID, subnetAuth: [0] }, ctx),
      true,
    );
    const removed = tip();
    expect(at(inSubnet, subnetID)).toEqual({ [primary]: { publicKey: genesis[primary]!.publicKey, weight: '10' } });
    expect(at(removed, subnetID)).toEqual({});
    expect(at(inSubnet - 1, subnetID)).toEqual({});

    // The chain time moved past the end: a proposal block and its commit end the delegator, then two the validator
    // (builder.go). A proposal block changes no state, so its height keeps the set before; each commit drops its
    // staker. The tip answers the current state, as getCurrentValidators and getTotalStake do.
    const beforeEnd = at(tip());
    const ending = tip();
    advanceTime(world, end);
    expect(tip()).toBe(ending + 4);
    const reads = pChainReads(world, TX_TYPES);
    const current = (reads.getCurrentValidators!({}) as { validators: Array<{ nodeID: string }> }).validators;
    // getValidatorsAt's keys are sorted (a Go map in JSON); getCurrentValidators follows the staker iterator.
    expect(Object.keys(at(tip()))).toEqual(current.map((v) => v.nodeID).sort());
    expect(at(tip())).toEqual(genesis);
    const total = Object.values(at(tip())).reduce((sum, v) => sum + BigInt(v.weight), 0n);
    expect(reads.getTotalStake!({})).toEqual({ stake: String(total), weight: String(total) });
    expect(at(ending + 1)[NEW_NODE]).toEqual(beforeEnd[NEW_NODE]);
    expect(at(ending + 2)[NEW_NODE]!.weight).toBe(String(staking.minValidatorStake));
    expect(at(ending + 3)[NEW_NODE]!.weight).toBe(String(staking.minValidatorStake));
    expect(at(ending + 4)[NEW_NODE]).toBeUndefined();
    // A later block changes nothing more.
    await issue(
      pvm.newBaseTx({ ...fromP(), outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 1n, [ewoq])] }, ctx),
    );
    expect(at(tip())[NEW_NODE]).toBeUndefined();
    expect(at(tip())).toEqual(genesis);
    expect(at(delegated)[NEW_NODE]!.weight).toBe(String(staking.minValidatorStake + staking.minDelegatorStake));
    expect(at(0)).toEqual(genesis);
  });

  it('agrees with getTotalStake and sampleValidators at the tip, and follows a revert', async () => {
    const ctx = sdkContext(world);
    const staking = world.config.staking;
    const reads = pChainReads(world, TX_TYPES);
    const mark = world.snapshot();
    const before = tip();
    await issue(
      pvm.newAddPermissionlessValidatorTx(
        {
          ...fromP(),
          nodeId: NEW_NODE,
          subnetId: world.chainIDs.P,
          start: world.time.get(),
          end: world.time.get() + staking.minStakeDuration,
          weight: staking.minValidatorStake,
          ...blsSigner,
          rewardAddresses: [ewoq],
          delegatorRewardsOwner: [ewoq],
          shares: 20_000,
        },
        ctx,
      ),
    );
    const set = at(tip());
    const total = Object.values(set).reduce((sum, v) => sum + BigInt(v.weight), 0n);
    expect(reads.getTotalStake!({ subnetID: EMPTY_ID })).toEqual({ stake: String(total), weight: String(total) });
    const sample = (reads.sampleValidators!({ size: 6 }) as { validators: string[] }).validators;
    expect(sample.sort()).toEqual(Object.keys(set).sort());
    world.revert(mark);
    expect(tip()).toBe(before);
    expect(Object.keys(at(tip()))).not.toContain(NEW_NODE);
    expect(world.validatorDiffs.length).toBe(before + 1);
  });
});
