/**
 * Shared memory's pages as avalanchejs 5.2.0 reads them (EVMApi.getUTXOs on `/ext/bc/C/avax`, PVMApi.getUTXOs with a
 * sourceChain): the node lists an address's atomic UTXOs from a linked list (chains/atomic/state.go, database/linkeddb),
 * newest export first, and a page that starts at `startIndex` starts at that UTXO itself when it is still there, so
 * an app paging through sees it twice and dedupes. The exports are three txs from X to C (1, 2 then 3 AVAX), and
 * two outputs of one P export (4 then 5 AVAX: the later output is put last, so listed first).
 */
import { Context, TransferableOutput, addTxSignatures, avm, evm, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ, ewoq } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
let node: RunningMockNode;
let ctx: Awaited<ReturnType<typeof Context.getContextFromURI>>;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  ctx = await Context.getContextFromURI(node.url);
});
afterAll(() => node?.close());

const amounts = (utxos: { output: unknown }[]) => utxos.map((u) => (u.output as { amount(): bigint }).amount() / AVAX);

describe('atomic UTXO pages', () => {
  it('lists a C address’s UTXOs newest first; the next page starts at endIndex itself', async () => {
    const x = new avm.AVMApi(node.url);
    const c = new evm.EVMApi(node.url);
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey()));
    const address = `C-${utils.formatBech32(ctx.hrp, short)}`;
    for (const amount of [1n, 2n, 3n]) {
      const { utxos } = await x.getUTXOs({ addresses: [`X-${utils.formatBech32(ctx.hrp, ewoq)}`] });
      const tx = avm.newExportTx(ctx, ctx.cBlockchainID, [ewoq], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, amount * AVAX, [short]),
      ]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
      await x.issueSignedTx(tx.getSignedTx());
    }
    const all = await c.getUTXOs({ addresses: [address], sourceChain: 'X' });
    expect(amounts(all.utxos)).toEqual([3n, 2n, 1n]);

    const first = await c.getUTXOs({ addresses: [address], sourceChain: 'X', limit: 2 });
    expect(amounts(first.utxos)).toEqual([3n, 2n]);
    expect(first.endIndex).toEqual({ address, utxo: all.utxos[1]!.ID() });
    const second = await c.getUTXOs({ addresses: [address], sourceChain: 'X', limit: 2, startIndex: first.endIndex });
    expect(amounts(second.utxos)).toEqual([2n, 1n]);
    expect(second.endIndex).toEqual({ address, utxo: all.utxos[2]!.ID() });
  });

  it('lists a P address’s UTXOs exported from P in one tx last output first; an empty address ends the page', async () => {
    const p = new pvm.PVMApi(node.url);
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey()));
    const { utxos } = await p.getUTXOs({ addresses: [`P-${utils.formatBech32(ctx.hrp, ewoq)}`] });
    const tx = pvm.newExportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [ewoq],
        destinationChainId: ctx.xBlockchainID,
        utxos,
        outputs: [
          TransferableOutput.fromNative(ctx.avaxAssetID, 4n * AVAX, [short]),
          TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [short]),
        ],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    await p.issueSignedTx(tx.getSignedTx());
    const x = new avm.AVMApi(node.url);
    const owner = `X-${utils.formatBech32(ctx.hrp, short)}`;
    const page = await x.getUTXOs({ addresses: [owner], sourceChain: 'P' });
    expect(amounts(page.utxos)).toEqual([5n, 4n]);
    // With a second address that holds nothing and sorts after the first, the node's end index is that address and
    // the empty ID: the list of the last address it read gave no key.
    const empty = new Uint8Array(20).fill(0xff);
    const both = await x.getUTXOs({ addresses: [owner, `X-${utils.formatBech32(ctx.hrp, empty)}`], sourceChain: 'P' });
    expect(amounts(both.utxos)).toEqual([5n, 4n]);
    expect(both.endIndex).toEqual({
      address: `X-${utils.formatBech32(ctx.hrp, empty)}`,
      utxo: '11111111111111111111111111111111LpoYY',
    });
  });
});
