/**
 * `dev.removeUtxo` on a fork, against a second mock as the source, of a forked UTXO named by its ID alone (its owner
 * never read): it is in no later read (getUTXOs, getBalance), a spend of it is refused as spending a missing UTXO, a
 * revert or `dev.reset` brings it back; an ID the source never had is removed as nothing, once; an ID gone (removed,
 * or spent by a local transaction) is refused as on any world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { bech32Decode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { pMissingUtxo, xMissingUtxo } from '../../mock/engine/refusals.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Signer } from './fork-wallet.ts';
import { utxoIDOf } from '../../mock/world/codec.ts';
import type { Utxo } from '../../mock/world/types.ts';

const AVAX = 1_000_000_000n;
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

const client = (chain: 'X' | 'P', url: string) =>
  chain === 'P' ? new PChainClient({ baseUrl: url }) : new XChainClient({ baseUrl: url });
const utxosAt = async (chain: 'X' | 'P', url: string, address: string) =>
  (await client(chain, url).getUTXOs({ addresses: [address], encoding: 'hex' } as never)).utxos.sort();
const balanceAt = async (chain: 'X' | 'P', url: string, address: string) => {
  const answer =
    chain === 'P'
      ? await new PChainClient({ baseUrl: url }).getBalance({ addresses: [address] })
      : await new XChainClient({ baseUrl: url }).getBalance({ address, assetID: 'AVAX' } as never);
  return BigInt(answer.balance);
};
/** The source's UTXOs of key `i` on a chain, as the world keeps them. */
const heldBy = (chain: 'X' | 'P', i: number): Utxo[] => {
  const owner = Buffer.from(bech32Decode(source.keys[i]!.p.slice(2))!.payload).toString('hex');
  return [...source.world.utxos[chain].values()].filter((u) => u.owner.addresses.includes(owner));
};
const addressOf = (chain: 'X' | 'P', i: number) => `${chain}-${source.keys[i]!.p.slice(2)}`;
const unread = (chain: 'X' | 'P', i: number) => {
  const owner = Buffer.from(bech32Decode(source.keys[i]!.p.slice(2))!.payload).toString('hex');
  return fork.world.utxosOf(chain, owner).length === 0;
};

beforeAll(async () => {
  source = await startMockNode({ accounts: 4, utxosPerAccount: 2, seed: 'remove source' });
  fork = await startMockNode({ accounts: 1, seed: 'remove fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe.each(['X', 'P'] as const)('dev.removeUtxo on a fork, on %s, of a forked UTXO its ID alone names', (chain) => {
  it('takes it out of every later read of its owner, and a revert brings it back', async () => {
    const address = addressOf(chain, 0);
    const [removed] = heldBy(chain, 0);
    const { snapshotID } = await fork.devClient.snapshot();
    expect(unread(chain, 0)).toBe(true);
    expect(await fork.devClient.removeUtxo({ chain, utxoID: utxoIDOf(removed!) })).toEqual({});
    // A snapshot after the removal and before the read: reverting to it keeps the removal.
    const after = await fork.devClient.snapshot();
    const sourceUtxos = await utxosAt(chain, source.url, address);
    const forkUtxos = await utxosAt(chain, fork.url, address);
    expect(forkUtxos).toHaveLength(sourceUtxos.length - 1);
    expect(sourceUtxos.filter((u) => !forkUtxos.includes(u))).toHaveLength(1);
    expect(await balanceAt(chain, fork.url, address)).toBe(
      (await balanceAt(chain, source.url, address)) - removed!.amount,
    );
    await fork.devClient.revert({ snapshotID: after.snapshotID });
    expect(await utxosAt(chain, fork.url, address)).toEqual(forkUtxos);
    // Named again now that it was read: gone, as on any world.
    await expect(fork.devClient.removeUtxo({ chain, utxoID: utxoIDOf(removed!) })).rejects.toThrow(
      `UTXO ${utxoIDOf(removed!)} not found on ${chain}`,
    );
    await fork.devClient.revert({ snapshotID });
    expect(await utxosAt(chain, fork.url, address)).toEqual(sourceUtxos);
  });

  it('refuses a spend of it as spending a missing UTXO, and dev.reset brings it back', async () => {
    const signer = new Signer(source.url, source.keys[1]!.privateKey, source.world.network.hrp);
    await signer.send(chain, source.keys[2]!.p.replace(/^P/, chain), AVAX);
    const spent = heldBy(chain, 1);
    expect(unread(chain, 1)).toBe(true);
    for (const utxo of spent) await fork.dev.removeUtxo({ chain, utxoID: utxoIDOf(utxo) });
    // The executor reads the tx's inputs in their order (by UTXO ID) and names the first it cannot find.
    const input = (u: Utxo) =>
      Buffer.from(cb58Decode(u.txID)!).toString('hex') + u.outputIndex.toString(16).padStart(8, '0');
    const first = spent.filter((u) => signer.signed.includes(input(u))).sort((a, b) => a.key.localeCompare(b.key))[0]!;
    const refusal = chain === 'P' ? pMissingUtxo(first.txID, first.outputIndex) : xMissingUtxo(utxoIDOf(first));
    await expect(client(chain, fork.url).issueTx({ tx: signer.signed, encoding: 'hex' })).rejects.toThrow(refusal);
    expect(await utxosAt(chain, fork.url, addressOf(chain, 1))).toEqual([]);
    await fork.devClient.reset();
    expect(await utxosAt(chain, fork.url, addressOf(chain, 1))).toEqual(
      await utxosAt(chain, source.url, addressOf(chain, 1)),
    );
    const { txID } = await client(chain, fork.url).issueTx({ tx: signer.signed, encoding: 'hex' });
    expect(txID).toMatch(/^\w{49,50}$/);
    await fork.devClient.reset();
  });

  it('removes an ID the source never had as nothing, once, and leaves every read as it was', async () => {
    const utxoID = cb58Encode(Buffer.alloc(32, chain === 'X' ? 0xa1 : 0xa2));
    const { snapshotID } = await fork.devClient.snapshot();
    expect(await fork.dev.removeUtxo({ chain, utxoID })).toEqual({});
    await expect(fork.dev.removeUtxo({ chain, utxoID })).rejects.toThrow(`UTXO ${utxoID} not found on ${chain}`);
    expect(await utxosAt(chain, fork.url, addressOf(chain, 3))).toEqual(
      await utxosAt(chain, source.url, addressOf(chain, 3)),
    );
    await fork.devClient.revert({ snapshotID });
    // The revert took the removal back: the ID may be removed (as nothing) again.
    expect(await fork.dev.removeUtxo({ chain, utxoID })).toEqual({});
    await fork.devClient.revert({ snapshotID });
  });

  it('refuses an ID gone locally: added then removed, or spent by a local transaction', async () => {
    const { snapshotID } = await fork.devClient.snapshot();
    const { utxoID } = await fork.dev.addUtxo({ chain, addresses: [fork.keys[0]!.p], amount: String(AVAX) });
    expect(await fork.dev.removeUtxo({ chain, utxoID })).toEqual({});
    await expect(fork.dev.removeUtxo({ chain, utxoID })).rejects.toThrow(`UTXO ${utxoID} not found on ${chain}`);
    const funded = fork.world.utxosOf(chain, fork.world.accounts[0]!.address).map(utxoIDOf);
    expect(funded).toHaveLength(1);
    await fork.wallet(0).send(chain, fork.keys[0]!.p.replace(/^P/, chain), AVAX);
    await expect(fork.dev.removeUtxo({ chain, utxoID: funded[0]! })).rejects.toThrow(
      `UTXO ${funded[0]} not found on ${chain}`,
    );
    await fork.devClient.revert({ snapshotID });
  });
});
