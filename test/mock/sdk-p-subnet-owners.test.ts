/**
 * A subnet's owners over HTTP with avalanchejs 5.2.0: a subnet validator added and removed, the subnet handed to
 * another key (TransferSubnetOwnershipTx), after which the old owner is refused and the new one signs; and the
 * refusals of subnet IDs that name no subnet, as state.go's GetSubnetOwner words them: an ID the P-Chain's state
 * holds as another transaction `"<ID>" is not a subnet`, any other ID (one only dropped or pooled included) `not found`.
 */
import { type UnsignedTx, TransferableOutput, addTxSignatures, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { pRefusal } from './refusal.ts';
import { EWOQ, ewoq, localPChain, sdkContext } from './sdk-world.ts';

const local = localPChain();

const DAY = 86_400n;
const NEW_OWNER_KEY = new Uint8Array(32).fill(7);
const newOwner = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(NEW_OWNER_KEY));
const EVM_ID = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

async function props() {
  const context = sdkContext(local.node.world);
  const { utxos } = await local.api.getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
  return { context, props: { utxos, feeState: await local.api.getFeeState(), fromAddressesBytes: [ewoq] } };
}

/** Signs the inputs with ewoq and, when the tx has a subnet authorization (its last credential), that with `authKey`. */
async function sign(unsigned: UnsignedTx, authKey?: Uint8Array) {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (authKey) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), authKey));
  return unsigned.getSignedTx();
}

async function issue(unsigned: UnsignedTx, authKey?: Uint8Array): Promise<string> {
  const { txID } = await local.api.issueSignedTx(await sign(unsigned, authKey));
  expect((await local.api.getTxStatus({ txID })).status).toBe('Committed');
  return txID;
}

const now = async () => BigInt(Date.parse((await local.api.getTimestamp()).timestamp) / 1000);

describe('subnet owners with avalanchejs over HTTP', () => {
  it('adds and removes a subnet validator, hands the subnet over; the old owner is refused, the new one signs', async () => {
    let { context, props: p } = await props();
    const subnetId = await issue(pvm.newCreateSubnetTx({ ...p, subnetOwners: [ewoq] }, context));
    const [primary] = (await local.api.getCurrentValidators()).validators as { nodeID: string }[];
    const nodeId = primary!.nodeID;
    const start = await now();
    ({ context, props: p } = await props());
    const addID = await issue(
      pvm.newAddSubnetValidatorTx(
        { ...p, nodeId, subnetId, start, end: start + DAY, weight: 10n, subnetAuth: [0] },
        context,
      ),
      EWOQ,
    );
    expect((await local.api.getCurrentValidators({ subnetID: subnetId } as never)).validators).toMatchObject([
      { txID: addID, nodeID: nodeId, weight: '10' },
    ]);
    ({ context, props: p } = await props());
    const again = pvm.newAddSubnetValidatorTx(
      { ...p, nodeId, subnetId, start, end: start + DAY, weight: 10n, subnetAuth: [0] },
      context,
    );
    await expect(local.api.issueSignedTx(await sign(again, EWOQ))).rejects.toThrow(
      pRefusal(`attempted to issue duplicate validator for ${nodeId} on subnet ${subnetId}`),
    );

    ({ context, props: p } = await props());
    await issue(
      pvm.newTransferSubnetOwnershipTx({ ...p, subnetId, subnetAuth: [0], subnetOwners: [newOwner] }, context),
      EWOQ,
    );
    expect(await local.api.getSubnet({ subnetID: subnetId })).toMatchObject({
      controlKeys: [`P-${utils.formatBech32(context.hrp, newOwner)}`],
      threshold: '1',
    });

    ({ context, props: p } = await props());
    const byOld = pvm.newRemoveSubnetValidatorTx({ ...p, nodeId, subnetId, subnetAuth: [0] }, context);
    const oldShort = utils.base58check.encode(ewoq);
    const newShort = utils.base58check.encode(newOwner);
    await expect(local.api.issueSignedTx(await sign(byOld, EWOQ))).rejects.toThrow(
      pRefusal(
        `unauthorized modification: wrong signature: expected signature from ${newShort} but got from ${oldShort}`,
      ),
    );
    await issue(pvm.newRemoveSubnetValidatorTx({ ...p, nodeId, subnetId, subnetAuth: [0] }, context), NEW_OWNER_KEY);
    expect((await local.api.getCurrentValidators({ subnetID: subnetId } as never)).validators).toEqual([]);

    ({ context, props: p } = await props());
    const removeAgain = pvm.newRemoveSubnetValidatorTx({ ...p, nodeId, subnetId, subnetAuth: [0] }, context);
    await expect(local.api.issueSignedTx(await sign(removeAgain, NEW_OWNER_KEY))).rejects.toThrow(
      pRefusal(`${nodeId} isn't a current or pending validator of ${subnetId}: not found`),
    );
  });

  it("refuses a chain on an ID the P-Chain holds as another tx: state.GetSubnetOwner's errIsNotSubnet", async () => {
    const { context, props: p } = await props();
    const chain = (subnetId: string) =>
      pvm.newCreateChainTx(
        { ...p, subnetId, chainName: 'c', vmId: EVM_ID, fxIds: [], genesisData: {}, subnetAuth: [0] },
        context,
      );
    // The X-Chain's ID is its genesis CreateChainTx's, which the P-Chain's state holds.
    await expect(local.api.issueSignedTx(await sign(chain(context.xBlockchainID), EWOQ))).rejects.toThrow(
      pRefusal(`"${context.xBlockchainID}" is not a subnet`),
    );
    const baseID = await issue(
      pvm.newBaseTx({ ...p, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 5n, [newOwner])] }, context),
    );
    const next = await props();
    const onBase = pvm.newCreateChainTx(
      { ...next.props, subnetId: baseID, chainName: 'c', vmId: EVM_ID, fxIds: [], genesisData: {}, subnetAuth: [0] },
      next.context,
    );
    await expect(local.api.issueSignedTx(await sign(onBase, EWOQ))).rejects.toThrow(
      pRefusal(`"${baseID}" is not a subnet`),
    );
    const unknown = utils.base58check.encode(new Uint8Array(32).fill(0x77));
    const onUnknown = pvm.newCreateChainTx(
      { ...next.props, subnetId: unknown, chainName: 'c', vmId: EVM_ID, fxIds: [], genesisData: {}, subnetAuth: [0] },
      next.context,
    );
    await expect(local.api.issueSignedTx(await sign(onUnknown, EWOQ))).rejects.toThrow(pRefusal('not found'));
  });

  it('reads a dropped or a pooled tx as no tx of the state: getSubnet and a chain on it answer "not found"', async () => {
    const txIDOf = (unsigned: UnsignedTx) => utils.base58check.encode(sha256(unsigned.getSignedTx().toBytes()));
    let { context, props: p } = await props();
    // Refused, so Dropped: its input is signed by a key that does not own it.
    const refused = pvm.newBaseTx(
      { ...p, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 6n, [newOwner])] },
      context,
    );
    await addTxSignatures({ unsignedTx: refused, privateKeys: [NEW_OWNER_KEY] });
    await expect(local.api.issueSignedTx(refused.getSignedTx())).rejects.toThrow(/invalid signature|wrong signature/);
    const dropped = txIDOf(refused);
    expect((await local.api.getTxStatus({ txID: dropped })).status).toBe('Dropped');

    await local.node.dev.setAutomine({ enabled: false });
    try {
      ({ context, props: p } = await props());
      const pooledTx = pvm.newBaseTx(
        { ...p, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 7n, [newOwner])] },
        context,
      );
      const { txID: pooled } = await local.api.issueSignedTx(await sign(pooledTx));
      expect((await local.api.getTxStatus({ txID: pooled })).status).toBe('Processing');
      for (const id of [dropped, pooled]) {
        await expect(local.api.getSubnet({ subnetID: id })).rejects.toThrow(/^not found$/);
        await expect(local.api.validatedBy({ blockchainID: id })).rejects.toThrow(
          `problem retrieving blockchain ${JSON.stringify(id)}: not found`,
        );
      }
      ({ context, props: p } = await props());
      const onDropped = pvm.newCreateChainTx(
        { ...p, subnetId: dropped, chainName: 'c', vmId: EVM_ID, fxIds: [], genesisData: {}, subnetAuth: [0] },
        context,
      );
      await expect(local.api.issueSignedTx(await sign(onDropped, EWOQ))).rejects.toThrow(pRefusal('not found'));
    } finally {
      await local.node.dev.setAutomine({ enabled: true });
    }
  });
});
