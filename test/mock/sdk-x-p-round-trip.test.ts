/**
 * AVAX X → P → X with avalanchejs 5.2.0 over HTTP, each leg's fee checked (X: the flat txFee; P: the calculator's
 * fee at platform.getFeeState's price), and each import issued a second time, as bytes already accepted and as a new
 * tx spending the same shared memory: the node's texts (platformvm/txs/executor/standard_tx_executor.go:343 wraps
 * shared memory's `not found`; avm/txs/executor/semantic_verifier.go:105 returns it as is).
 */
import { addTxSignatures, avm, pvm, TransferableOutput, type UnsignedTx, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { pRefusal } from './refusal.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const x = () => new avm.AVMApi(node.url);
const p = () => new pvm.PVMApi(node.url);
const on = (chain: 'X' | 'P') => `${chain}-${utils.formatBech32(node.world.network.hrp, ewoq)}`;
const issue = (chain: 'X' | 'P', tx: UnsignedTx) =>
  callRpc(`${node.url}/ext/bc/${chain}`, chain === 'X' ? 'avm.issueTx' : 'platform.issueTx', {
    tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
    encoding: 'hex',
  });
const signed = async (tx: UnsignedTx) => {
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
  return tx;
};
const xBalance = async () =>
  BigInt(
    String(
      (await callRpc(`${node.url}/ext/bc/X`, 'avm.getBalance', { address: on('X'), assetID: 'AVAX' })).result!.balance,
    ),
  );
const pBalance = async () => (await p().getBalance({ addresses: [on('P')] })).balance;

describe('X → P → X with avalanchejs', () => {
  it('moves 5 AVAX to P and 2 back, each fee as charged, each import refused a second time', async () => {
    const context = sdkContext(node.world);
    const weights = context.platformFeeConfig.weights;
    const [x0, p0] = [await xBalance(), await pBalance()];

    const { utxos } = await x().getUTXOs({ addresses: [on('X')] });
    const out = (n: bigint) => [TransferableOutput.fromNative(context.avaxAssetID, n * AVAX, [ewoq])];
    const exportX = await signed(avm.newExportTx(context, context.pBlockchainID, [ewoq], utxos, out(5n)));
    expect((await issue('X', exportX)).error).toBeUndefined();
    expect(await xBalance()).toBe(x0 - 5n * AVAX - context.baseTxFee);

    const atomic = (await p().getUTXOs({ addresses: [on('P')], sourceChain: 'X' })).utxos;
    const feeState = await p().getFeeState();
    const importP = (price: bigint) =>
      signed(
        pvm.newImportTx(
          {
            feeState: { ...feeState, price },
            fromAddressesBytes: [ewoq],
            sourceChainId: context.xBlockchainID,
            toAddressesBytes: [ewoq],
            utxos: atomic,
          },
          context,
        ),
      );
    const imported = await importP(feeState.price);
    const importFee = pvm.calculateFee(imported.getTx(), weights, feeState.price);
    const importedID = String((await issue('P', imported)).result?.txID);
    expect(await pBalance()).toBe(p0 + 5n * AVAX - importFee);
    expect((await issue('P', imported)).error?.message).toMatch(
      pRefusal('failed to get shared memory: not found', importedID),
    );
    const again = await importP(feeState.price * 2n);
    expect((await issue('P', again)).error?.message).toMatch(pRefusal('failed to get shared memory: not found'));

    const pUtxos = (await p().getUTXOs({ addresses: [on('P')] })).utxos;
    const exportFeeState = await p().getFeeState();
    const exportP = await signed(
      pvm.newExportTx(
        {
          feeState: exportFeeState,
          fromAddressesBytes: [ewoq],
          destinationChainId: context.xBlockchainID,
          outputs: out(2n),
          utxos: pUtxos,
        },
        context,
      ),
    );
    const exportFee = pvm.calculateFee(exportP.getTx(), weights, exportFeeState.price);
    expect((await issue('P', exportP)).error).toBeUndefined();
    expect(await pBalance()).toBe(p0 + 3n * AVAX - importFee - exportFee);

    const back = (await x().getUTXOs({ addresses: [on('X')], sourceChain: 'P' })).utxos;
    const importX = await signed(avm.newImportTx(context, context.pBlockchainID, back, [ewoq], [ewoq]));
    expect((await issue('X', importX)).error).toBeUndefined();
    expect(await xBalance()).toBe(x0 - 3n * AVAX - 2n * context.baseTxFee);
    expect((await issue('X', importX)).error?.message).toBe('not found');
    const other = await signed(
      avm.newImportTx(context, context.pBlockchainID, back, [ewoq], [ewoq], { memo: new Uint8Array([1]) }),
    );
    expect((await issue('X', other)).error?.message).toBe('not found');
  });
});
