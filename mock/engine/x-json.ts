/**
 * What the X-Chain's reads need to know of its own transaction types (vms/avm/txs): their JSON form, from the
 * writer's shared parts (./tx-json.ts), and the UTXOs each produces and spends, for the address index
 * (../world/address-txs.ts). With their verification (./x.ts, ./operations.ts), the engine is the one place that
 * knows them.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
import { FX_IDS } from '../world/networks.ts';
import type { TxUtxos } from '../world/reads.ts';
import type { Tx } from '../world/types.ts';
import { ownerOf } from './codec.ts';
import { outsOf } from './operations.ts';
import { type ChainTxJson, type Decoded, type TxJson, hexNC, id, int } from './tx-json.ts';

export const xTxJson: ChainTxJson = (json, tx) => {
  switch (tx._type) {
    case 'avm.CreateAssetTx':
      return {
        ...json.base(tx),
        name: tx.name.value(),
        symbol: tx.symbol.value(),
        denomination: tx.denomination.toBytes()[0],
        initialStates: tx.initialStates.map((state: Decoded) => ({
          fxIndex: int(state.fxId),
          fxID: FX_IDS[int(state.fxId)] ?? null,
          outputs: state.outputs.map((out: Decoded) => json.output(out)),
        })),
      };
    case 'avm.OperationTx':
      return { ...json.base(tx), operations: tx.ops.map((op: Decoded) => operation(json, op)) };
  }
  return undefined;
};

/** avm/txs.Operation: the asset, the UTXOs it spends, its fx and the fx's operation in its struct's field order. */
const operation = (json: TxJson, op: Decoded) => ({
  assetID: id(op.assetId),
  inputIDs: op.UTXOId.map((u: Decoded) => ({ txID: id(u.txID), outputIndex: int(u.outputIdx) })),
  fxID: json.fxID(op.transferOp._type),
  operation: fxOperation(json, op.transferOp),
});

function fxOperation(json: TxJson, op: Decoded) {
  switch (op._type) {
    case 'secp256k1fx.MintOperation':
      return {
        mintInput: json.input(op.input),
        mintOutput: json.output(op.mintOutput),
        transferOutput: json.output(op.transferOutput),
      };
    case 'nftfx.MintOperation':
      return {
        mintInput: json.input(op.input),
        groupID: int(op.groupId),
        payload: hexNC(op.payload.bytes),
        outputs: op.outputOwnerList.outputOwners.map((owners: Decoded) => json.owners(owners)),
      };
    case 'nftfx.TransferOperation':
      return { input: json.input(op.input), output: json.output(op.output) };
    case 'propertyfx.MintOperation':
      return {
        mintInput: json.input(op.input),
        mintOutput: json.output(op.mintOutput),
        ownedOutput: json.output(op.ownedOutput),
      };
    // burn_operation.go embeds secp256k1fx.Input: its one field, flattened.
    case 'propertyfx.BurnOperation':
      return json.input(op.input);
  }
  throw new Error(`no JSON form for operation ${op._type}`);
}

/**
 * tx.UTXOs() (the base outputs, then a CreateAssetTx's initial states' or an OperationTx's operations' outputs) and
 * the UTXOs it spends from the chain's own set (its inputs, an OperationTx's operations' InputUTXOs).
 */
export function xTxUtxos(tx: Tx): TxUtxos {
  const unsigned = avalanche()
    .utils.getManagerForVM('AVM')
    .unpack(forReading(tx.bytes), avalanche().avaxSerial.SignedTx).unsignedTx as Decoded;
  const utxo = (assetID: string, out: Decoded) => ({ assetID, addresses: ownerOf(out)?.addresses ?? [] });
  const produced = unsigned.baseTx.outputs.map((out: Decoded) => utxo(id(out.assetId), out.output));
  const spent = unsigned.baseTx.inputs.map((input: Decoded) => input.utxoID);
  if (unsigned._type === 'avm.CreateAssetTx')
    for (const state of unsigned.initialStates) for (const out of state.outputs) produced.push(utxo(tx.id, out));
  if (unsigned._type === 'avm.OperationTx')
    for (const op of unsigned.ops) {
      spent.push(...op.UTXOId);
      for (const out of outsOf(op.transferOp)) produced.push(utxo(id(op.assetId), out));
    }
  return { produced, spent: spent.map((u: Decoded) => ({ txID: id(u.txID), outputIndex: int(u.outputIdx) })) };
}
