/**
 * A fork's shared memory against a second mock as the source: UTXOs exported to P or C and not yet imported are read
 * from the source on the first `getUTXOs` with `sourceChain` naming their owner, or when an import spends them, and
 * imported locally; an export the source accepted after the fork point stays out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAvaxClient, PChainClient } from '../../generated/client/dist/index.js';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Wallet } from '../../mock/package/wallet.ts';
import { ImportsWhatTheSourceHolds } from './fork-wallet.ts';

const AVAX = 1_000_000_000n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

const exported = async (url: string, address: string) =>
  (await new PChainClient({ baseUrl: url }).getUTXOs({ addresses: [address], sourceChain: 'X', encoding: 'hex' }))
    .utxos;

beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'atomic source' });
  await source.wallet(1).exportTo('X', 'P', 5n * AVAX);
  await source.wallet(2).exportTo('X', 'P', 4n * AVAX);
  await source.wallet(1).exportTo('X', 'C', 6n * AVAX);
  await source.wallet(1).exportTo('X', 'C', 7n * AVAX);
  fork = await startMockNode({ accounts: 1, seed: 'atomic fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's shared memory", () => {
  it('lists what X exported to P as the source does, and imports it locally', async () => {
    const key = source.keys[1]!;
    const atSource = await exported(source.url, key.p);
    expect(atSource).toHaveLength(1);
    expect(await exported(fork.url, key.p)).toEqual(atSource);
    const wallet = new Wallet(fork.url, key.privateKey, fork.world.network.hrp);
    const before = await wallet.balance('P');
    await wallet.importFrom('X', 'P');
    expect(await wallet.balance('P')).toBeGreaterThan(before + 4n * AVAX);
    expect(await exported(fork.url, key.p)).toEqual([]);
    expect(await exported(source.url, key.p)).toEqual(atSource);
  });

  it('loads the exports an import spends before verifying it', async () => {
    const key = source.keys[2]!;
    const wallet = new ImportsWhatTheSourceHolds(fork.url, source.url, key.privateKey, fork.world.network.hrp);
    const before = await wallet.balance('P');
    await wallet.importFrom('X', 'P');
    expect(await wallet.balance('P')).toBeGreaterThan(before + 3n * AVAX);
    expect(await exported(fork.url, key.p)).toEqual([]);
  });

  it('leaves out an export the source accepted after the fork point', async () => {
    const key = source.keys[0]!;
    await source.wallet(0).exportTo('X', 'P', 2n * AVAX);
    expect(await exported(source.url, key.p)).toHaveLength(1);
    expect(await exported(fork.url, key.p)).toEqual([]);
  });

  it('lists and imports on C what X exported to the C-Chain, as the source holds it and in its order', async () => {
    const key = source.keys[1]!;
    const cAddress = `C-${key.x.slice(2)}`;
    const onC = async (url: string) =>
      (await new CAvaxClient({ baseUrl: url }).getUTXOs({ addresses: [cAddress], sourceChain: 'X', encoding: 'hex' }))
        .utxos;
    const atSource = await onC(source.url);
    expect(atSource).toHaveLength(2);
    // In the source's order: shared memory lists an address's UTXOs newest first.
    expect(await onC(fork.url)).toEqual(atSource);
    const balance = async () =>
      BigInt(
        (
          await (
            await fetch(`${fork.url}/ext/bc/C/rpc`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [key.c, 'latest'] }),
            })
          ).json()
        ).result as string,
      );
    const before = await balance();
    await new Wallet(fork.url, key.privateKey, fork.world.network.hrp).importFrom('X', 'C');
    expect(await balance()).toBeGreaterThan(before);
    expect(await onC(fork.url)).toEqual([]);
    expect(await onC(source.url)).toEqual(atSource);
  });
});
