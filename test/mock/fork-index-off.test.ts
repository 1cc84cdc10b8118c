/**
 * A fork of a source that does not index (`/ext/index/...` off, as on most public nodes): no public API of the source
 * serves its proposervm blocks, but its proposervm API (`/ext/bc/P/proposervm`, `/ext/bc/C/proposervm`) says what its
 * next block would carry. The fork's proposervm answers as the source's at the fork point, and its first P, X and C
 * blocks build on the source's tip as far as the source's APIs show it: the parent is the inner tip (the ID its chain's
 * `getBlock` finds), signed as a post-fork child, with the source's epoch (X: no proposervm API, the first epoch).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexerClient, PChainClient, ProposervmClient, XChainClient } from '../../generated/client/dist/index.js';
import { cb58Decode } from '../../generators/formats.ts';
import { hexBytes } from '../../mock/fork/convert.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { ethCall } from '../../mock/package/evm-transfer.ts';
import { proxy } from '../support/rpc.ts';
import { type ProposerBlock, parseProposerBlock } from '../../mock/world/proposer-blocks.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-index-off-'));
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let below: MockNodeHandle<ForkedDevControls>;
let belowHeight: number;

const proposervm = (node: { url: string }, chain: 'P' | 'C') =>
  new ProposervmClient({ baseUrl: node.url, blockchainID: chain });
const epochOf = (answer: { number: unknown; startTime: unknown; pChainHeight: unknown }) => ({
  number: BigInt(String(answer.number)),
  startTime: BigInt(String(answer.startTime)),
  pChainHeight: BigInt(String(answer.pChainHeight)),
});

/** The fork's first block of `chain` after `act`, as its index holds it (the source's index is off: index 0). */
async function firstBlock(
  node: MockNodeHandle<ForkedDevControls>,
  chain: 'P' | 'X' | 'C',
  act: () => Promise<unknown>,
) {
  await act();
  const first = await new IndexerClient({ baseUrl: node.url, chain, index: 'block' }).getContainerByIndex({
    index: '0',
    encoding: 'hex',
  });
  return parseProposerBlock(hexBytes(first.bytes), node.world.chainIDs[chain]) as ProposerBlock;
}

beforeAll(async () => {
  source = await startMockNode({ accounts: 2, seed: 'fork index off' });
  await source.wallet(0).send('P', source.wallet(1).address.P, 1_000_000n);
  belowHeight = source.world.tip('P').height;
  await source.wallet(0).createSubnet();
  await source.wallet(0).send('X', source.wallet(1).address.X, 1_000_000n);
  await source.wallet(0).send('C', source.wallet(1).address.C, 1_000_000_000n);
  // Past the epoch's end: the next P and C blocks seal it, so the source's next blocks start its second epoch.
  await source.dev.increaseTime({ seconds: 3600 });
  await source.wallet(0).send('P', source.wallet(1).address.P, 1_000_000n);
  await source.wallet(0).send('C', source.wallet(1).address.C, 1_000_000_000n);
  [fork, below] = await Promise.all([
    startMockNode({ accounts: 1, seed: 'fork index off 1', indexEnabled: true, fork: { url: source.url, cacheDir } }),
    startMockNode({ accounts: 1, indexEnabled: true, fork: { url: source.url, height: belowHeight, cacheDir } }),
  ]);
});
afterAll(async () => {
  await Promise.all([fork?.close(), below?.close()]);
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork of a source that does not index', () => {
  it('forks a source whose index paths answer 404', async () => {
    const error = await new IndexerClient({ baseUrl: source.url, chain: 'P', index: 'block' })
      .getLastAccepted({ encoding: 'hex' })
      .catch((e: Error) => e.message);
    expect(error).toContain('404');
  });

  it.each(['P', 'C'] as const)(
    'answers the source %s-Chain epoch and proposed height at the fork point',
    async (chain) => {
      const epoch = await proposervm(source, chain).getCurrentEpoch({});
      expect(epoch.number).toBe('2');
      expect(await proposervm(fork, chain).getCurrentEpoch({})).toEqual(epoch);
      expect(await proposervm(fork, chain).getProposedHeight({})).toEqual(
        await proposervm(source, chain).getProposedHeight({}),
      );
    },
  );

  it('builds its first P-Chain block on the source tip block, with the source epoch', async () => {
    const epoch = epochOf(await proposervm(source, 'P').getCurrentEpoch({}));
    const tip = await new PChainClient({ baseUrl: source.url }).getBlockByHeight({
      height: String(source.world.tip('P').height),
      encoding: 'json',
    });
    const block = await firstBlock(fork, 'P', () => fork.wallet(0).createSubnet());
    expect(block.parentID).toBe((tip.block as { id: string }).id);
    expect(block.signed).toBe(true);
    expect(block.epoch).toEqual(epoch);
    // The parent is where a client looks for it: the fork's getBlock answers the source's block.
    expect(
      await new PChainClient({ baseUrl: fork.url }).getBlock({ blockID: block.parentID, encoding: 'json' }),
    ).toEqual(await new PChainClient({ baseUrl: source.url }).getBlock({ blockID: block.parentID, encoding: 'json' }));
  });

  it('builds its first C-Chain block on the fork block, by its hash, with the source epoch', async () => {
    const epoch = epochOf(await proposervm(source, 'C').getCurrentEpoch({}));
    const forkBlock = (await ethCall(fork.url, 'eth_blockNumber', [])) as string;
    const block = await firstBlock(fork, 'C', () => fork.wallet(0).send('C', source.wallet(1).address.C, 1n));
    expect(block.signed).toBe(true);
    expect(block.epoch).toEqual(epoch);
    const hash = `0x${Buffer.from(cb58Decode(block.parentID)!).toString('hex')}`;
    const parent = (await ethCall(fork.url, 'eth_getBlockByHash', [hash, false])) as { number: string; hash: string };
    expect(parent.number).toBe(forkBlock);
    expect(parent.hash).toBe(hash);
  });

  it('builds its first X-Chain block on the source tip block, starting the first epoch (no X proposervm API)', async () => {
    const tip = source.world.tip('X');
    const block = await firstBlock(fork, 'X', () => fork.wallet(0).send('X', source.wallet(1).address.X, 1n));
    expect(block.parentID).toBe(tip.id);
    expect(block.signed).toBe(true);
    expect(block.epoch.number).toBe(1n);
    expect(block.epoch.startTime).toBe(tip.timestamp);
    expect(
      await new XChainClient({ baseUrl: fork.url }).getBlock({ blockID: block.parentID, encoding: 'hex' }),
    ).toEqual(await new XChainClient({ baseUrl: source.url }).getBlock({ blockID: block.parentID, encoding: 'hex' }));
  });

  it('below the source tip, builds on the fork block without the source epoch (its proposervm speaks of its tip)', async () => {
    const atFork = await new PChainClient({ baseUrl: source.url }).getBlockByHeight({
      height: String(belowHeight),
      encoding: 'json',
    });
    const { id, time } = atFork.block as { id: string; time: number };
    const block = await firstBlock(below, 'P', () => below.wallet(0).createSubnet());
    expect(block.parentID).toBe(id);
    expect(block.epoch).toEqual({ number: 1n, startTime: BigInt(time), pChainHeight: BigInt(belowHeight) });
  });

  /** A fork (index on) through a proxy that answers the proposervm API with `answer` (HTTP status and body). */
  const throughProxy = async (answer: (id: unknown) => { status: number; text: string }) => {
    const front = await proxy(source.url, (body) => {
      const { method, id } = JSON.parse(body.toString('utf8')) as { method: string; id: unknown };
      return method.startsWith('proposervm.') ? { contentType: 'application/json', ...answer(id) } : undefined;
    });
    try {
      return await startMockNode({ accounts: 1, indexEnabled: true, fork: { url: front.url, cacheDir: false } }).then(
        async (node) => {
          const block = await firstBlock(node, 'P', () => node.wallet(0).createSubnet());
          await node.close();
          return block;
        },
        (error: Error) => error.message,
      );
    } finally {
      await front.close();
    }
  };

  it('forks a source without the proposervm API (before v1.14.0: 404), the first block then without its epoch', async () => {
    const block = await throughProxy(() => ({ status: 404, text: '404 page not found' }));
    const tip = source.world.tip('P');
    expect(block).toMatchObject({ parentID: tip.id, signed: true });
    expect((block as ProposerBlock).epoch).toEqual({
      number: 1n,
      startTime: tip.timestamp,
      pChainHeight: BigInt(tip.height),
    });
  });

  it('refuses a proposervm answer it cannot read, naming the call', async () => {
    const garbage = (id: unknown) => ({
      status: 200,
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        result: { number: '-1', startTime: '0', pChainHeight: '0', height: 'x' },
      }),
    });
    expect(await throughProxy(garbage)).toBe(
      'the fork source answered proposervm.getCurrentEpoch and getProposedHeight of P that the mock cannot read: "-1" is no uint64',
    );
  });
});
