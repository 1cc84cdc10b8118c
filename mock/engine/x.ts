/**
 * The X-Chain's verification of an issued transaction, as vms/avm/block/executor/manager.go VerifyTx runs it: the
 * syntactic verifier (vms/avm/txs/executor/syntactic_verifier.go), then the semantic one (semantic_verifier.go) on
 * the current state, then the mempool's conflict check. Returns what accepting the transaction changes.
 */
import { Id, Int, type TransferableInput, type TransferableOutput, Utxo, avaxSerial, type avmSerial, utils } from '@avalabs/avalanchejs';
import { type DecodedTx, inputID, utxoBytes } from './codec.ts';
import { type Effects, checkSortedUnique, outputsOf } from './effects.ts';
import type { AtomicUtxo, Ledger, StoredUtxo } from './ledger.ts';
import { Refusal, TEXTS, xMissingUtxo, xTransfer } from './refusals.ts';
import { verifySpend } from './spend.ts';

const MAX_MEMO = 256;

interface Parts {
  base: avmSerial.BaseTx['baseTx'];
  imported: readonly TransferableInput[];
  exported: readonly TransferableOutput[];
  source?: string;
  destination?: string;
  fee: bigint;
}

function partsOf(ledger: Ledger, decoded: DecodedTx): Parts {
  const tx = decoded.tx as unknown as Record<string, unknown> & { _type: string; baseTx: Parts['base'] };
  const fees = ledger.fees;
  switch (tx._type) {
    case 'avm.BaseTx':
      return { base: tx.baseTx, imported: [], exported: [], fee: fees.txFee };
    case 'avm.ImportTx':
      return { base: tx.baseTx, imported: tx.ins as TransferableInput[], exported: [], source: String(tx.sourceChain), fee: fees.txFee };
    case 'avm.ExportTx':
      return { base: tx.baseTx, imported: [], exported: tx.outs as TransferableOutput[], destination: String(tx.destination), fee: fees.txFee };
    case 'avm.CreateAssetTx':
      return { base: tx.baseTx, imported: [], exported: [], fee: fees.createAssetTxFee };
    default:
      throw new Refusal(`unsupported transaction type ${tx._type}`);
  }
}

/** avax.VerifyTx: inputs sorted and unique, and per asset they cover the outputs plus the fee in AVAX. */
function flowCheck(ledger: Ledger, ins: readonly TransferableInput[], outs: readonly TransferableOutput[], fee: bigint): void {
  const balance = new Map<string, bigint>([[ledger.avaxAssetID, -fee]]);
  for (const out of outs) balance.set(out.getAssetId(), (balance.get(out.getAssetId()) ?? 0n) - out.amount());
  for (const input of ins) balance.set(input.getAssetId(), (balance.get(input.getAssetId()) ?? 0n) + input.amount());
  if ([...balance.values()].some((amount) => amount < 0n)) throw new Refusal(TEXTS.insufficientFunds);
}

function syntactic(ledger: Ledger, decoded: DecodedTx, parts: Parts): void {
  const base = parts.base;
  if (base.NetworkId.value() !== ledger.networkID) throw new Refusal(TEXTS.wrongNetworkID);
  if (base.BlockchainId.toString() !== ledger.chainIDs.X) throw new Refusal(TEXTS.wrongChainID);
  if (base.memo.length > MAX_MEMO) throw new Refusal(TEXTS.memoTooLarge(base.memo.length, MAX_MEMO));
  const tx = decoded.tx as unknown as { _type: string };
  if (tx._type === 'avm.ImportTx' && parts.imported.length === 0) throw new Refusal(TEXTS.noImportInputs);
  if (tx._type === 'avm.ExportTx' && parts.exported.length === 0) throw new Refusal(TEXTS.noExportOutputs);
  if (tx._type === 'avm.CreateAssetTx') checkAsset(decoded.tx as avmSerial.CreateAssetTx);
  checkSortedUnique(base.inputs);
  checkSortedUnique(parts.imported);
  flowCheck(ledger, [...base.inputs, ...parts.imported], [...base.outputs, ...parts.exported], parts.fee);
  const inputs = base.inputs.length + parts.imported.length;
  if (decoded.credentials.length !== inputs) throw new Refusal(TEXTS.wrongNumberOfCredentials(decoded.credentials.length, inputs));
}

function checkAsset(tx: avmSerial.CreateAssetTx): void {
  const fields = tx as unknown as { name: { value(): string }; symbol: { value(): string }; denomination: { value(): number }; initialStates: unknown[] };
  const name = fields.name.value();
  const symbol = fields.symbol.value();
  if (name.length < 1) throw new Refusal(TEXTS.nameTooShort);
  if (name.length > 128) throw new Refusal(TEXTS.nameTooLong);
  if (symbol.length < 1) throw new Refusal(TEXTS.symbolTooShort);
  if (symbol.length > 4) throw new Refusal(TEXTS.symbolTooLong);
  if (fields.initialStates.length === 0) throw new Refusal(TEXTS.noFxs);
  if (fields.denomination.value() > 32) throw new Refusal(TEXTS.denominationTooLarge);
  if (name.trim() !== name) throw new Refusal(TEXTS.unexpectedWhitespace);
  if (!/^[A-Za-z0-9 ]*$/.test(name)) throw new Refusal(TEXTS.illegalName);
  if (!/^[A-Z]*$/.test(symbol)) throw new Refusal(TEXTS.illegalSymbol);
}

/** verifyTransferOfUTXO: same asset, an asset the chain knows, and the fx's spend check. */
function spendOf(ledger: Ledger, decoded: DecodedTx, input: TransferableInput, stored: StoredUtxo, credential: Uint8Array[]): void {
  if (stored.utxo.getAssetId() !== input.getAssetId()) throw new Refusal(xTransfer(TEXTS.assetIDMismatch));
  if (!ledger.assets.has(input.getAssetId())) throw new Refusal(xTransfer(TEXTS.notFound));
  try {
    verifySpend(decoded.unsignedHash, input.input, credential, stored.utxo, ledger.time);
  } catch (error) {
    throw new Refusal(xTransfer((error as Error).message));
  }
}

export function verifyX(ledger: Ledger, decoded: DecodedTx): Effects {
  const parts = partsOf(ledger, decoded);
  syntactic(ledger, decoded, parts);
  const utxos = ledger.chains.X.utxos;
  const consumed: string[] = [];
  parts.base.inputs.forEach((input: TransferableInput, i: number) => {
    const id = inputID(input.utxoID.txID.toBytes(), input.utxoID.outputIdx.value());
    const stored = utxos.get(id);
    if (!stored) throw new Refusal(xMissingUtxo(id));
    spendOf(ledger, decoded, input, stored, decoded.credentials[i]!);
    consumed.push(id);
  });
  for (const out of [...parts.base.outputs, ...parts.exported]) {
    if (!ledger.assets.has(out.getAssetId())) throw new Refusal(`failed to verify fx usage: ${TEXTS.notFound}`);
  }
  const effects: Effects = { consumed, produced: outputsOf('X', decoded, parts.base.outputs) };
  if (parts.source !== undefined) {
    const memory = ledger.shared.get(ledger.chainIDs.X);
    const ids = parts.imported.map((input, i) => {
      const id = inputID(input.utxoID.txID.toBytes(), input.utxoID.outputIdx.value());
      const stored = memory?.get(id);
      if (!stored || stored.source !== parts.source) throw new Refusal(TEXTS.notFound);
      spendOf(ledger, decoded, input, stored, decoded.credentials[parts.base.inputs.length + i]!);
      return id;
    });
    effects.imported = { source: parts.source, ids };
  }
  if (parts.destination !== undefined) {
    const exported = outputsOf('X', decoded, parts.exported, parts.base.outputs.length).map(([id, stored]): [string, AtomicUtxo] => [id, { ...stored, source: ledger.chainIDs.X }]);
    effects.exported = { destination: parts.destination, utxos: exported };
  }
  if ((decoded.tx as unknown as { _type: string })._type === 'avm.CreateAssetTx') createAsset(decoded, effects, parts.base.outputs.length);
  return effects;
}

/** The asset is the transaction's ID; each initial state's outputs become UTXOs after the transaction's own outputs. */
function createAsset(decoded: DecodedTx, effects: Effects, offset: number): void {
  const fields = decoded.tx as unknown as { name: { value(): string }; symbol: { value(): string }; denomination: { value(): number }; initialStates: { fxId: Int; outputs: unknown[] }[] };
  const asset = { id: decoded.id, name: fields.name.value(), symbol: fields.symbol.value(), denomination: fields.denomination.value(), fxs: fields.initialStates.map((s) => s.fxId.value()) };
  const txID = utils.base58check.decode(decoded.id);
  let index = offset;
  for (const state of fields.initialStates) {
    for (const output of state.outputs) {
      const utxo = new Utxo(new avaxSerial.UTXOID(new Id(txID), new Int(index)), new Id(txID), output as never);
      effects.produced.push([inputID(txID, index), { utxo, bytes: utxoBytes('X', utxo) }]);
      index++;
    }
  }
  effects.apply = (ledger) => ledger.assets.set(asset.id, asset);
}
