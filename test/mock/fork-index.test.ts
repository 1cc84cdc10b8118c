/**
 * A fork's indexes and proposervm: the source's P- and X-Chain block indexes (and the X-Chain's transactions) up to
 * the fork point, read at the source, then the fork's own blocks at the next index, its first block built on the
 * source's last accepted proposervm block as the source's next block would be (signed on `local`, with the epoch that
 * block carries); the proposervm's epoch and proposed height at the fork point are the source's. A subnet ID that names
 * a source transaction (not a subnet) is refused as the source refuses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexerClient, PChainClient, ProposervmClient } from '../../generated/client/dist/index.js';
import { parseProposerBlock } from '../../mock/world/proposer-blocks.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { hexBytes } from '../../mock/fork/convert.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-index-'));
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let plainTx: string;

const index = (node: { url: string }, chain: string, kind = 'block') =>
  new IndexerClient({ baseUrl: node.url, chain, index: kind });

beforeAll(async () => {
  source = await startMockNode({ accounts: 2, seed: 'fork index source', indexEnabled: true });
  plainTx = await source.wallet(0).send('P', source.wallet(1).address.P, 1_000_000n);
  await source.wallet(0).send('X', source.wallet(1).address.X, 1_000_000n);
  await source.wallet(0).createSubnet();
  await source.wallet(0).send('C', source.wallet(1).address.C, 1_000_000_000n);
  fork = await startMockNode({
    accounts: 1,
    seed: 'fork index',
    indexEnabled: true,
    fork: { url: source.url, cacheDir },
  });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork of an indexing source', () => {
  it('serves the source containers up to the fork point', async () => {
    for (const [chain, kind] of [
      ['P', 'block'],
      ['X', 'block'],
      ['X', 'tx'],
      ['C', 'block'],
    ] as const) {
      const [mine, theirs] = [fork, source].map((n) => index(n, chain, kind));
      const last = await theirs!.getLastAccepted({ encoding: 'hex' });
      expect(await mine!.getLastAccepted({ encoding: 'hex' })).toEqual(last);
      expect(await mine!.getContainerByIndex({ index: '0', encoding: 'hex' })).toEqual(
        await theirs!.getContainerByIndex({ index: '0', encoding: 'hex' }),
      );
      expect(await mine!.getContainerRange({ startIndex: '0', numToFetch: '100', encoding: 'hex' })).toEqual(
        await theirs!.getContainerRange({ startIndex: '0', numToFetch: '100', encoding: 'hex' }),
      );
      expect(await mine!.getIndex({ id: last.id })).toEqual({ index: last.index });
      expect(await mine!.isAccepted({ id: last.id })).toEqual({ isAccepted: true });
    }
  });

  it.each(['P', 'C'] as const)(
    'answers the source %s-Chain epoch and proposed height at the fork point',
    async (chain) => {
      const [mine, theirs] = [fork, source].map((n) => new ProposervmClient({ baseUrl: n.url, blockchainID: chain }));
      const epoch = await theirs!.getCurrentEpoch({});
      expect(epoch.number).not.toBe('0');
      expect(await mine!.getCurrentEpoch({})).toEqual(epoch);
      expect(await mine!.getProposedHeight({})).toEqual(await theirs!.getProposedHeight({}));
    },
  );

  it.each(['P', 'C'] as const)(
    'continues the %s-Chain index with its own blocks, the first on the source tip',
    async (chain) => {
      const p = index(fork, chain);
      const before = await p.getLastAccepted({ encoding: 'hex' });
      const epoch = await new ProposervmClient({ baseUrl: fork.url, blockchainID: chain }).getCurrentEpoch({});
      if (chain === 'P') await fork.wallet(0).createSubnet();
      else await fork.wallet(0).send('C', source.wallet(1).address.C, 1_000_000_000n);
      const after = await p.getLastAccepted({ encoding: 'hex' });
      expect(after.index).toBe(String(Number(before.index) + 1));
      const block = parseProposerBlock(hexBytes(after.bytes), fork.world.chainIDs[chain])!;
      expect(block.id).toBe(after.id);
      expect(block.parentID).toBe(before.id);
      expect(block.signed).toBe(true);
      expect(block.epoch).toEqual({
        number: BigInt(epoch.number),
        startTime: BigInt(epoch.startTime),
        pChainHeight: BigInt(epoch.pChainHeight),
      });
      expect(await p.getContainerByIndex({ index: before.index, encoding: 'hex' })).toEqual(before);
      expect(await p.getIndex({ id: after.id })).toEqual({ index: after.index });
    },
  );

  it('continues the X-Chain block and tx indexes, the first block on the source tip', async () => {
    const [blocks, txs] = [index(fork, 'X'), index(fork, 'X', 'tx')];
    const [before, beforeTx] = await Promise.all([blocks, txs].map((i) => i.getLastAccepted({ encoding: 'hex' })));
    const txID = await fork.wallet(0).send('X', source.wallet(1).address.X, 1_000_000n);
    const after = await blocks.getLastAccepted({ encoding: 'hex' });
    expect(after.index).toBe(String(Number(before!.index) + 1));
    const block = parseProposerBlock(hexBytes(after.bytes), fork.world.chainIDs.X)!;
    expect(block.parentID).toBe(before!.id);
    expect(block.signed).toBe(true);
    expect(await txs.getLastAccepted({ encoding: 'hex' })).toMatchObject({
      id: txID,
      index: String(Number(beforeTx!.index) + 1),
    });
  });

  it('refuses a source transaction named as a subnet as the source does', async () => {
    const [mine, theirs] = [fork, source].map((n) => new PChainClient({ baseUrl: n.url }));
    const refusal = await theirs!.getSubnet({ subnetID: plainTx }).catch((error: Error) => error.message);
    expect(refusal).toContain('is not a subnet');
    expect(await mine!.getSubnet({ subnetID: plainTx }).catch((error: Error) => error.message)).toBe(refusal);
  });
});
