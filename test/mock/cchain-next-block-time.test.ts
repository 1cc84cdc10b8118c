/**
 * The next block's time where it is before the world's clock: a fresh C-Chain's last block is the network's genesis
 * (local: 2020-12-05), years before the clock (the P-Chain's time), and the first call of many a test is
 * `setNextBlockTimestamp(latest.timestamp + n)` (hardhat-network-helpers' time.increase, viem's testClient). Hardhat
 * and anvil give the next block that time; the mock does too, for that block alone, and leaves the clock, which the
 * P-Chain shares and which never goes back.
 */
import { createTestClient, http } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterEach(() => node?.close());

const call = async (method: string, params: unknown[] = []) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const latest = async () =>
  BigInt(((await call('eth_getBlockByNumber', ['latest', false])).result as { timestamp: string }).timestamp);
const clock = () => node.world.time.get();

describe('a next block time before the clock', () => {
  it('is the next block’s alone (evm_setNextBlockTimestamp, then evm_mine); the clock stays', async () => {
    const genesis = await latest();
    const before = clock();
    expect(genesis + 100n).toBeLessThan(before);
    expect(await call('evm_setNextBlockTimestamp', [Number(genesis + 100n)])).toMatchObject({
      result: String(genesis + 100n),
    });
    expect(await call('evm_mine')).toMatchObject({ result: '0' });
    expect(await latest()).toBe(genesis + 100n);
    expect(clock()).toBe(before);
    // The block after it is at the clock's time again.
    await call('evm_mine');
    expect(await latest()).toBe(before);
  });

  it("is taken by viem's test client in both modes, and by evm_mine's timestamp", async () => {
    const anvil = createTestClient({ mode: 'anvil', transport: http(`${node.url}/ext/bc/C/rpc`) });
    const genesis = await latest();
    await anvil.setNextBlockTimestamp({ timestamp: genesis + 5n });
    await anvil.mine({ blocks: 1 });
    expect(await latest()).toBe(genesis + 5n);
    expect(await call('evm_mine', [Number(genesis + 9n)])).toMatchObject({ result: '0' });
    expect(await latest()).toBe(genesis + 9n);
  });

  it('is still refused before the last block, and a later clock move drops it', async () => {
    const genesis = await latest();
    await call('evm_setNextBlockTimestamp', [Number(genesis + 50n)]);
    await call('evm_mine');
    expect((await call('anvil_setNextBlockTimestamp', [Number(genesis + 49n)])).error).toMatchObject({
      code: -32602,
    });
    await call('evm_setNextBlockTimestamp', [Number(genesis + 60n)]);
    // The clock moved after it: the next block is at the clock's new time.
    await call('evm_increaseTime', [10]);
    await call('evm_mine');
    expect(await latest()).toBe(clock());
    expect(clock()).toBeGreaterThan(genesis + 60n);
  });
});
