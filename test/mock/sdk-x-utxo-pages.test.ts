/**
 * avm.getUTXOs over several addresses, paged the way a wallet pages it with avalanchejs 5.2.0 (limit, then the reply's
 * endIndex as the next startIndex). The node keeps each address's UTXO IDs in a linked list, newest first
 * (vms/components/avax/utxo_state.go:257, database/linkeddb/linkeddb.go:111), reads an address from its start key
 * (skipped) or, when that key is gone, from the head, and forgets what it returned between calls
 * (avax/utxo_fetching.go GetPaginatedUTXOs): a UTXO two listed addresses own comes back once per page it falls in.
 */
import { addTxSignatures, avm, secp256k1, TransferableOutput, type Utxo, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
// Their addresses sort A (4e2b…) < B (6ef7…) < C (db3f…), the order the node walks them in.
const keyOf = (i: number) => new Uint8Array(32).fill(i);
const addressOf = (key: Uint8Array) => new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key)));
const [A, B, C, D] = [13, 12, 11, 14].map((i) => addressOf(keyOf(i))) as [
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
];

let node: RunningMockNode;
const api = () => new avm.AVMApi(node.url);
const bech = (addr: Uint8Array) => `X-${utils.formatBech32(node.world.network.hrp, addr)}`;
const amountOf = (utxo: Utxo) => (utxo.output as unknown as { amount(): bigint }).amount() / AVAX;

async function send(from: Uint8Array, key: Uint8Array, utxos: Utxo[], out: TransferableOutput): Promise<void> {
  const tx = avm.newBaseTx(sdkContext(node.world), [from], utxos, [out]);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [key] });
  const { txID } = await api().issueSignedTx(tx.getSignedTx());
  expect((await api().getTxStatus({ txID })).status).toBe('Accepted');
}

// One tx (and block) each, oldest first: 1 and 2 AVAX to A, 3 to B, 4 to A and B (1 of 2), 5 to C.
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const context = sdkContext(node.world);
  for (const [n, owners] of [
    [1n, [A]],
    [2n, [A]],
    [3n, [B]],
    [4n, [A, B]],
    [5n, [C]],
  ] as const) {
    const { utxos } = await api().getUTXOs({ addresses: [bech(ewoq)] });
    await send(ewoq, EWOQ, utxos, TransferableOutput.fromNative(context.avaxAssetID, n * AVAX, [...owners], 0n, 1));
  }
});
afterAll(() => node?.close());

/** Every page of `limit` from `startIndex` on, until a short one, as the AVAX amounts each holds. */
async function pages(addresses: Uint8Array[], limit: number, startIndex?: { address: string; utxo: string }) {
  const out: bigint[][] = [];
  const ends: { address: string; utxo: string }[] = [];
  for (;;) {
    const page = await api().getUTXOs({ addresses: addresses.map(bech), limit, ...(startIndex && { startIndex }) });
    out.push(page.utxos.map(amountOf));
    ends.push(page.endIndex);
    if (Number(page.numFetched) < limit) return { out, ends };
    startIndex = page.endIndex;
  }
}

describe('avm.getUTXOs pages over many addresses', () => {
  it('lists each address newest first, addresses in byte order, a shared UTXO once in a call', async () => {
    const { utxos, endIndex, numFetched } = await api().getUTXOs({ addresses: [C, B, A].map(bech) });
    expect(utxos.map(amountOf)).toEqual([4n, 2n, 1n, 3n, 5n]);
    expect(Number(numFetched)).toBe(5);
    expect(endIndex).toEqual({ address: bech(C), utxo: utxos[4]!.utxoId.ID() });
  });

  it('pages by 2: the shared UTXO again on the page that reaches B; an empty last page ending where it started', async () => {
    const { out, ends } = await pages([A, B, C], 2);
    expect(out).toEqual([[4n, 2n], [1n, 4n], [3n, 5n], []]);
    expect(ends.map((e) => e.address)).toEqual([bech(A), bech(B), bech(C), bech(C)]);
    expect(ends[3]).toEqual(ends[2]);
  });

  it('reads an address from its head again when the start UTXO was spent', async () => {
    const first = await api().getUTXOs({ addresses: [bech(A)], limit: 2 });
    expect(first.utxos.map(amountOf)).toEqual([4n, 2n]);
    const two = first.utxos[1]!;
    const context = sdkContext(node.world);
    await send(
      A,
      keyOf(13),
      [two],
      TransferableOutput.fromNative(context.avaxAssetID, 2n * AVAX - context.baseTxFee, [D]),
    );
    const next = await api().getUTXOs({ addresses: [bech(A)], limit: 2, startIndex: first.endIndex });
    expect(next.utxos.map(amountOf)).toEqual([4n, 1n]);
  });
});
