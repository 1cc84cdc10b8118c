/**
 * An L1 operator's flow over HTTP with avalanchejs 5.2.0's PVMApi only: create a subnet and a chain on it, convert
 * the subnet to an L1 with one validator, top its balance up and disable it with its deactivation owner; after each
 * step the app reads what the node answers (getSubnet, getBlockchains, getBlockchainStatus, validates, validatedBy,
 * getL1Validator as PVMApi parses it, getCurrentValidators of the subnet).
 */
import {
  L1Validator,
  PChainOwner,
  type UnsignedTx,
  addTxSignatures,
  bls,
  pvm,
  pvmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { describe, expect, it } from 'vitest';
import { EWOQ, ewoq, localPChain, sdkContext } from './sdk-world.ts';

const local = localPChain();

const AVAX = 1_000_000_000n;
const MANAGER = new Uint8Array(20).fill(0xaa);
const refundee = new Uint8Array(20).fill(0x55);
const secret = new Uint8Array(32).fill(21);
const publicKey = bls12_381.getPublicKey(secret);
const pop = bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret));
const nodeID = `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(0x33))}`;
const hex0x = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

async function base() {
  const context = sdkContext(local.node.world);
  const { utxos } = await local.api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, props: { utxos, feeState: await local.api.getFeeState(), fromAddressesBytes: [ewoq] } };
}

/** Signs the inputs with ewoq and, when `auth`, the subnet authorization (the last credential) too; issues it. */
async function issue(unsigned: UnsignedTx, auth = false): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (auth) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
  const { txID } = await local.api.issueSignedTx(unsigned.getSignedTx());
  expect((await local.api.getTxStatus({ txID })).status).toBe('Committed');
  return txID;
}

describe('an L1 over HTTP with avalanchejs', () => {
  it('creates, converts, tops up and disables; each read follows', async () => {
    let { context, props } = await base();
    const subnetID = await issue(pvm.newCreateSubnetTx({ ...props, subnetOwners: [ewoq] }, context));
    expect(await local.api.getSubnet({ subnetID })).toMatchObject({ isPermissioned: true, threshold: '1' });

    ({ context, props } = await base());
    const chainID = await issue(
      pvm.newCreateChainTx(
        {
          ...props,
          chainName: 'sdkchain',
          subnetId: subnetID,
          vmId: local.node.world.chainIDs.X,
          fxIds: [],
          genesisData: {},
          subnetAuth: [0],
        },
        context,
      ),
      true,
    );
    const { blockchains } = await local.api.getBlockchains();
    expect(blockchains).toContainEqual({ id: chainID, name: 'sdkchain', subnetID, vmID: local.node.world.chainIDs.X });
    // The node does not track the subnet: the chain exists on the P-Chain and is not run here.
    expect(await local.api.getBlockchainStatus(chainID)).toEqual({ status: 'Created' });
    expect(await local.api.validatedBy({ blockchainID: chainID })).toEqual({ subnetID });
    expect(await local.api.validates({ subnetID })).toEqual({ blockchainIDs: [chainID] });

    ({ context, props } = await base());
    const validator = L1Validator.fromNative(
      nodeID,
      100n,
      AVAX,
      new pvmSerial.ProofOfPossession(publicKey, pop),
      PChainOwner.fromNative([refundee], 1),
      PChainOwner.fromNative([ewoq], 1),
    );
    await issue(
      pvm.newConvertSubnetToL1Tx(
        { ...props, subnetId: subnetID, chainId: chainID, address: MANAGER, validators: [validator], subnetAuth: [0] },
        context,
      ),
      true,
    );
    const subnet = await local.api.getSubnet({ subnetID });
    expect(subnet).toMatchObject({ isPermissioned: false, managerChainID: chainID, managerAddress: hex0x(MANAGER) });

    const { validators } = (await local.api.getCurrentValidators({ subnetID } as never)) as unknown as {
      validators: { validationID: string; nodeID: string; weight: string; balance: string }[];
    };
    expect(validators).toHaveLength(1);
    const { validationID } = validators[0]!;
    expect(validators[0]).toMatchObject({ nodeID, weight: '100', balance: String(AVAX) });

    const read = await local.api.getL1Validator(validationID);
    expect(read).toMatchObject({ nodeID, subnetID, weight: 100n, publicKey: hex0x(publicKey), minNonce: 0n });
    expect(read.balance).toBeLessThanOrEqual(AVAX);
    expect(read.remainingBalanceOwner.addresses.map((a) => hex0x(a.toBytes()))).toEqual([hex0x(refundee)]);
    expect(read.deactivationOwner.addresses.map((a) => hex0x(a.toBytes()))).toEqual([hex0x(ewoq)]);
    expect(read.height).toBe(BigInt((await local.api.getHeight()).height));

    ({ context, props } = await base());
    await issue(pvm.newIncreaseL1ValidatorBalanceTx({ ...props, validationId: validationID, balance: AVAX }, context));
    const topped = await local.api.getL1Validator(validationID);
    expect(topped.balance).toBe(read.balance + AVAX);

    // Disabling refunds what is left to the remaining balance owner and leaves the validator inactive (balance 0).
    const refundTo = `P-${utils.formatBech32(context.hrp, refundee)}`;
    const before = (await local.api.getBalance({ addresses: [refundTo] })).balance;
    ({ context, props } = await base());
    await issue(pvm.newDisableL1ValidatorTx({ ...props, validationId: validationID, disableAuth: [0] }, context), true);
    const disabled = await local.api.getL1Validator(validationID);
    expect(disabled.balance).toBe(0n);
    expect(disabled.weight).toBe(100n);
    const refunded = (await local.api.getBalance({ addresses: [refundTo] })).balance - before;
    expect(refunded).toBe(topped.balance);
  });
});
