/**
 * The node's JSON form of a signed transaction (`getTx` with `encoding: "json"`): Go's marshalling of the txs.Tx
 * structs (vms/avm/txs, vms/platformvm/txs, vms/components/avax, vms/secp256k1fx), built from the world's bytes as
 * @avalabs/avalanchejs decodes them. Embedded structs are flattened in field order, integers are bare numbers,
 * owners (OutputOwners.MarshalJSON) are maps with sorted keys and addresses formatted with the chain's primary alias
 * and the network's HRP (InitCtx), `[]byte` is base64, types.JSONByteSlice is `0x` hex, a `[N]byte` array is an
 * array of numbers. The X-Chain sets each input's, output's and credential's `fxID` (txInit); the P-Chain only
 * knows secp256k1fx. The P-Chain's own transaction types (staking, subnets, L1s) are the engine's to write
 * (JsonContext.platform): a new type is added there only.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { FX_IDS } from './networks.ts';
import { type GoJson, goMap } from './json-go.ts';
import type { UtxoChain } from './types.ts';

// biome-ignore lint/suspicious/noExplicitAny: avalanchejs keeps the decoded fields private; they are read by name
export type Decoded = any;

export interface JsonContext {
  chain: UtxoChain;
  hrp: string;
  /** The JSON form of the P-Chain's own transaction types, which the engine knows (mock/engine/p-json.ts). */
  platform?: PlatformTxJson | undefined;
}

/** A P-Chain transaction type's own fields in JSON, from the writer's shared parts; undefined for another type. */
export type PlatformTxJson = (json: TxJson, tx: Decoded) => GoJson | undefined;

const SECP256K1FX = FX_IDS[0]!;
const FX_OF: Record<string, string> = {
  secp256k1fx: FX_IDS[0]!,
  nftfx: FX_IDS[1]!,
  propertyfx: FX_IDS[2]!,
};

export const hexNC = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
export const id = (value: Decoded): string => value.toString();
export const int = (value: Decoded): number => value.value();
export const big = (value: Decoded): bigint => value.value();

export class TxJson {
  private readonly ctx: JsonContext;
  constructor(ctx: JsonContext) {
    this.ctx = ctx;
  }

  /** The fx an input, output, operation or credential belongs to (txInit.getParsedFx), by its codec type. */
  private fxID(value: Decoded): string {
    if (this.ctx.chain === 'P') return SECP256K1FX;
    const fx = FX_OF[String(value._type).split('.')[0]!];
    if (!fx) throw new Error(`unknown fx of ${value._type}`);
    return fx;
  }

  /** secp256k1fx.OutputOwners.Fields: a map, so its keys come out sorted. */
  owners(owners: Decoded, extra: Record<string, GoJson> = {}): GoJson {
    const address = (a: Decoded) => `${this.ctx.chain}-${bech32Encode(this.ctx.hrp, a.toBytes())}`;
    return goMap({
      ...extra,
      addresses: owners.addrs.map(address),
      locktime: big(owners.locktime),
      threshold: int(owners.threshold),
    });
  }

  output(out: Decoded): GoJson {
    switch (out._type) {
      case 'secp256k1fx.TransferOutput':
        return this.owners(out.outputOwners, { amount: big(out.amt) });
      case 'secp256k1fx.MintOutput':
        return this.owners(out.outputOwners);
      case 'secp256k1fx.OutputOwners':
        return this.owners(out);
      // nftfx's outputs marshal their owners' fields with their own (MarshalJSON of mint_output.go,
      // transfer_output.go), the payload a types.JSONByteSlice.
      case 'nftfx.MintOutput':
        return this.owners(out.outputOwners, { groupID: int(out.groupId) });
      case 'nftfx.TransferOutput':
        return this.owners(out.outputOwners, { groupID: int(out.groupId), payload: hexNC(out.payload.bytes) });
      // propertyfx's outputs embed secp256k1fx.OutputOwners, whose MarshalJSON they take (mint_output.go,
      // owned_output.go).
      case 'propertyfx.MintOutput':
      case 'propertyfx.OwnedOutput':
        return this.owners(out.outputOwners);
      case 'pvm.StakeableLockOut':
        return { locktime: big(out.lockTime), output: this.output(out.transferOut) };
    }
    throw new Error(`no JSON form for output ${out._type}`);
  }

  input(input: Decoded): GoJson {
    switch (input._type) {
      case 'secp256k1fx.TransferInput':
        return { amount: big(input.amt), signatureIndices: input.input.values() };
      case 'secp256k1fx.Input':
        return { signatureIndices: input.values() };
      case 'pvm.StakeableLockIn':
        return { locktime: big(input.lockTime), input: this.input(input.transferableInput) };
    }
    throw new Error(`no JSON form for input ${input._type}`);
  }

  transferableOutput = (out: Decoded): GoJson => ({
    assetID: id(out.assetId),
    fxID: this.fxID(out.output._type === 'pvm.StakeableLockOut' ? out.output.transferOut : out.output),
    output: this.output(out.output),
  });

  transferableInput = (input: Decoded): GoJson => ({
    txID: id(input.utxoID.txID),
    outputIndex: int(input.utxoID.outputIdx),
    assetID: id(input.assetId),
    fxID: this.fxID(input.input._type === 'pvm.StakeableLockIn' ? input.input.transferableInput : input.input),
    input: this.input(input.input),
  });

  /** avax.BaseTx's fields, flattened into every transaction that embeds it. */
  base(tx: Decoded): Record<string, GoJson> {
    const base = tx._type === 'avax.BaseTx' ? tx : (tx.baseTx.baseTx ?? tx.baseTx);
    return {
      networkID: int(base.NetworkId),
      blockchainID: id(base.BlockchainId),
      outputs: base.outputs.map(this.transferableOutput),
      inputs: base.inputs.map(this.transferableInput),
      memo: hexNC(base.memo.bytes),
    };
  }

  validator(v: Decoded): Record<string, GoJson> {
    return { nodeID: id(v.nodeId), start: big(v.startTime), end: big(v.endTime), weight: big(v.weight) };
  }

  signer(signer: Decoded): GoJson {
    if (signer._type === 'pvm.signerEmpty') return {};
    const pop = signer._type === 'pvm.signer' ? signer.proof : signer;
    return { publicKey: hexNC(pop.publicKey), proofOfPossession: hexNC(pop.signature) };
  }

  pChainOwner(owner: Decoded): GoJson {
    return { threshold: int(owner.threshold), addresses: owner.addresses.map((a: Decoded) => cb58Encode(a.toBytes())) };
  }

  unsigned(tx: Decoded): GoJson {
    switch (tx._type) {
      case 'avm.BaseTx':
      case 'pvm.BaseTx':
        return this.base(tx);
      case 'avm.CreateAssetTx':
        return {
          ...this.base(tx),
          name: tx.name.value(),
          symbol: tx.symbol.value(),
          denomination: tx.denomination.toBytes()[0],
          initialStates: tx.initialStates.map((state: Decoded) => ({
            fxIndex: int(state.fxId),
            fxID: FX_IDS[int(state.fxId)] ?? null,
            outputs: state.outputs.map((out: Decoded) => this.output(out)),
          })),
        };
      case 'avm.OperationTx':
        return { ...this.base(tx), operations: tx.ops.map((op: Decoded) => this.operation(op)) };
      case 'avm.ImportTx':
      case 'pvm.ImportTx':
        return {
          ...this.base(tx),
          sourceChain: id(tx.sourceChain),
          importedInputs: tx.ins.map(this.transferableInput),
        };
      case 'avm.ExportTx':
      case 'pvm.ExportTx':
        return {
          ...this.base(tx),
          destinationChain: id(tx.destination),
          exportedOutputs: tx.outs.map(this.transferableOutput),
        };
    }
    const json = this.ctx.platform?.(this, tx);
    if (json === undefined) throw new Error(`no JSON form for transaction ${tx._type}`);
    return json;
  }

  /** avm/txs.Operation: the asset, the UTXOs it spends, its fx and the fx's operation in its struct's field order. */
  private operation(op: Decoded): GoJson {
    const inner = op.transferOp;
    return {
      assetID: id(op.assetId),
      inputIDs: op.UTXOId.map((u: Decoded) => ({ txID: id(u.txID), outputIndex: int(u.outputIdx) })),
      fxID: this.fxID(inner),
      operation: this.fxOperation(inner),
    };
  }

  private fxOperation(op: Decoded): GoJson {
    switch (op._type) {
      case 'secp256k1fx.MintOperation':
        return {
          mintInput: this.input(op.input),
          mintOutput: this.output(op.mintOutput),
          transferOutput: this.output(op.transferOutput),
        };
      case 'nftfx.MintOperation':
        return {
          mintInput: this.input(op.input),
          groupID: int(op.groupId),
          payload: hexNC(op.payload.bytes),
          outputs: op.outputOwnerList.outputOwners.map((owners: Decoded) => this.owners(owners)),
        };
      case 'nftfx.TransferOperation':
        return { input: this.input(op.input), output: this.output(op.output) };
      case 'propertyfx.MintOperation':
        return {
          mintInput: this.input(op.input),
          mintOutput: this.output(op.mintOutput),
          ownedOutput: this.output(op.ownedOutput),
        };
      // burn_operation.go embeds secp256k1fx.Input: its one field, flattened.
      case 'propertyfx.BurnOperation':
        return this.input(op.input);
    }
    throw new Error(`no JSON form for operation ${op._type}`);
  }

  /** `fx`: the credential's fx, from its type ID (avalanchejs decodes an nftfx credential as a secp256k1fx one). */
  credential(credential: Decoded, fx: string): GoJson {
    const json = { signatures: credential.getSignatures() as string[] };
    // The X-Chain wraps each credential in an fxs.FxCredential naming its fx.
    return this.ctx.chain === 'X' ? { fxID: fx, credential: json } : json;
  }
}

/** The AVM codec's credential type IDs (vms/avm/txs/parser.go): secp256k1fx's 9, nftfx's 14, propertyfx's 19. */
const CREDENTIAL_FX: Record<number, string> = { 9: FX_IDS[0]!, 14: FX_IDS[1]!, 19: FX_IDS[2]! };

/**
 * Each credential's fx, from the type IDs of the credentials that end the signed bytes: a count, then per credential
 * its type ID, a signature count and 65-byte signatures.
 */
function credentialFxs(bytes: Uint8Array, credentialsLength: number, count: number): string[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const fxs: string[] = [];
  let at = bytes.length - credentialsLength + 4;
  for (let i = 0; i < count; i++) {
    const typeID = view.readUInt32BE(at);
    const fx = CREDENTIAL_FX[typeID];
    if (!fx) throw new Error(`unknown credential type ${typeID}`);
    fxs.push(fx);
    at += 8 + 65 * view.readUInt32BE(at + 4);
  }
  return fxs;
}

/** A signed transaction of `chain` (codec bytes, version first) in the node's JSON form. */
export function txJson(ctx: JsonContext, bytes: Uint8Array, txID: string): GoJson {
  const manager = avalanche().utils.getManagerForVM(ctx.chain === 'X' ? 'AVM' : 'PVM');
  const signed = manager.unpack(forReading(bytes), avalanche().avaxSerial.SignedTx);
  const json = new TxJson(ctx);
  const credentials = signed.credentials as Decoded[];
  const fxs =
    ctx.chain === 'X'
      ? credentialFxs(bytes, manager.getDefaultCodec().PackPrefixList(credentials).length, credentials.length)
      : [];
  return {
    unsignedTx: json.unsigned(signed.unsignedTx),
    credentials: credentials.map((c, i) => json.credential(c, fxs[i] ?? SECP256K1FX)),
    id: txID,
  };
}
