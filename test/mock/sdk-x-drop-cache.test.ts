/**
 * The X-Chain's mempool remembers why it refused a tx (vms/avm/network gossip.go Add: MarkDropped, then GetDropReason
 * on the next issue of the same tx), as the P-Chain's does: an app built with avalanchejs 5.2.0 that issues an import
 * of a UTXO still time-locked, then issues the very same signed tx again once the lock has passed, is refused again
 * with the first reason, unverified; a new tx (another output owner) for the same UTXO is verified and accepted.
 */
import { Context, TransferableOutput, addTxSignatures, avm, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { EWOQ, ewoq } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
let node: RunningMockNode;
let ctx: Awaited<ReturnType<typeof Context.getContextFromURI>>;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  ctx = await Context.getContextFromURI(node.url);
});
afterAll(() => node?.close());

describe('the X-Chain drop cache', () => {
  it('refuses a refused tx again with its reason; a new tx for the same UTXO passes', async () => {
    const p = new pvm.PVMApi(node.url);
    const x = new avm.AVMApi(node.url);
    const secret = secp256k1.randomPrivateKey();
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secret));
    const now = BigInt(Math.floor(Date.parse((await p.getTimestamp()).timestamp) / 1000));
    const exported = pvm.newExportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [ewoq],
        destinationChainId: ctx.xBlockchainID,
        utxos: (await p.getUTXOs({ addresses: [`P-${utils.formatBech32(ctx.hrp, ewoq)}`] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 3n * AVAX, [short], now + 1000n)],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: exported, privateKeys: [EWOQ] });
    await p.issueSignedTx(exported.getSignedTx());
    const { utxos } = await x.getUTXOs({ addresses: [`X-${utils.formatBech32(ctx.hrp, short)}`], sourceChain: 'P' });
    // minIssuanceTime past the lock: avalanchejs leaves locked UTXOs out of an import otherwise.
    const importTo = async (owner: Uint8Array) => {
      const tx = avm.newImportTx(ctx, ctx.pBlockchainID, utxos, [owner], [short], { minIssuanceTime: now + 2000n });
      await addTxSignatures({ unsignedTx: tx, privateKeys: [secret] });
      return tx.getSignedTx();
    };
    const locked = await importTo(short);
    await expect(x.issueSignedTx(locked)).rejects.toThrow(/^output is time locked$/);

    await node.dev.setTime({ timestamp: Number(now + 1500n) });
    await expect(x.issueSignedTx(locked)).rejects.toThrow(/^output is time locked$/);
    // The X-Chain answers no Dropped status: a refused tx is Unknown.
    const lockedID = utils.base58check.encode(sha256(locked.toBytes()));
    expect(await x.getTxStatus({ txID: lockedID })).toMatchObject({ status: 'Unknown' });

    const other = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey()));
    const { txID } = await x.issueSignedTx(await importTo(other));
    expect(await x.getTxStatus({ txID })).toMatchObject({ status: 'Accepted' });
    const { result } = await callRpc(`${node.url}/ext/bc/X`, 'avm.getBalance', {
      address: `X-${utils.formatBech32(ctx.hrp, other)}`,
      assetID: 'AVAX',
    });
    expect(BigInt(String(result.balance))).toBe(3n * AVAX - ctx.baseTxFee);
  });
});
