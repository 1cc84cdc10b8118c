/**
 * The transaction engine with transactions built and signed by avalanchejs 5.2.0, as an app builds them: issue, see
 * the effects, and each refusal in the node's words.
 */
import { Credential, Signature, TransferableInput, TransferableOutput, addTxSignatures, avaxSerial, avm, avmSerial, pvm, pvmSerial, secp256k1, utils } from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { cb58 } from '../../mock/engine/codec.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { LOCAL, createLedger, fund } from '../../mock/engine/genesis.ts';
import type { Ledger } from '../../mock/engine/ledger.ts';
import { dynamicFee, gasPrice } from '../../mock/engine/p.ts';

const EWOQ = utils.base58check.decode('ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN');
const ewoq = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(EWOQ));
const OTHER_KEY = new Uint8Array(32).fill(7);
const other = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY));
const recipient = new Uint8Array(20).fill(9);

const context = {
  networkID: LOCAL.networkID,
  hrp: LOCAL.hrp,
  xBlockchainID: LOCAL.chainIDs.X,
  pBlockchainID: LOCAL.chainIDs.P,
  cBlockchainID: LOCAL.chainIDs.C,
  avaxAssetID: LOCAL.avaxAssetID,
  baseTxFee: LOCAL.fees.txFee,
  createAssetTxFee: LOCAL.fees.createAssetTxFee,
  platformFeeConfig: {
    weights: { 0: 1, 1: 1000, 2: 1000, 3: 4 },
    maxCapacity: LOCAL.fees.maxCapacity,
    maxPerSecond: LOCAL.fees.maxPerSecond,
    targetPerSecond: LOCAL.fees.targetPerSecond,
    minPrice: LOCAL.fees.minPrice,
    excessConversionConstant: LOCAL.fees.excessConversionConstant,
  },
};

const utxosOf = (ledger: Ledger, chain: 'X' | 'P', owner: Uint8Array) =>
  [...ledger.chains[chain].utxos.values()].filter(({ utxo }) => utxo.getOutputOwners().addrs.some((a: { toBytes(): Uint8Array }) => utils.bufferToHex(a.toBytes()) === utils.bufferToHex(owner)));
const balanceOf = (ledger: Ledger, chain: 'X' | 'P', owner: Uint8Array) => utxosOf(ledger, chain, owner).reduce((sum, { utxo }) => sum + utxo.output.amount(), 0n);

/** A real signature, by a key that owns none of the inputs. */
async function signWrong(unsigned: { toBytes(): Uint8Array; credentials: { setSignature(i: number, sig: Uint8Array): void }[]; getSignedTx(): { toBytes(): Uint8Array } }): Promise<Uint8Array> {
  const signature = await secp256k1.sign(unsigned.toBytes(), OTHER_KEY);
  for (const credential of unsigned.credentials) credential.setSignature(0, signature);
  return unsigned.getSignedTx().toBytes();
}

/** A BaseTx spending `utxo` whole and paying `amount` to the recipient, signed by ewoq: what no SDK would build. */
async function rawSend(chain: 'X' | 'P', utxo: { utxo: unknown }, amount: bigint): Promise<Uint8Array> {
  const input = TransferableInput.fromUtxoAndSigindicies(utxo.utxo, [0]);
  const output = TransferableOutput.fromNative(LOCAL.avaxAssetID, amount, [recipient]);
  const base = avaxSerial.BaseTx.fromNative(LOCAL.networkID, LOCAL.chainIDs[chain], [output], [input], new Uint8Array());
  const tx = chain === 'X' ? new avmSerial.BaseTx(base) : new pvmSerial.BaseTx(base);
  const manager = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
  const signature = await secp256k1.sign(manager.packCodec(tx), EWOQ);
  return new avaxSerial.SignedTx(tx, [new Credential([new Signature(signature)])]).toBytes();
}

async function sign(unsigned: { getSignedTx(): { toBytes(): Uint8Array } }, key = EWOQ): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [key] });
  return unsigned.getSignedTx().toBytes();
}

const xSend = (ledger: Ledger, amount: bigint, to = recipient, from = ewoq) =>
  avm.newBaseTx(context, [from], utxosOf(ledger, 'X', from).map((u) => u.utxo), [TransferableOutput.fromNative(LOCAL.avaxAssetID, amount, [to])]);

const feeState = (ledger: Ledger) => ({ capacity: ledger.feeState.capacity, excess: ledger.feeState.excess, price: gasPrice(1n, ledger.feeState.excess, LOCAL.fees.excessConversionConstant), timestamp: new Date().toISOString() });
const pSend = (ledger: Ledger, amount: bigint, to = recipient, from = ewoq) =>
  pvm.newBaseTx({ feeState: feeState(ledger), fromAddressesBytes: [from], utxos: utxosOf(ledger, 'P', from).map((u) => u.utxo), outputs: [TransferableOutput.fromNative(LOCAL.avaxAssetID, amount, [to])] }, context);

let ledger: Ledger;
let engine: Engine;
beforeEach(() => {
  ledger = createLedger();
  fund(ledger, 'X', ewoq, 300_000_000n * 10n ** 9n);
  fund(ledger, 'X', ewoq, 5n * 10n ** 9n);
  fund(ledger, 'P', ewoq, 20_000_000n * 10n ** 9n);
  engine = new Engine(ledger);
});

describe('X-Chain BaseTx', () => {
  it('is accepted into a block of its own; the recipient is paid and the sender gets the change', async () => {
    const before = balanceOf(ledger, 'X', ewoq);
    const bytes = await sign(xSend(ledger, 1_000_000_000n));
    const txID = engine.issue('X', bytes);
    expect(txID).toBe(cb58((await import('@noble/hashes/sha2.js')).sha256(bytes)));
    expect(ledger.chains.X.txs.get(txID)?.status).toBe('Accepted');
    expect(balanceOf(ledger, 'X', recipient)).toBe(1_000_000_000n);
    expect(balanceOf(ledger, 'X', ewoq)).toBe(before - 1_000_000_000n - LOCAL.fees.txFee);
    const tip = ledger.chains.X.blocks.at(-1)!;
    expect(tip.height).toBe(1);
    expect(tip.txIDs).toEqual([txID]);
    expect(ledger.chains.X.txs.get(txID)?.blockID).toBe(tip.id);
  });

  it('refuses the same transaction again, a wrong signature and an overspend in the node words', async () => {
    const bytes = await sign(xSend(ledger, 1_000_000_000n));
    engine.issue('X', bytes);
    expect(() => engine.issue('X', bytes)).toThrow(/^failed to verify transfer: failed to get utxo \w+: not found$/);

    const wrong = await signWrong(xSend(ledger, 5n));
    expect(() => engine.issue('X', wrong)).toThrow(/^failed to verify transfer: wrong signature: expected signature from \w+ but got from \w+$/);
    expect(() => engine.issue('X', wrong)).toThrow(new RegExp(`got from ${cb58(other)}$`));

    const utxo = utxosOf(ledger, 'X', ewoq).find((u) => u.utxo.output.amount() === 5n * 10n ** 9n)!;
    const over = await rawSend('X', utxo, 5n * 10n ** 9n);
    expect(() => engine.issue('X', over)).toThrow(/^insufficient funds$/);
  });

  it('refuses a time-locked UTXO', async () => {
    const locked = createLedger();
    fund(locked, 'X', ewoq, 10n * 10n ** 9n, { locktime: locked.time + 3600n });
    const tx = await sign(avm.newBaseTx(context, [ewoq], utxosOf(locked, 'X', ewoq).map((u) => u.utxo), [TransferableOutput.fromNative(LOCAL.avaxAssetID, 1n, [recipient])], { minIssuanceTime: locked.time + 7200n }));
    expect(() => new Engine(locked).issue('X', new Uint8Array([0, 0, 0, 0]))).toThrow();
    expect(() => new Engine(locked).issue('X', tx)).toThrow(/^failed to verify transfer: output is time locked$/);
  });
});
