/**
 * A fork starts from its source's tips, where the source's own dev edits named their UTXOs (`dev.fund`, `dev.addUtxo`,
 * `dev.fund` of a `C-` address into shared memory): the fork's edits of the same owner, from the same tips, make
 * UTXOs of other IDs, so the source's stay (a fork once overwrote them: the user's funds gone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAvaxClient, PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';

const AVAX = 1_000_000_000n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let pAddress: string;
let xAddress: string;
let cAddress: string;

const pBalance = async (node: { url: string }) =>
  BigInt((await new PChainClient({ baseUrl: node.url }).getBalance({ addresses: [pAddress] })).balance);
const xUtxos = async (node: { url: string }) =>
  (await new XChainClient({ baseUrl: node.url }).getUTXOs({ addresses: [xAddress], encoding: 'hex' })).utxos;
const exported = async (node: { url: string }) =>
  (
    await new CAvaxClient({ baseUrl: node.url }).getUTXOs({
      addresses: [cAddress],
      sourceChain: 'X',
      encoding: 'hex',
    })
  ).utxos;

beforeAll(async () => {
  source = await startMockNode({ accounts: 2, seed: 'fork dev ids source' });
  pAddress = source.keys[1]!.p;
  xAddress = source.keys[1]!.x;
  cAddress = `C-${xAddress.slice(2)}`;
  // The source's last changes are edits, which build no block: the fork starts from the tips they were named from.
  await source.dev.fund({ address: pAddress, amount: String(5n * AVAX) });
  await source.dev.addUtxo({ chain: 'X', addresses: [xAddress], amount: String(3n * AVAX) });
  await source.dev.fund({ address: cAddress, amount: String(2n * AVAX) });
  fork = await startMockNode({ accounts: 1, seed: 'fork dev ids', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's dev edits of an owner the source edited", () => {
  it('dev.fund adds a UTXO of its own beside the source funding', async () => {
    const atSource = await pBalance(source);
    const { balance } = await fork.dev.fund({ address: pAddress, amount: '7' });
    expect(balance).toBe(String(atSource + 7n));
    expect(await pBalance(fork)).toBe(atSource + 7n);
  });

  it('dev.addUtxo adds a UTXO of its own beside the source one', async () => {
    const atSource = await xUtxos(source);
    await fork.dev.addUtxo({ chain: 'X', addresses: [xAddress], amount: String(3n * AVAX) });
    const mine = await xUtxos(fork);
    expect(mine).toHaveLength(atSource.length + 1);
    expect(mine).toEqual(expect.arrayContaining(atSource));
  });

  it('dev.fund of a C- address adds an export of its own beside the source one', async () => {
    const atSource = await exported(source);
    expect(atSource).toHaveLength(1);
    await fork.dev.fund({ address: cAddress, amount: String(2n * AVAX) });
    const mine = await exported(fork);
    expect(mine).toHaveLength(2);
    expect(mine).toEqual(expect.arrayContaining(atSource));
  });
});
