/**
 * anvil's and Hardhat's time and snapshot methods at /ext/bc/C/rpc move the X-, P- and C-Chain together, read as a
 * user reads them: after evm_increaseTime the next X-Chain block, the P-Chain's time and the next C-Chain block are all
 * that much later; one evm_revert undoes an X transfer, a P transfer and an X → C import together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';

let node: MockNodeHandle;
beforeAll(async () => {
  node = await startMockNode({ accounts: 2 });
});
afterAll(() => node?.close());

const rpc = async (path: string, method: string, params: unknown) =>
  (await callRpc(node.url + path, method, params)).result;
const xTime = async () => {
  const { height } = await rpc('/ext/bc/X', 'avm.getHeight', {});
  return Number((await rpc('/ext/bc/X', 'avm.getBlockByHeight', { height, encoding: 'json' })).block.time);
};
const pTime = async () => Date.parse((await rpc('/ext/bc/P', 'platform.getTimestamp', {})).timestamp) / 1000;
const cTime = async () => Number((await rpc('/ext/bc/C/rpc', 'eth_getBlockByNumber', ['latest', false])).timestamp);

describe('time and snapshots across X, P and C at /ext/bc/C/rpc', () => {
  it("moves the three chains' clocks together", async () => {
    const [alice, bob] = [node.wallet(0), node.wallet(1)];
    await alice.send('X', bob.address.X, 1_000n);
    const before = await pTime();
    expect(await xTime()).toBe(before);
    expect(await rpc('/ext/bc/C/rpc', 'evm_increaseTime', [7_200])).toMatch(/^\d+$/);
    await alice.send('X', bob.address.X, 1_000n);
    await alice.send('C', bob.address.C, 1_000n);
    expect(await pTime()).toBe(before + 7_200);
    expect(await xTime()).toBe(before + 7_200);
    expect(await cTime()).toBe(before + 7_200);
  });

  it('undoes an X transfer, a P transfer and an X → C import with one evm_revert', async () => {
    const [alice, bob] = [node.wallet(0), node.wallet(1)];
    const balances = async () => ({
      x: await bob.balance('X'),
      p: await bob.balance('P'),
      c: await alice.balance('C'),
      aliceX: await alice.balance('X'),
    });
    const before = await balances();
    const id = await rpc('/ext/bc/C/rpc', 'evm_snapshot', []);
    await alice.send('X', bob.address.X, 5_000n);
    await alice.send('P', bob.address.P, 6_000n);
    await alice.exportTo('X', 'C', 10_000_000n);
    await alice.importFrom('X', 'C');
    const changed = await balances();
    expect(changed.x).toBe(before.x + 5_000n);
    expect(changed.p).toBe(before.p + 6_000n);
    expect(changed.c).toBeGreaterThan(before.c);
    expect(await rpc('/ext/bc/C/rpc', 'evm_revert', [id])).toBe(true);
    expect(await balances()).toEqual(before);
  });
});
