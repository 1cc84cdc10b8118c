/**
 * The X-Chain's verification of an issued transaction, as vms/avm/block/executor/manager.go VerifyTx runs it: the
 * syntactic verifier (vms/avm/txs/executor/syntactic_verifier.go), then the semantic one (semantic_verifier.go) on
 * the current state. Returns what accepting the transaction changes (executor.go). Operations are in ./operations.ts.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { avalanche } from '../shared/avalanche.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { atomicKey, type World } from '../world/world.ts';
import type { Utxo } from '../world/types.ts';
import { type DecodedTx, type Transaction, idText, keyOf, utxoRecord } from './codec.ts';
import { type Effects, checkSortedUnique, exportsOf, noEffects, outputsOf } from './effects.ts';
import { fxOf, operationEffects, verifyFxUsage, verifyOperations, verifyOperationsSyntax } from './operations.ts';
import { Refusal, TEXTS, xMissingUtxo, xTransfer } from './refusals.ts';
import { verifySpend } from './spend.ts';
import { checkOutputsSorted, verifyOutput, verifyTransferableInput, verifyTransferableOutput } from './syntax.ts';

const MAX_MEMO = 256;
/** The fxs the X-Chain runs (vms/avm/config: secp256k1fx, nftfx, propertyfx). */
const NUM_FXS = 3;
const avmCodec = () => avalanche().utils.getManagerForVM('AVM').getDefaultCodec();

interface Parts {
  ins: readonly TransferableInput[];
  outs: readonly TransferableOutput[];
  imported: readonly TransferableInput[];
  exported: readonly TransferableOutput[];
  ops: readonly Transaction[];
  fee: bigint;
}

/** avax.BaseTx.Verify. */
function verifyBase(world: World, base: Transaction): void {
  if (base.NetworkId.value() !== world.network.networkID) throw new Refusal(TEXTS.wrongNetworkID);
  if (idText(base.BlockchainId) !== world.chainIDs.X) throw new Refusal(TEXTS.wrongChainID);
  if (base.memo.length > MAX_MEMO) throw new Refusal(TEXTS.memoTooLarge(base.memo.length, MAX_MEMO));
}

/**
 * avax.VerifyTx: every output verified and each list sorted, every input verified and each list sorted and unique,
 * then per asset the inputs cover the outputs, plus the fee in AVAX.
 */
function verifyFlow(
  world: World,
  fee: bigint,
  insSets: readonly (readonly TransferableInput[])[],
  outsSets: readonly (readonly TransferableOutput[])[],
): void {
  const balance = new Map<string, bigint>([[world.network.avaxAssetID, -fee]]);
  const add = (assetID: string, amount: bigint) => balance.set(assetID, (balance.get(assetID) ?? 0n) + amount);
  for (const outs of outsSets) {
    for (const out of outs) {
      verifyTransferableOutput(out);
      add(out.getAssetId(), -out.amount());
    }
    checkOutputsSorted(outs, avmCodec());
  }
  for (const ins of insSets) {
    for (const input of ins) {
      verifyTransferableInput(input);
      add(input.getAssetId(), input.amount());
    }
    checkSortedUnique(ins);
  }
  for (const amount of balance.values()) if (amount < 0n) throw new Refusal(TEXTS.insufficientFunds);
}

/** The syntactic verifier: the checks of each transaction type, in the node's order. */
function syntactic(world: World, decoded: DecodedTx): Parts {
  const tx = decoded.tx;
  const base = tx.baseTx;
  const parts: Parts = {
    ins: base.inputs,
    outs: base.outputs,
    imported: [],
    exported: [],
    ops: [],
    fee: world.config.txFee,
  };
  switch (tx._type) {
    case 'avm.BaseTx':
      break;
    case 'avm.CreateAssetTx':
      checkAsset(tx);
      parts.fee = world.config.createAssetTxFee;
      break;
    case 'avm.OperationTx':
      if (tx.ops.length === 0) throw new Refusal(TEXTS.noOperations);
      parts.ops = tx.ops;
      break;
    case 'avm.ImportTx':
      if (tx.ins.length === 0) throw new Refusal(TEXTS.noImportInputs);
      parts.imported = tx.ins;
      break;
    case 'avm.ExportTx':
      if (tx.outs.length === 0) throw new Refusal(TEXTS.noExportOutputs);
      parts.exported = tx.outs;
      break;
    default:
      // The AVM codec registers exactly these five transaction types: any other fails to parse before this.
      throw new Error(`X-Chain transaction type ${tx._type} is not one the AVM codec registers`);
  }
  verifyBase(world, base);
  verifyFlow(world, parts.fee, [parts.ins, parts.imported], [parts.outs, parts.exported]);
  if (tx._type === 'avm.CreateAssetTx') checkInitialStates(tx.initialStates);
  if (tx._type === 'avm.OperationTx') verifyOperationsSyntax(parts.ins, parts.ops);
  // secp256k1fx and nftfx credentials verify nothing of their own (Credential.Verify checks only for nil).
  const inputs = parts.ins.length + parts.imported.length + parts.ops.length;
  if (decoded.credentials.length !== inputs)
    throw new Refusal(TEXTS.wrongNumberOfCredentials(decoded.credentials.length, inputs));
  return parts;
}

/** avalanchejs' Byte keeps its one byte without an accessor: its bytes are the byte. */
const denominationOf = (tx: Transaction): number => tx.denomination.toBytes()[0];

function checkAsset(tx: Transaction): void {
  const name: string = tx.name.value();
  const symbol: string = tx.symbol.value();
  if (name.length < 1) throw new Refusal(TEXTS.nameTooShort);
  if (name.length > 128) throw new Refusal(TEXTS.nameTooLong);
  if (symbol.length < 1) throw new Refusal(TEXTS.symbolTooShort);
  if (symbol.length > 4) throw new Refusal(TEXTS.symbolTooLong);
  if (tx.initialStates.length === 0) throw new Refusal(TEXTS.noFxs);
  if (denominationOf(tx) > 32) throw new Refusal(TEXTS.denominationTooLarge);
  if (name.trim() !== name) throw new Refusal(TEXTS.unexpectedWhitespace);
  if (!/^[A-Za-z0-9 ]*$/.test(name)) throw new Refusal(TEXTS.illegalName);
  if (!/^[A-Z]*$/.test(symbol)) throw new Refusal(TEXTS.illegalSymbol);
}

/** InitialState.Verify for each state (outputs sorted by codec bytes), then the states sorted by fx index, unique. */
function checkInitialStates(states: readonly Transaction[]): void {
  const codec = avmCodec();
  let previousFx = -1;
  for (const state of states) {
    const fx: number = state.fxId.value();
    if (fx >= NUM_FXS) throw new Refusal(TEXTS.unknownFx);
    let previous: Uint8Array | undefined;
    for (const output of state.outputs) {
      verifyOutput(output);
      const key = codec.PackPrefix(output);
      if (previous && Buffer.compare(key, previous) < 0) throw new Refusal(TEXTS.outputsNotSorted);
      previous = key;
    }
  }
  for (const state of states) {
    const fx: number = state.fxId.value();
    if (fx <= previousFx) throw new Refusal(TEXTS.initialStatesNotSortedUnique);
    previousFx = fx;
  }
}

/**
 * verifyTransferOfUTXO: the UTXO's asset, the credential's fx used by the asset, and that fx's transfer check (only
 * secp256k1fx transfers; nftfx and propertyfx refuse every transfer).
 */
function transferOfUtxo(world: World, decoded: DecodedTx, input: TransferableInput, utxo: Utxo, index: number): void {
  if (utxo.assetID !== input.getAssetId()) throw new Refusal(TEXTS.assetIDMismatch);
  const fx = fxOf(decoded.credentialTypes[index]!);
  verifyFxUsage(world, fx, input.getAssetId());
  if (fx !== 0) throw new Refusal(TEXTS.cantTransfer);
  verifySpend(
    decoded.unsignedHash,
    input.input,
    decoded.credentials[index]!,
    utxo,
    world.time.get(),
    world.impersonated,
  );
}

/** The semantic verifier's BaseTx part, which every transaction type runs first. */
function semanticBase(world: World, decoded: DecodedTx, parts: Parts, effects: Effects): void {
  parts.ins.forEach((input, i) => {
    const key = keyOf(input);
    const utxo = world.utxos.X.get(key);
    if (!utxo) throw new Refusal(xMissingUtxo(cb58Encode(Buffer.from(key, 'hex'))));
    try {
      transferOfUtxo(world, decoded, input, utxo, i);
    } catch (error) {
      throw error instanceof Refusal ? new Refusal(xTransfer(error.message)) : error;
    }
    effects.consumed.push(key);
  });
  for (const out of parts.outs) {
    let fx: number;
    try {
      fx = fxOf(out.output._type);
    } catch (error) {
      throw error instanceof Refusal ? new Refusal(`failed to get fx: ${error.message}`) : error;
    }
    try {
      verifyFxUsage(world, fx, out.getAssetId());
    } catch (error) {
      throw error instanceof Refusal ? new Refusal(`failed to verify fx usage: ${error.message}`) : error;
    }
  }
}

export function verifyX(world: World, decoded: DecodedTx): Effects {
  const parts = syntactic(world, decoded);
  const effects = noEffects();
  semanticBase(world, decoded, parts, effects);
  effects.produced = outputsOf('X', decoded, parts.outs);
  const tx = decoded.tx;
  switch (tx._type) {
    case 'avm.ImportTx': {
      const source: string = idText(tx.sourceChain);
      sameSubnet(world, source);
      parts.imported.forEach((input, i) => {
        const key = atomicKey(world.chainIDs.X, keyOf(input));
        const utxo = world.atomic.get(key);
        if (!utxo || utxo.sourceChain !== source) throw new Refusal(TEXTS.notFound);
        transferOfUtxo(world, decoded, input, utxo, parts.ins.length + i);
        effects.imported.push(key);
      });
      break;
    }
    case 'avm.ExportTx': {
      const destination: string = tx.destination.toString();
      sameSubnet(world, destination);
      for (const out of parts.exported) verifyFxUsage(world, fxOf(out.output._type), out.getAssetId());
      effects.exported = exportsOf(world, 'X', decoded, parts.exported, parts.outs.length, destination);
      break;
    }
    case 'avm.CreateAssetTx':
      createAsset(decoded, effects, parts.outs.length);
      break;
    case 'avm.OperationTx':
      verifyOperations(world, decoded, parts.ops, parts.ins.length);
      operationEffects(decoded, parts.ops, effects, parts.outs.length);
      break;
  }
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
    denomination: denominationOf(tx),
    fxs: tx.initialStates.map((state: Transaction) => state.fxId.value() as number),
  };
  let index = offset;
  for (const state of tx.initialStates) {
    for (const output of state.outputs) effects.produced.push(utxoRecord('X', decoded.id, index++, decoded.id, output));
  }
  effects.apply = (world) => world.assets.set(asset.id, asset);
}
