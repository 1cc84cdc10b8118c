/**
 * X-Chain owners beyond one key, with avalanchejs 5.2.0 over HTTP: a 2-of-3 output spent with two signatures (and
 * refused with one), and a time-locked output refused before its locktime and spent after it.
 */
import { addTxSignatures, avm, secp256k1, TransferableOutput, type UnsignedTx, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
const keys = [7, 8, 9, 10].map((i) => new Uint8Array(32).fill(i));
const [a, b, c, d] = keys.map((k) => new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(k)))) as [
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
];

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const api = () => new avm.AVMApi(node.url);
const bech = (addr: Uint8Array) => `X-${utils.formatBech32(node.world.network.hrp, addr)}`;
const issue = (tx: UnsignedTx) =>
  callRpc(`${node.url}/ext/bc/X`, 'avm.issueTx', {
    tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
    encoding: 'hex',
  });
const balance = async (addr: Uint8Array) =>
  BigInt(
    String(
      (await callRpc(`${node.url}/ext/bc/X`, 'avm.getBalance', { address: bech(addr), assetID: 'AVAX' })).result!
        .balance,
    ),
  );

async function fund(out: TransferableOutput): Promise<string> {
  const context = sdkContext(node.world);
  const { utxos } = await api().getUTXOs({ addresses: [bech(ewoq)] });
  const tx = avm.newBaseTx(context, [ewoq], utxos, [out]);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
  const { txID } = await api().issueSignedTx(tx.getSignedTx());
  expect((await api().getTxStatus({ txID })).status).toBe('Accepted');
  return txID;
}

describe('X-Chain multisig and locktime with avalanchejs', () => {
  it('spends a 2-of-3 output with two credentials, refuses it with one', async () => {
    const context = sdkContext(node.world);
    await fund(TransferableOutput.fromNative(context.avaxAssetID, 5n * AVAX, [a, b, c], 0n, 2));
    const { utxos } = await api().getUTXOs({ addresses: [bech(a), bech(b), bech(c)] });
    expect(utxos).toHaveLength(1);
    const build = () =>
      avm.newBaseTx(context, [a, b], utxos, [TransferableOutput.fromNative(context.avaxAssetID, AVAX, [d])], {
        changeAddresses: [a],
      });

    const half = build();
    await addTxSignatures({ unsignedTx: half, privateKeys: [keys[0]!] });
    expect(half.hasAllSignatures()).toBe(false);
    const refused = await issue(half);
    // The unsigned slot holds 65 zero bytes, which ecdsa.RecoverCompact refuses (utils/crypto/secp256k1:102).
    expect(refused.error?.message).toBe('failed to verify transfer: invalid signature');

    const tx = build();
    await addTxSignatures({ unsignedTx: tx, privateKeys: [keys[0]!, keys[1]!] });
    expect(tx.hasAllSignatures()).toBe(true);
    const ok = await issue(tx);
    expect(ok.error).toBeUndefined();
    expect(await balance(d)).toBe(AVAX);
    expect(await balance(a)).toBe(4n * AVAX - context.baseTxFee);
  });

  it('refuses a time-locked output before its locktime and spends it after', async () => {
    const context = sdkContext(node.world);
    const now = Math.floor(Date.now() / 1000) + 10;
    await node.dev.setTime({ timestamp: now });
    const locktime = BigInt(now + 3600);
    await fund(TransferableOutput.fromNative(context.avaxAssetID, 3n * AVAX, [d], locktime, 1));
    const { utxos } = await api().getUTXOs({ addresses: [bech(d)] });
    const build = (change = 1n) =>
      avm.newBaseTx(
        context,
        [d],
        utxos,
        [TransferableOutput.fromNative(context.avaxAssetID, 3n * AVAX - context.baseTxFee - change, [a])],
        { minIssuanceTime: locktime + 1n },
      );
    const early = build();
    await addTxSignatures({ unsignedTx: early, privateKeys: [keys[3]!] });
    const refused = await issue(early);
    expect(refused.error?.message).toBe('failed to verify transfer: output is time locked');

    await node.dev.setTime({ timestamp: Number(locktime) + 1 });
    // The same bytes again: the pool answers the reason it dropped them with, unverified (avm/network/gossip.go:78).
    const same = build();
    await addTxSignatures({ unsignedTx: same, privateKeys: [keys[3]!] });
    expect((await issue(same)).error?.message).toBe('failed to verify transfer: output is time locked');
    const late = build(2n);
    await addTxSignatures({ unsignedTx: late, privateKeys: [keys[3]!] });
    const ok = await issue(late);
    expect(ok.error).toBeUndefined();
    expect(await balance(a)).toBe(4n * AVAX - context.baseTxFee + 3n * AVAX - context.baseTxFee - 2n);
  });
});
