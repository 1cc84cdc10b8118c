/**
 * A fork's indexes where the source's do not reach its tip: at a `--fork-height` below the source's tip the index ends
 * at the fork block (the source's later containers are not the fork's), and a source that does not index serves the
 * fork none of its containers: the fork's indexes start with its own blocks, its first block built as on a fresh
 * chain (no node method serves the source's proposervm blocks).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexerClient } from '../../generated/client/dist/index.js';
import { hexBytes } from '../../mock/fork/convert.ts';
import { parseProposerBlock } from '../../mock/fork/indexes.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-index-partial-'));
let indexing: MockNodeHandle;
let plain: MockNodeHandle;
let below: MockNodeHandle<ForkedDevControls>;
let unindexed: MockNodeHandle<ForkedDevControls>;
let forkHeight: number;

const pIndex = (node: { url: string }) => new IndexerClient({ baseUrl: node.url, chain: 'P', index: 'block' });
const refusal = (call: Promise<unknown>) => call.then(String, (error: Error) => error.message);

beforeAll(async () => {
  indexing = await startMockNode({ accounts: 1, seed: 'fork index partial', indexEnabled: true });
  await indexing.wallet(0).createSubnet();
  forkHeight = indexing.world.tip('P').height;
  await indexing.wallet(0).createSubnet();
  plain = await startMockNode({ accounts: 1, seed: 'fork index plain' });
  await plain.wallet(0).createSubnet();
  [below, unindexed] = await Promise.all([
    startMockNode({ accounts: 1, indexEnabled: true, fork: { url: indexing.url, height: forkHeight, cacheDir } }),
    startMockNode({ accounts: 1, indexEnabled: true, fork: { url: plain.url, cacheDir } }),
  ]);
});
afterAll(async () => {
  await Promise.all([below?.close(), unindexed?.close()]);
  await Promise.all([indexing?.close(), plain?.close()]);
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork below the source tip', () => {
  it('ends the source part of its index at the fork block', async () => {
    const atFork = await pIndex(indexing).getContainerByIndex({ index: String(forkHeight - 1), encoding: 'hex' });
    const later = await pIndex(indexing).getLastAccepted({ encoding: 'hex' });
    expect(Number(later.index)).toBe(forkHeight);
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

describe('a fork of a source that does not index', () => {
  it('indexes its own blocks from index 0, the first built as on a fresh chain', async () => {
    expect(await refusal(pIndex(unindexed).getLastAccepted({ encoding: 'hex' }))).toBe(
      'no containers have been accepted',
    );
    await unindexed.wallet(0).createSubnet();
    const first = await pIndex(unindexed).getLastAccepted({ encoding: 'hex' });
    expect(first.index).toBe('0');
    const block = parseProposerBlock(hexBytes(first.bytes), unindexed.world.chainIDs.P)!;
    expect(block.parentID).toBe(unindexed.world.chainIDs.P);
    expect(block.signed).toBe(false);
  });
});
