/**
 * `/ext/bc/C/avax` reads answer from the world without loading the EVM (../../mock/lazy-cchain.ts): what X exported to
 * C is listed, an unknown atomic tx is Unknown; the EVM loads only to accept an import, whose record the reads then
 * find.
 */
import { Context, TransferableOutput, addTxSignatures, avm, evm, secp256k1, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const AVAX = 1_000_000_000n;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const avax = (method: string, params: object) => callRpc(`${node.url}/ext/bc/C/avax`, method, params);

describe('/ext/bc/C/avax before the EVM is loaded', () => {
  it('answers its reads from the world, and loads the EVM only to accept a tx', async () => {
    const ctx = await Context.getContextFromURI(node.url);
    const secret = secp256k1.randomPrivateKey();
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secret));
    const owner = `C-${utils.formatBech32(ctx.hrp, short)}`;
    const x = new avm.AVMApi(node.url);
    const exported = avm.newExportTx(
      ctx,
      ctx.cBlockchainID,
      [ewoq],
      (await x.getUTXOs({ addresses: [`X-${utils.formatBech32(ctx.hrp, ewoq)}`] })).utxos,
      [TransferableOutput.fromNative(ctx.avaxAssetID, 2n * AVAX, [short])],
    );
    await addTxSignatures({ unsignedTx: exported, privateKeys: [EWOQ] });
    const { txID: exportID } = await x.issueSignedTx(exported.getSignedTx());

    const listed = await avax('avax.getUTXOs', { addresses: [owner], sourceChain: 'X' });
    expect(listed.result.numFetched).toBe('1');
    const unknown = await avax('avax.getAtomicTxStatus', { txID: exportID });
    expect(unknown.result).toEqual({ status: 'Unknown' });
    expect((await avax('avax.getAtomicTx', { txID: exportID })).error?.message).toMatch(/^could not find tx /);
    expect(node.state.cChain.loaded).toBeUndefined();

    const c = new evm.EVMApi(node.url);
    const { utxos } = await c.getUTXOs({ addresses: [owner], sourceChain: 'X' });
    const imported = evm.newImportTxFromBaseFee(
      ctx,
      utils.hexToBuffer('0x00000000000000000000000000000000000000c4'),
      [short],
      utxos,
      ctx.xBlockchainID,
      // nAVAX per gas, above any base fee of a fresh chain (the EVM's base fee would load it).
      500n,
    );
    await addTxSignatures({ unsignedTx: imported, privateKeys: [secret] });
    const { txID } = await c.issueSignedTx(imported.getSignedTx());
    expect(node.state.cChain.loaded).toBeDefined();
    expect((await avax('avax.getAtomicTxStatus', { txID })).result).toEqual({ status: 'Accepted', blockHeight: '1' });
    expect((await avax('avax.getUTXOs', { addresses: [owner], sourceChain: 'X' })).result.numFetched).toBe('0');
  });
});
