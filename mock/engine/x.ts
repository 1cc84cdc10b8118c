/**
 * The X-Chain's verification of an issued transaction, as vms/avm/block/executor/manager.go VerifyTx runs it: the
 * syntactic verifier (vms/avm/txs/executor/syntactic_verifier.go), then the semantic one (semantic_verifier.go) on
 * the current state. Returns what accepting the transaction changes.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { cb58Encode } from '../../generators/formats.ts';
import { atomicKey, type World } from '../world/world.ts';
import type { Utxo } from '../world/types.ts';
import { type DecodedTx, keyOf, utxoRecord } from './codec.ts';
import { type Effects, checkSortedUnique, exportsOf, noEffects, outputsOf } from './effects.ts';
import { Refusal, TEXTS, xMissingUtxo, xTransfer } from './refusals.ts';
import { verifySpend } from './spend.ts';

const MAX_MEMO = 256;

interface Parts {
  ins: readonly TransferableInput[];
  outs: readonly TransferableOutput[];
  imported: readonly TransferableInput[];
  exported: readonly TransferableOutput[];
  fee: bigint;
}

function partsOf(world: World, decoded: DecodedTx): Parts {
  const tx = decoded.tx;
  const base = tx.baseTx;
  const parts: Parts = { ins: base.inputs, outs: base.outputs, imported: [], exported: [], fee: world.config.txFee };
  if (base.NetworkId.value() !== world.network.networkID) throw new Refusal(TEXTS.wrongNetworkID);
  if (base.BlockchainId.toString() !== world.chainIDs.X) throw new Refusal(TEXTS.wrongChainID);
  if (base.memo.length > MAX_MEMO) throw new Refusal(TEXTS.memoTooLarge(base.memo.length, MAX_MEMO));
  switch (tx._type) {
    case 'avm.BaseTx':
      return parts;
    case 'avm.ImportTx':
      if (tx.ins.length === 0) throw new Refusal(TEXTS.noImportInputs);
      return { ...parts, imported: tx.ins };
    case 'avm.ExportTx':
      if (tx.outs.length === 0) throw new Refusal(TEXTS.noExportOutputs);
      return { ...parts, exported: tx.outs };
    case 'avm.CreateAssetTx':
      checkAsset(tx);
      return { ...parts, fee: world.config.createAssetTxFee };
    default:
      // OperationTx (mint and NFT operations) is decoded but not executed by the mock.
      throw new Refusal(`unsupported transaction type ${tx._type}`);
  }
}

function checkAsset(tx: DecodedTx['tx']): void {
  const name: string = tx.name.value();
  const symbol: string = tx.symbol.value();
  if (name.length < 1) throw new Refusal(TEXTS.nameTooShort);
  if (name.length > 128) throw new Refusal(TEXTS.nameTooLong);
  if (symbol.length < 1) throw new Refusal(TEXTS.symbolTooShort);
  if (symbol.length > 4) throw new Refusal(TEXTS.symbolTooLong);
  if (tx.initialStates.length === 0) throw new Refusal(TEXTS.noFxs);
  if (tx.denomination.value() > 32) throw new Refusal(TEXTS.denominationTooLarge);
  if (name.trim() !== name) throw new Refusal(TEXTS.unexpectedWhitespace);
  if (!/^[A-Za-z0-9 ]*$/.test(name)) throw new Refusal(TEXTS.illegalName);
  if (!/^[A-Z]*$/.test(symbol)) throw new Refusal(TEXTS.illegalSymbol);
}

/** avax.VerifyTx's flow check: per asset, inputs cover outputs, plus the fee in AVAX. */
function flowCheck(
  world: World,
  ins: readonly TransferableInput[],
  outs: readonly TransferableOutput[],
  fee: bigint,
): void {
  const balance = new Map<string, bigint>([[world.network.avaxAssetID, -fee]]);
  for (const out of outs) balance.set(out.getAssetId(), (balance.get(out.getAssetId()) ?? 0n) - out.amount());
  for (const input of ins) balance.set(input.getAssetId(), (balance.get(input.getAssetId()) ?? 0n) + input.amount());
  for (const amount of balance.values()) if (amount < 0n) throw new Refusal(TEXTS.insufficientFunds);
}

/** verifyTransferOfUTXO: the UTXO's asset, an asset the chain knows, and the fx's spend check. */
function spend(world: World, decoded: DecodedTx, input: TransferableInput, utxo: Utxo, credential: Uint8Array[]): void {
  if (utxo.assetID !== input.getAssetId()) throw new Refusal(xTransfer(TEXTS.assetIDMismatch));
  if (!world.assets.has(input.getAssetId())) throw new Refusal(xTransfer(TEXTS.notFound));
  try {
    verifySpend(decoded.unsignedHash, input.input, credential, utxo, world.time.get());
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(xTransfer(error.message)) : error;
  }
}

export function verifyX(world: World, decoded: DecodedTx): Effects {
  const parts = partsOf(world, decoded);
  checkSortedUnique(parts.ins);
  checkSortedUnique(parts.imported);
  flowCheck(world, [...parts.ins, ...parts.imported], [...parts.outs, ...parts.exported], parts.fee);
  const inputs = parts.ins.length + parts.imported.length;
  if (decoded.credentials.length !== inputs)
    throw new Refusal(TEXTS.wrongNumberOfCredentials(decoded.credentials.length, inputs));

  const effects = noEffects();
  parts.ins.forEach((input, i) => {
    const key = keyOf(input);
    const utxo = world.utxos.X.get(key);
    if (!utxo) throw new Refusal(xMissingUtxo(cb58Encode(Buffer.from(key, 'hex'))));
    spend(world, decoded, input, utxo, decoded.credentials[i]!);
    effects.consumed.push(key);
  });
  for (const out of [...parts.outs, ...parts.exported]) {
    if (!world.assets.has(out.getAssetId())) throw new Refusal(`failed to verify fx usage: ${TEXTS.notFound}`);
  }
  effects.produced = outputsOf('X', decoded, parts.outs);
  const tx = decoded.tx;
  if (tx._type === 'avm.ImportTx') {
    const source: string = tx.sourceChain.toString();
    sameSubnet(world, source);
    parts.imported.forEach((input, i) => {
      const key = atomicKey(world.chainIDs.X, keyOf(input));
      const utxo = world.atomic.get(key);
      if (!utxo || utxo.sourceChain !== source) throw new Refusal(TEXTS.notFound);
      spend(world, decoded, input, utxo, decoded.credentials[parts.ins.length + i]!);
      effects.imported.push(key);
    });
  }
  if (tx._type === 'avm.ExportTx') {
    const destination: string = tx.destination.toString();
    sameSubnet(world, destination);
    effects.exported = exportsOf(world, 'X', decoded, parts.exported, parts.outs.length, destination);
  }
  if (tx._type === 'avm.CreateAssetTx') createAsset(decoded, effects, parts.outs.length);
  return effects;
}

/** verify.SameSubnet (vms/components/verify/subnet.go): another chain of the Primary Network. */
export function sameSubnet(world: World, chainID: string, self: 'X' | 'P' = 'X'): void {
  if (chainID === world.chainIDs[self]) throw new Refusal(TEXTS.sameChainID);
  if (chainID !== world.chainIDs.X && chainID !== world.chainIDs.P && chainID !== world.chainIDs.C)
    throw new Refusal(TEXTS.unknownPeerChain(chainID));
}

/** The asset is the transaction's ID; each initial state's outputs become UTXOs after the transaction's own outputs. */
function createAsset(decoded: DecodedTx, effects: Effects, offset: number): void {
  const tx = decoded.tx;
  const asset = {
    id: decoded.id,
    name: tx.name.value() as string,
    symbol: tx.symbol.value() as string,
    denomination: tx.denomination.value() as number,
  };
  let index = offset;
  for (const state of tx.initialStates) {
    for (const output of state.outputs) effects.produced.push(utxoRecord('X', decoded.id, index++, decoded.id, output));
  }
  effects.apply = (world) => world.assets.set(asset.id, asset);
}
