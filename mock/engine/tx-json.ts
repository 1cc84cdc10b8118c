/**
 * The node's JSON form of a signed transaction (`getTx`, `getBlock` with `encoding: "json"`): Go's marshalling of the
 * txs.Tx structs (vms/avm/txs, vms/platformvm/txs, vms/components/avax, vms/secp256k1fx), built from the world's bytes
 * as @avalabs/avalanchejs decodes them. Embedded structs are flattened in field order, integers are bare numbers,
 * owners (OutputOwners.MarshalJSON) are maps with sorted keys and addresses formatted with the chain's primary alias
 * and the network's HRP (InitCtx), `[]byte` is base64, types.JSONByteSlice is `0x` hex, a `[N]byte` array is an
 * array of numbers. The X-Chain sets each input's, output's and credential's `fxID` (txInit); the P-Chain only
 * knows secp256k1fx. Here are the parts the chains share; each chain's own transaction types are its file's
 * (./x-json.ts, ./p-json.ts), where a new type is added.
 */
import { avalanche, forReading } from '../shared/avalanche.ts';
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { FX_IDS } from '../world/networks.ts';
import { type GoJson, goMap } from '../world/json-go.ts';
import type { Tx, UtxoChain } from '../world/types.ts';
import { credentialTypesOf } from './codec.ts';
import { fxOf } from './operations.ts';

// biome-ignore lint/suspicious/noExplicitAny: avalanchejs keeps the decoded fields private; they are read by name
export type Decoded = any;

/** A chain's own transaction types in JSON, from the writer's shared parts; undefined for another type. */
export type ChainTxJson = (json: TxJson, tx: Decoded) => GoJson | undefined;

const SECP256K1FX = FX_IDS[0]!;

export const hexNC = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
export const id = (value: Decoded): string => value.toString();
export const int = (value: Decoded): number => value.value();
export const big = (value: Decoded): bigint => value.value();

export class TxJson {
  private readonly chain: UtxoChain;
  private readonly hrp: string;
  private readonly own: ChainTxJson;
  constructor(chain: UtxoChain, hrp: string, own: ChainTxJson) {
    this.chain = chain;
    this.hrp = hrp;
    this.own = own;
  }

  /** The fx an input, output, operation or credential belongs to (txInit.getParsedFx); the P-Chain has one. */
  fxID(type: string): string {
    return this.chain === 'P' ? SECP256K1FX : FX_IDS[fxOf(type)]!;
  }

  /** secp256k1fx.OutputOwners.Fields: a map, so its keys come out sorted. */
  owners(owners: Decoded, extra: Record<string, GoJson> = {}): GoJson {
    const address = (a: Decoded) => `${this.chain}-${bech32Encode(this.hrp, a.toBytes())}`;
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
    fxID: this.fxID(out.output._type),
    output: this.output(out.output),
  });

  transferableInput = (input: Decoded): GoJson => ({
    txID: id(input.utxoID.txID),
    outputIndex: int(input.utxoID.outputIdx),
    assetID: id(input.assetId),
    fxID: this.fxID(input.input._type),
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
    const json = this.own(this, tx);
    if (json === undefined) throw new Error(`no JSON form for transaction ${tx._type}`);
    return json;
  }

  /** `type`: the credential's, from its type ID (avalanchejs decodes an nftfx credential as a secp256k1fx one). */
  credential(credential: Decoded, type: string): GoJson {
    const json = { signatures: credential.getSignatures() as string[] };
    // The X-Chain wraps each credential in an fxs.FxCredential naming its fx.
    return this.chain === 'X' ? { fxID: this.fxID(type), credential: json } : json;
  }
}

/** A signed transaction in the node's JSON form, its chain's own types written by `own`. */
export function txJson(tx: Tx, hrp: string, own: ChainTxJson): GoJson {
  const manager = avalanche().utils.getManagerForVM(tx.chain === 'X' ? 'AVM' : 'PVM');
  const signed = manager.unpack(forReading(tx.bytes), avalanche().avaxSerial.SignedTx);
  const json = new TxJson(tx.chain, hrp, own);
  const credentials = signed.credentials as Decoded[];
  const unsignedLength = tx.bytes.length - manager.getDefaultCodec().PackPrefixList(credentials).length;
  const types = credentialTypesOf(tx.chain, tx.bytes, unsignedLength, credentials.length);
  return {
    unsignedTx: json.unsigned(signed.unsignedTx),
    credentials: credentials.map((c, i) => json.credential(c, types[i]!)),
    id: tx.id,
  };
}
