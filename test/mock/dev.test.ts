/**
 * The development controls over HTTP (`/ext/dev`) through the generated DevClient that startMockNode hands out, with
 * a transaction built and signed by avalanchejs 5.2.0 in between; and `devControls: false` leaving them unserved.
 */
import { addTxSignatures, avm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc, rpc as rpcBody, send } from '../support/rpc.ts';

const recipient = new Uint8Array(20).fill(7);
const AVAX = 1_000_000_000n;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const rpc = (path: string, method: string, params: object = {}) => callRpc(node.url + path, method, params);

const balance = async (chain: 'X' | 'P', address: string) =>
  chain === 'X'
    ? BigInt(String((await rpc('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).result!.balance))
    : BigInt(String((await rpc('/ext/bc/P', 'platform.getBalance', { addresses: [address] })).result!.unlocked));

describe('/ext/dev through the generated DevClient', () => {
  it('snapshot, send a tx, revert: the old balances and UTXOs are back, the tx unknown', async () => {
    const w = node.world;
    const context = {
      networkID: w.network.networkID,
      hrp: w.network.hrp,
      xBlockchainID: w.chainIDs.X,
      avaxAssetID: w.network.avaxAssetID,
      baseTxFee: w.config.txFee,
    } as never;
    const from = `X-${utils.formatBech32(w.network.hrp, ewoq)}`;
    const to = `X-${utils.formatBech32(w.network.hrp, recipient)}`;
    const before = await balance('X', from);
    const { snapshotID } = await node.dev.snapshot();

    const api = new avm.AVMApi(node.url);
    const { utxos } = await api.getUTXOs({ addresses: [from] });
    const tx = avm.newBaseTx(context, [ewoq], utxos, [
      TransferableOutput.fromNative(w.network.avaxAssetID, 5n * AVAX, [recipient]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    const { txID } = await api.issueSignedTx(tx.getSignedTx());
    expect((await api.getTxStatus({ txID })).status).toBe('Accepted');
    expect(await balance('X', to)).toBe(5n * AVAX);
    const height = (await rpc('/ext/bc/X', 'avm.getHeight')).result!.height;

    expect(await node.dev.revert({ snapshotID })).toEqual({});
    expect(await balance('X', from)).toBe(before);
    expect(await balance('X', to)).toBe(0n);
    expect((await rpc('/ext/bc/X', 'avm.getHeight')).result!.height).not.toBe(height);
    expect((await api.getTxStatus({ txID })).status).toBe('Unknown');
    // The snapshot stays: the same transaction issues again after the revert, and a second revert undoes it again.
    expect((await api.issueSignedTx(tx.getSignedTx())).txID).toBe(txID);
    await node.dev.revert({ snapshotID });
    expect(await balance('X', to)).toBe(0n);
    await expect(node.dev.revert({ snapshotID: String(Number(snapshotID) + 1) })).rejects.toThrow(
      `unknown snapshot: ${Number(snapshotID) + 1}`,
    );
  });

  it('increaseTime moves the P-Chain time and builds a block at it', async () => {
    const time = async () =>
      Date.parse(String((await rpc('/ext/bc/P', 'platform.getTimestamp')).result!.timestamp)) / 1000;
    const height = async () => Number((await rpc('/ext/bc/P', 'platform.getHeight')).result!.height);
    const [t0, h0] = [await time(), await height()];
    const { timestamp } = await node.dev.increaseTime({ seconds: 3600 });
    expect(Date.parse(timestamp) / 1000).toBe(t0 + 3600);
    expect(await time()).toBe(t0 + 3600);
    expect(await height()).toBe(h0 + 1);
  });

  it('mine builds blocks that the chain serves', async () => {
    const h0 = Number((await rpc('/ext/bc/X', 'avm.getHeight')).result!.height);
    const { blockIDs, height } = await node.dev.mine({ chain: 'X', blocks: 2 });
    expect(blockIDs).toHaveLength(2);
    expect(Number(height)).toBe(h0 + 2);
    const block = await rpc('/ext/bc/X', 'avm.getBlock', { blockID: blockIDs[1], encoding: 'hex' });
    expect(block.error).toBeUndefined();
    const tip = await rpc('/ext/bc/X', 'avm.getBlockByHeight', { height, encoding: 'hex' });
    expect(tip.result!.block).toBe(block.result!.block);
    await expect(node.dev.mine({ chain: 'Q' })).rejects.toThrow("unknown chain 'Q'");
  });

  it('fund pays an address on X and on P, in UTXOs the chain lists', async () => {
    const hrp = node.world.network.hrp;
    const address = utils.formatBech32(hrp, recipient);
    const x0 = await balance('X', `X-${address}`);
    const p0 = await balance('P', `P-${address}`);
    const x = await node.dev.fund({ address: `X-${address}`, amount: '1234' });
    expect(x.balance).toBe(String(x0 + 1234n));
    expect(await balance('X', `X-${address}`)).toBe(x0 + 1234n);
    await node.dev.fund({ address: `P-${address}`, amount: 5000 });
    expect(await balance('P', `P-${address}`)).toBe(p0 + 5000n);
    const { utxos } = (await rpc('/ext/bc/X', 'avm.getUTXOs', { addresses: [`X-${address}`], encoding: 'hex' }))
      .result as { utxos: string[] };
    expect(utxos.length).toBeGreaterThan(0);
    await expect(node.dev.fund({ address: `X-${utils.formatBech32('fuji', recipient)}`, amount: '1' })).rejects.toThrow(
      'is not on this network',
    );
  });
});

describe('devControls: false', () => {
  it('does not serve /ext/dev', async () => {
    const off = await startMockNode({ port: 0, devControls: false, world: { accounts: 0 } });
    try {
      const response = await send(`${off.url}/ext/dev`, { body: rpcBody('dev.snapshot', {}) });
      expect(response.status).toBe(404);
      expect(off.routes.has('/ext/dev')).toBe(false);
    } finally {
      await off.close();
    }
  });
});
