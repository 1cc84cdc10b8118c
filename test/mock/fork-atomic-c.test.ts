/**
 * A fork's shared memory with the C-Chain against a second mock as the source: an import on P of what C exported,
 * and an import on C of what X exported, each before any `getUTXOs` named the owner, found through the export that
 * made its inputs (`avax.getAtomicTx` on the source's C, `avm.getTx` on its X); an export from C in a block above the
 * fork's C-Chain block stays out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAvaxClient, PChainClient } from '../../generated/client/dist/index.js';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { forkOf } from '../../mock/fork/lazy.ts';
import { Wallet } from '../../mock/package/wallet.ts';
import { callRpc } from '../support/rpc.ts';
import { ImportsWhatTheSourceHolds } from './fork-wallet.ts';

const AVAX = 1_000_000_000n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

const exportedToP = async (url: string, address: string) =>
  (await new PChainClient({ baseUrl: url }).getUTXOs({ addresses: [address], sourceChain: 'C', encoding: 'hex' }))
    .utxos;
const exportedToC = async (url: string, address: string) =>
  (await new CAvaxClient({ baseUrl: url }).getUTXOs({ addresses: [address], sourceChain: 'X', encoding: 'hex' })).utxos;
const importer = (i: number) =>
  new ImportsWhatTheSourceHolds(fork.url, source.url, source.keys[i]!.privateKey, fork.world.network.hrp);

beforeAll(async () => {
  source = await startMockNode({ accounts: 4, seed: 'atomic c source' });
  await source.wallet(1).exportTo('C', 'P', 5n * AVAX);
  await source.wallet(2).exportTo('X', 'C', 4n * AVAX);
  fork = await startMockNode({ accounts: 1, seed: 'atomic c fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's shared memory with the C-Chain", () => {
  it('imports on P what C exported, found through the export the import spends', async () => {
    const key = source.keys[1]!;
    const atSource = await exportedToP(source.url, key.p);
    expect(atSource).toHaveLength(1);
    const wallet = importer(1);
    const before = await wallet.balance('P');
    await wallet.importFrom('C', 'P');
    expect(await wallet.balance('P')).toBeGreaterThan(before + 4n * AVAX);
    expect(await exportedToP(fork.url, key.p)).toEqual([]);
    expect(await exportedToP(source.url, key.p)).toEqual(atSource);
  });

  it('imports on C what X exported, found through the export the import spends', async () => {
    const key = source.keys[2]!;
    const cAddress = `C-${key.x.slice(2)}`;
    const atSource = await exportedToC(source.url, cAddress);
    expect(atSource).toHaveLength(1);
    const before = await new Wallet(fork.url, key.privateKey, fork.world.network.hrp).balance('C');
    await importer(2).importFrom('X', 'C');
    const after = await new Wallet(fork.url, key.privateKey, fork.world.network.hrp).balance('C');
    expect(after - before).toBeGreaterThan(3n * AVAX * 1_000_000_000n);
    expect(await exportedToC(fork.url, cAddress)).toEqual([]);
    expect(await exportedToC(source.url, cAddress)).toEqual(atSource);
  });

  it("leaves out what C exported in a block above the fork's C-Chain block", async () => {
    const key = source.keys[3]!;
    // The fork's C-Chain block is fixed by its first C-Chain need (the tests above had some; this makes sure).
    await callRpc(`${fork.url}/ext/bc/C/rpc`, 'eth_blockNumber', []);
    const forkBlock = await forkOf(fork.world)!.cHeight();
    await source.wallet(3).exportTo('C', 'P', 2n * AVAX);
    const sourceBlock = BigInt((await callRpc(`${source.url}/ext/bc/C/rpc`, 'eth_blockNumber', [])).result as string);
    expect(sourceBlock).toBeGreaterThan(forkBlock);
    expect(await exportedToP(source.url, key.p)).toHaveLength(1);
    expect(await exportedToP(fork.url, key.p)).toEqual([]);
    await expect(importer(3).importFrom('C', 'P')).rejects.toThrow();
  });
});
