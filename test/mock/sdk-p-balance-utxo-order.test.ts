/**
 * platform.getBalance over several addresses with avalanchejs 5.2.0: `utxoIDs` in the order avax.GetAllUTXOs reads
 * them (platformvm/service.go:153), addresses by bytes, each address's UTXOs newest first (its linked list,
 * avax/utxo_state.go:257), a UTXO both addresses own once; platform.getUTXOs pages the same list.
 */
import { addTxSignatures, pvm, secp256k1, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
// A (4e2b…) sorts before B (6ef7…).
const addressOf = (i: number) =>
  new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(new Uint8Array(32).fill(i))));
const [A, B] = [addressOf(13), addressOf(12)] as [Uint8Array, Uint8Array];

let node: RunningMockNode;
const api = () => new pvm.PVMApi(node.url);
const bech = (addr: Uint8Array) => `P-${utils.formatBech32(node.world.network.hrp, addr)}`;
const sent: string[] = [];

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const context = sdkContext(node.world);
  // One tx each, oldest first: 1 AVAX to A, 2 to B, 3 to A and B (1 of 2).
  for (const [n, owners] of [
    [1n, [A]],
    [2n, [B]],
    [3n, [A, B]],
  ] as const) {
    const { utxos } = await api().getUTXOs({ addresses: [bech(ewoq)] });
    const tx = pvm.newBaseTx(
      {
        feeState: await api().getFeeState(),
        fromAddressesBytes: [ewoq],
        utxos,
        outputs: [TransferableOutput.fromNative(context.avaxAssetID, n * AVAX, [...owners], 0n, 1)],
      },
      context,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    const { txID } = await api().issueSignedTx(tx.getSignedTx());
    expect((await api().getTxStatus({ txID })).status).toBe('Committed');
    sent.push(txID);
  }
});
afterAll(() => node?.close());

describe('platform.getBalance utxoIDs over several addresses', () => {
  it('lists A newest first, then what only B holds', async () => {
    const [one, two, three] = sent;
    const balance = await api().getBalance({ addresses: [bech(B), bech(A)] });
    expect(balance.balance).toBe(6n * AVAX);
    expect(balance.utxoIDs.map((u) => u.txID)).toEqual([three, one, two]);
    const { utxos } = await api().getUTXOs({ addresses: [bech(B), bech(A)] });
    expect(utxos.map((u) => u.utxoId.txID.toString())).toEqual([three, one, two]);
  });
});
