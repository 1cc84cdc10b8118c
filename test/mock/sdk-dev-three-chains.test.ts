/**
 * The dev controls move the three chains together, read through the SDKs a user would use: a snapshot, then funds on
 * X, P and C, an EVM transfer, a C → P atomic export, a day of chain time and mined blocks; a revert undoes all of it
 * on every chain (balances, heights, nonces, timestamps, the atomic UTXO in shared memory), and the chains go on
 * from there as if it never happened.
 */
import { pvm } from '@avalabs/avalanchejs';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients, exportEwoqToP } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const X_ADDRESS = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const P_ADDRESS = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const OTHER = '0x00000000000000000000000000000000000000bb';

async function state() {
  const { pub, account } = cClients(node.url);
  const p = new pvm.PVMApi(node.url);
  const latest = await pub.getBlock();
  return {
    // avalanchejs types avm.getBalance's params as `addresses`; the node reads `address`.
    x: (await callRpc(`${node.url}/ext/bc/X`, 'avm.getBalance', { address: X_ADDRESS, assetID: 'AVAX' })).result
      .balance,
    p: (await p.getBalance({ addresses: [P_ADDRESS] })).balance,
    pAtomic: (await p.getUTXOs({ addresses: [P_ADDRESS], sourceChain: 'C' })).utxos.length,
    pHeight: (await p.getHeight()).height,
    pTime: (await p.getTimestamp()).timestamp,
    c: await pub.getBalance({ address: account.address }),
    other: await pub.getBalance({ address: OTHER }),
    nonce: await pub.getTransactionCount({ address: account.address }),
    cHeight: latest.number,
    cHash: latest.hash,
  };
}

describe('snapshot and revert across X, P and C', () => {
  it('undoes funds, transfers, an atomic export, time and blocks on all three chains together', async () => {
    const before = await state();
    const { snapshotID } = await node.dev.snapshot();

    await node.dev.fund({ address: X_ADDRESS, amount: '1000' });
    await node.dev.fund({ address: P_ADDRESS, amount: '2000' });
    const { wallet, pub } = cClients(node.url);
    await node.dev.fund({ address: cClients(node.url).account.address, amount: '3000' });
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: OTHER, value: parseEther('1') }) });
    await exportEwoqToP(node.url);
    await node.dev.increaseTime({ seconds: 86_400, mine: true });
    await node.dev.mine({ chain: 'P', blocks: 2 });

    const changed = await state();
    for (const key of ['x', 'p', 'pAtomic', 'pHeight', 'pTime', 'c', 'other', 'nonce', 'cHeight'] as const)
      expect([key, changed[key]]).not.toEqual([key, before[key]]);

    await node.dev.revert({ snapshotID });
    expect(await state()).toEqual(before);

    // The chains go on from the snapshot: the next C block is built on the snapshot's tip.
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: OTHER, value: 1n }) });
    const next = await pub.getBlock();
    expect(next.number).toBe(before.cHeight + 1n);
    expect(next.parentHash).toBe(before.cHash);
    expect(await pub.getBalance({ address: OTHER })).toBe(before.other + 1n);
  });
});
