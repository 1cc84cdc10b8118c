/**
 * A fork's development controls in process (`node.dev`) against a second mock as the source: each loads what it names
 * from the source first, as its `/ext/dev` twin does, so an address or staker never read over HTTP is there too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { bech32Decode, cb58Encode } from '../../generators/formats.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Signer } from './fork-wallet.ts';

const AVAX = 1_000_000_000n;
const DAY = 86_400n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
const nodeID = `NodeID-${cb58Encode(Buffer.alloc(20, 11))}`;
let end: bigint;

const utxosAt = async (url: string, address: string) =>
  (await new PChainClient({ baseUrl: url }).getUTXOs({ addresses: [address], encoding: 'hex' })).utxos.sort();

beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'dev source' });
  end = source.world.time.get() + 20n * DAY;
  await source.wallet(2).addValidator(nodeID, 2_000n * AVAX, { end });
  fork = await startMockNode({ accounts: 1, seed: 'dev fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's controls in process", () => {
  it('load the UTXOs of an address they name that HTTP never read', async () => {
    const key = source.keys[0]!;
    const owner = Buffer.from(bech32Decode(key.p.slice(2))!.payload).toString('hex');
    const held = (node: { world: MockNodeHandle['world'] }) =>
      [...node.world.utxos.P.values()].filter((u) => u.owner.addresses.includes(owner)).map((u) => u.key);
    expect(held(source).length).toBeGreaterThan(0);
    expect(held(fork)).toEqual([]);
    const { utxoID } = await fork.dev.addUtxo({ chain: 'P', addresses: [key.p], amount: String(AVAX) });
    // Loaded before the edit, in process, with no HTTP read: the source's UTXOs and the one added.
    const added = held(fork).filter((k) => !held(source).includes(k));
    expect(added).toHaveLength(1);
    expect(held(fork).sort()).toEqual([...held(source), ...added].sort());
    await fork.dev.removeUtxo({ chain: 'P', utxoID });
    expect(await utxosAt(fork.url, key.p)).toEqual(await utxosAt(source.url, key.p));
  });

  it('dry-run a spend of a forked UTXO whose owner HTTP never read, and change nothing', async () => {
    const key = source.keys[1]!;
    const signer = new Signer(source.url, key.privateKey, source.world.network.hrp);
    await signer.send('P', source.keys[0]!.p, 3n * AVAX);
    const simulation = await fork.dev.simulateTx({ chain: 'P', tx: signer.signed, encoding: 'hex' });
    expect(simulation.error).toBeUndefined();
    expect(simulation.accepted).toBe(true);
    expect(simulation.consumed.length).toBeGreaterThan(0);
    expect(await utxosAt(fork.url, key.p)).toEqual(await utxosAt(source.url, key.p));
  });

  it("return a forked staker's stake when a time move passes its end", async () => {
    const owner = source.keys[2]!;
    await fork.dev.setTime({ timestamp: String(end) });
    await source.dev.setTime({ timestamp: String(end) });
    const balance = async (url: string) =>
      BigInt((await new PChainClient({ baseUrl: url }).getBalance({ addresses: [owner.p] })).balance);
    expect(await balance(fork.url)).toBe(await balance(source.url));
    expect(await utxosAt(fork.url, owner.p)).toEqual(await utxosAt(source.url, owner.p));
  });
});
