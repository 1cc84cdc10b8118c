/**
 * viem's test client (anvil mode) snapshotting at `/ext/bc/C/rpc` and reverting an atomic C → P export: the dev
 * controls are the world's (mock/README.md, "Dev controls cover the C-Chain"), so the revert undoes the export on C
 * (balance, nonce, block) and in shared memory (the P-Chain's importable UTXO) together, and the export can be made again.
 */
import { pvm } from '@avalabs/avalanchejs';
import { createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients, exportEwoqToP } from './c-clients.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const P_ADDRESS = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

async function state() {
  const { pub, account } = cClients(node.url);
  const p = new pvm.PVMApi(node.url);
  return {
    c: await pub.getBalance({ address: account.address }),
    nonce: await pub.getTransactionCount({ address: account.address }),
    height: await pub.getBlockNumber(),
    atomicOnP: (await p.getUTXOs({ addresses: [P_ADDRESS], sourceChain: 'C' })).utxos.length,
    // The C-Chain's index lists one container per block after genesis: its last index is the height less one.
    lastIndexed: (await callRpc(`${node.url}/ext/index/C/block`, 'index.getLastAccepted', { encoding: 'hex' })).result
      ?.index,
  };
}

describe('anvil-mode snapshot/revert around a C → P export', () => {
  it('undoes the export on C and in shared memory, and the same export goes through again', async () => {
    const { chain } = cClients(node.url);
    const test = createTestClient({ mode: 'anvil', chain, transport: http(`${node.url}/ext/bc/C/rpc`) });
    const before = await state();
    const id = await test.snapshot();
    const tx = await exportEwoqToP(node.url);
    const exported = await state();
    expect(exported.atomicOnP).toBe(before.atomicOnP + 1);
    expect(exported.nonce).toBe(before.nonce + 1);
    expect(before.c - exported.c).toBeGreaterThan(10n ** 18n);
    expect(exported.height).toBe(before.height + 1n);
    expect(exported.lastIndexed).toBe(String(exported.height - 1n));

    await test.revert({ id });
    expect(await state()).toEqual(before);

    const again = await exportEwoqToP(node.url);
    expect(Buffer.from(again.toBytes()).equals(Buffer.from(tx.toBytes()))).toBe(true);
    expect(await state()).toEqual(exported);
  });
});
