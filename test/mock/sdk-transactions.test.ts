/**
 * An app's flow against the mock over HTTP, with avalanchejs 5.2.0's own API clients: read UTXOs, build, sign, issue,
 * see the status, the balances and the block; the node's refusal for a double spend; avalanche.js v3 sends on X.
 */
import { addTxSignatures, avm, pvm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ_PRIVATE_KEY } from '../../mock/world/networks.ts';
import { pDropReason, pRefusal } from './refusal.ts';
import { callRpc } from '../support/rpc.ts';

const recipient = new Uint8Array(20).fill(3);
const AVAX = 1_000_000_000n;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const rpc = (path: string, method: string, params: object) => callRpc(node.url + path, method, params);

const xBalance = async (address: string) =>
  BigInt(String((await rpc('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).result!.balance));

describe('issuing over HTTP with avalanchejs 5.2.0', () => {
  it('X: getUTXOs, newBaseTx, issueTx, Accepted, balances and the block', async () => {
    const context = sdkContext(node.world);
    const api = new avm.AVMApi(node.url);
    const from = `X-${utils.formatBech32(context.hrp, ewoq)}`;
    const to = `X-${utils.formatBech32(context.hrp, recipient)}`;
    const { utxos } = await api.getUTXOs({ addresses: [from] });
    const before = await xBalance(from);
    const tx = avm.newBaseTx(context, [ewoq], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, 2n * AVAX, [recipient]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    const { txID } = await api.issueSignedTx(tx.getSignedTx());
    expect((await api.getTxStatus({ txID })).status).toBe('Accepted');
    expect(await xBalance(to)).toBe(2n * AVAX);
    expect(await xBalance(from)).toBe(before - 2n * AVAX - context.baseTxFee);
    const height = (await rpc('/ext/bc/X', 'avm.getHeight', {})).result!.height;
    const block = (await rpc('/ext/bc/X', 'avm.getBlockByHeight', { height, encoding: 'hex' })).result!;
    expect(String(block.block)).toContain(Buffer.from(tx.getSignedTx().toBytes()).subarray(2).toString('hex'));

    const again = await rpc('/ext/bc/X', 'avm.issueTx', {
      tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
    });
    expect(again.error?.message).toMatch(/^failed to verify transfer: failed to get utxo \w+: not found$/);
    const garbage = await rpc('/ext/bc/X', 'avm.issueTx', { tx: '0x00' });
    expect(garbage.error?.message).toMatch(/^problem decoding transaction: /);
  });

  it('P: getFeeState, newBaseTx, issueTx, Committed; a refused tx reads Dropped with its reason', async () => {
    const context = sdkContext(node.world);
    const api = new pvm.PVMApi(node.url);
    const from = `P-${utils.formatBech32(context.hrp, ewoq)}`;
    const { utxos } = await api.getUTXOs({ addresses: [from] });
    const { capacity, excess } = node.world.feeState.get();
    const feeState = {
      capacity,
      excess,
      price: gasPrice(1n, excess, context.platformFeeConfig.excessConversionConstant),
      timestamp: new Date().toISOString(),
    };
    const tx = pvm.newBaseTx(
      {
        feeState,
        fromAddressesBytes: [ewoq],
        utxos,
        outputs: [TransferableOutput.fromNative(context.avaxAssetID, AVAX, [recipient])],
      },
      context,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    const { txID } = await api.issueSignedTx(tx.getSignedTx());
    expect((await api.getTxStatus({ txID })).status).toBe('Committed');
    const to = `P-${utils.formatBech32(context.hrp, recipient)}`;
    expect(BigInt((await api.getBalance({ addresses: [to] })).balance)).toBe(AVAX);

    // The same inputs again, to another recipient: a new tx, spending what is gone.
    const second = pvm.newBaseTx(
      {
        feeState,
        fromAddressesBytes: [ewoq],
        utxos,
        outputs: [TransferableOutput.fromNative(context.avaxAssetID, AVAX, [ewoq])],
      },
      context,
    );
    await addTxSignatures({ unsignedTx: second, privateKeys: [EWOQ] });
    const refused = await rpc('/ext/bc/P', 'platform.issueTx', {
      tx: utils.bufferToHex(utils.addChecksum(second.getSignedTx().toBytes())),
    });
    expect(refused.error?.message).toMatch(pRefusal(/failed to read consumed UTXO \w+:\d+ due to: not found/));
    const id = utils.base58check.encode((await import('@noble/hashes/sha2.js')).sha256(second.getSignedTx().toBytes()));
    // The mempool keeps VerifyTx's error: the refusal without the words service.go and the gossip mempool add.
    const reason = refused.error!.message.slice("couldn't issue tx: failed verification: ".length);
    expect(reason).toMatch(pDropReason(/failed to read consumed UTXO \w+:\d+ due to: not found/, id));
    expect(await api.getTxStatus({ txID: id })).toEqual({ status: 'Dropped', reason });
  });
});

describe('avalanche.js v3', () => {
  it('sends on the X-Chain: buildBaseTx, sign, issueTx, Accepted, the recipient paid', async () => {
    const { Avalanche, BinTools, BN } = await import('avalanche');
    const { port } = new URL(node.url);
    const avalanche = new Avalanche('127.0.0.1', Number(port), 'http', node.world.network.networkID);
    const xchain = avalanche.XChain();
    const keychain = xchain.keyChain();
    const from = keychain.importKey(EWOQ_PRIVATE_KEY).getAddressString();
    const to = `X-${utils.formatBech32(node.world.network.hrp, new Uint8Array(20).fill(5))}`;
    const { utxos } = await xchain.getUTXOs([from]);
    const assetID = BinTools.getInstance().cb58Encode(await xchain.getAVAXAssetID());
    const unsigned = await xchain.buildBaseTx(utxos, new BN(3_000_000), assetID, [to], [from], [from]);
    const txID = await xchain.issueTx(unsigned.sign(keychain));
    expect(await xchain.getTxStatus(txID)).toBe('Accepted');
    expect(await xBalance(to)).toBe(3_000_000n);
  });
});
