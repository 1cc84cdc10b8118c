/**
 * A fork's indexes where the source's do not reach its tip: at a `--fork-height` below the source's tip the index ends
 * at the fork block (the source's later containers are not the fork's); at an option block the fork's first block
 * builds on the option. A source that does not index: fork-index-off.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexerClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { hexBytes } from '../../mock/fork/convert.ts';
import { parseProposerBlock } from '../../mock/world/proposer-blocks.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-index-partial-'));
let indexing: MockNodeHandle;
let below: MockNodeHandle<ForkedDevControls>;
let forkHeight: number;
let optionHeight: number;
let onOption: MockNodeHandle<ForkedDevControls>;

const pIndex = (node: { url: string }) => new IndexerClient({ baseUrl: node.url, chain: 'P', index: 'block' });
const refusal = (call: Promise<unknown>) => call.then(String, (error: Error) => error.message);

beforeAll(async () => {
  indexing = await startMockNode({ accounts: 1, seed: 'fork index partial', indexEnabled: true });
  await indexing.wallet(0).createSubnet();
  forkHeight = indexing.world.tip('P').height;
  await indexing.wallet(0).createSubnet();
  // A staker's end: a proposal block, its commit (an option block), then the block at the new time.
  const end = indexing.world.time.get() + 3n * 24n * 3600n;
  const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(41))}`;
  await indexing.dev.addStaker({
    nodeID,
    weight: '2000000000000',
    endTime: String(end),
    rewardAddresses: [indexing.wallet(0).address.P],
  });
  await indexing.dev.setTime({ timestamp: String(end + 100n) });
  optionHeight = indexing.world.tip('P').height - 1;
  [below, onOption] = await Promise.all([
    startMockNode({ accounts: 1, indexEnabled: true, fork: { url: indexing.url, height: forkHeight, cacheDir } }),
    startMockNode({ accounts: 1, indexEnabled: true, fork: { url: indexing.url, height: optionHeight, cacheDir } }),
  ]);
});
afterAll(async () => {
  await Promise.all([below?.close(), onOption?.close()]);
  await indexing?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork below the source tip', () => {
  it('ends the source part of its index at the fork block', async () => {
    const atFork = await pIndex(indexing).getContainerByIndex({ index: String(forkHeight - 1), encoding: 'hex' });
    const later = await pIndex(indexing).getContainerByIndex({ index: String(forkHeight), encoding: 'hex' });
    expect(await pIndex(below).getLastAccepted({ encoding: 'hex' })).toEqual(atFork);
    expect(await refusal(pIndex(below).getContainerByIndex({ index: later.index, encoding: 'hex' }))).toBe(
      `no container at index ${later.index}`,
    );
    expect(await refusal(pIndex(below).getIndex({ id: later.id }))).toBe('not found');
    expect(await pIndex(below).isAccepted({ id: later.id })).toEqual({ isAccepted: false });
    await below.wallet(0).createSubnet();
    const mine = await pIndex(below).getLastAccepted({ encoding: 'hex' });
    expect(mine.index).toBe(later.index);
    expect(parseProposerBlock(hexBytes(mine.bytes), below.world.chainIDs.P)!.parentID).toBe(atFork.id);
  });
});

describe('a fork at an option block', () => {
  it('builds its first block on the option, with the time, P-Chain height and epoch of its proposal', async () => {
    const [proposal, option] = await Promise.all(
      [optionHeight - 2, optionHeight - 1].map((i) =>
        pIndex(indexing).getContainerByIndex({ index: String(i), encoding: 'hex' }),
      ),
    );
    expect(Buffer.from(hexBytes(option!.bytes)).readUInt32BE(2)).toBe(1);
    expect(await pIndex(onOption).getLastAccepted({ encoding: 'hex' })).toEqual(option);
    const parent = parseProposerBlock(hexBytes(proposal!.bytes), onOption.world.chainIDs.P)!;
    await onOption.wallet(0).createSubnet();
    const mine = await pIndex(onOption).getLastAccepted({ encoding: 'hex' });
    expect(mine.index).toBe(String(optionHeight));
    const block = parseProposerBlock(hexBytes(mine.bytes), onOption.world.chainIDs.P)!;
    expect(block.parentID).toBe(option!.id);
    expect(block.pChainHeight >= parent.pChainHeight).toBe(true);
    expect(block.timestamp >= parent.timestamp).toBe(true);
    expect(block.signed).toBe(true);
  });
});
