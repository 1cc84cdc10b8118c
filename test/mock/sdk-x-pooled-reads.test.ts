/**
 * An X-Chain tx in the mempool (automine off) read through avalanchejs 5.2.0's AVMApi: the node's reads go to its
 * state (vms/avm/service.go: state.GetTx), which holds only accepted txs, so a pooled tx is Unknown, not found by
 * getTx, and its ID is no asset's ("not found", not "transaction doesn't create an asset") until its block is built.
 */
import { TransferableOutput, addTxSignatures, avm, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

let node: RunningMockNode;
let api: avm.AVMApi;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, mining: { mode: 'manual' } });
  api = new avm.AVMApi(node.url);
});
afterAll(() => node?.close());

describe('a pooled X-Chain tx', () => {
  it('is Unknown, not found, no asset; once mined it is Accepted and still no asset', async () => {
    const context = sdkContext(node.world);
    const { utxos } = await api.getUTXOs({ addresses: [`X-${utils.formatBech32(context.hrp, ewoq)}`] });
    const unsigned = avm.newBaseTx(context, [ewoq], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, 1_000n, [new Uint8Array(20).fill(4)]),
    ]);
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
    const { txID } = await api.issueSignedTx(unsigned.getSignedTx());

    expect(await api.getTxStatus({ txID })).toEqual({ status: 'Unknown' });
    await expect(api.getTx({ txID })).rejects.toThrow(/^not found$/);
    await expect(api.getAssetDescription(txID)).rejects.toThrow(/^not found$/);

    await node.dev.mine({ chain: 'X', blocks: 1 });
    expect(await api.getTxStatus({ txID })).toEqual({ status: 'Accepted' });
    await expect(api.getAssetDescription(txID)).rejects.toThrow(/^transaction doesn't create an asset$/);
  });
});
