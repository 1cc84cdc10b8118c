/**
 * Block times on a Granite C-Chain (v1.14.2, `local`: every upgrade active at genesis). coreth's
 * customheader.VerifyTime (graft/coreth/plugin/evm/customheader/time.go) refuses a block whose TimeMilliseconds is
 * less than its parent's MinDelayExcess.Delay() after its parent's (acp226: the initial excess is ≈2000 ms), so a
 * v1.14.2 node never shows two blocks closer than that, whatever a client does between them.
 */
import { createTestClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../../mock/node.ts';
import { cClients } from '../../mock/c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

/** acp226's Delay (MinDelayMilliseconds × e^(excess / 2^20)), in ms, for the excesses a block can carry. */
const delayOf = (excess: bigint) => Math.floor(Math.exp(Number(excess) / 2 ** 20));

interface GraniteBlock {
  number: string;
  timestamp: string;
  timestampMilliseconds?: string;
  minDelayExcess?: string;
}

async function block(n: bigint): Promise<GraniteBlock> {
  const { pub } = cClients(node.url);
  return (await pub.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })) as never;
}

/** The ms between each block and its parent's, and the parent's minimum delay, from block `from` to the tip. */
async function delays(from: bigint) {
  const { pub } = cClients(node.url);
  const tip = await pub.getBlockNumber();
  const out: { height: bigint; delay: bigint; required: number }[] = [];
  for (let n = from; n <= tip; n++) {
    const [parent, child] = [await block(n - 1n), await block(n)];
    if (parent.minDelayExcess === undefined) continue;
    out.push({
      height: n,
      delay: BigInt(child.timestampMilliseconds ?? '0x0') - BigInt(parent.timestampMilliseconds ?? '0x0'),
      required: delayOf(BigInt(parent.minDelayExcess)),
    });
  }
  return out;
}

describe('Granite C-Chain blocks keep the minimum block delay', () => {
  it('two viem transfers in a row land in blocks at least the parent minimum delay apart', async () => {
    const { pub, wallet } = cClients(node.url);
    const start = await pub.getBlockNumber();
    for (let i = 0; i < 3; i++)
      await pub.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({
          to: '0x00000000000000000000000000000000000000cc',
          value: parseEther('1'),
        }),
      });
    // From the second new block on: each one's parent is a block the mock built (the genesis is another test's).
    const seen = await delays(start + 2n);
    expect(seen.length).toBeGreaterThan(0);
    for (const { height, delay, required } of seen)
      expect({ height, delay, ok: delay >= BigInt(required) }).toMatchObject({ height, ok: true });
  });

  it('a block set with setNextBlockTimestamp carries that time (seconds and milliseconds agree)', async () => {
    const { chain, pub } = cClients(node.url);
    const test = createTestClient({ mode: 'hardhat', chain, transport: http(`${node.url}/ext/bc/C/rpc`) });
    const last = await pub.getBlock();
    const target = last.timestamp + 100n;
    await test.setNextBlockTimestamp({ timestamp: target });
    await test.mine({ blocks: 1 });
    const mined = await block(last.number + 1n);
    expect(BigInt(mined.timestamp)).toBe(target);
    expect(BigInt(mined.timestampMilliseconds ?? '0x0') / 1000n).toBe(target);
  });
});
