/**
 * vms/propertyfx's types in avalanchejs' own AVM codec: avalanchejs 5.2.0 leaves type IDs 15-19 unregistered
 * (serializable/avm/codec.ts: "TODO: ...PropertyFx.TypeRegistry"), so a CreateAssetTx with a propertyfx initial state
 * or an OperationTx minting or burning a property could not be decoded. The classes below follow avalanchejs' own
 * serializables (a `_type`, `fromBytes` from the fields' readers, `toBytes` from their writers), laid out as the node's
 * structs (mint_output.go, owned_output.go, mint_operation.go, burn_operation.go, credential.go), and are registered
 * under the type IDs the node's AVM parser gives them, on the one AVM codec the mock's avalanchejs has.
 */
type Avalanche = typeof import('@avalabs/avalanchejs');
// biome-ignore lint/suspicious/noExplicitAny: avalanchejs' Codec is passed through untyped, as its own classes do
type Codec = any;
type Bytes = { toBytes(codec?: Codec): Uint8Array };

/** The AVM codec's internals: its type table is private in avalanchejs' typings, public at run time. */
interface CodecTables {
  typeIdToType: unknown[];
  typeToTypeID: Map<unknown, number>;
}

/** vms/avm/txs/parser.go: propertyfx registers after secp256k1fx (5-9) and nftfx (10-14). */
export const PROPERTY_MINT_OUTPUT = 15;
export const PROPERTY_OWNED_OUTPUT = 16;
const PROPERTY_MINT_OPERATION = 17;
const PROPERTY_BURN_OPERATION = 18;
const PROPERTY_CREDENTIAL = 19;

export function registerPropertyFx(av: Avalanche): void {
  const codec = av.utils.getManagerForVM('AVM').getDefaultCodec() as unknown as CodecTables;
  if (codec.typeIdToType[PROPERTY_MINT_OUTPUT]) return;
  const { OutputOwners, Input, Credential, utils } = av;

  /** An owners-only output (MintOutput, OwnedOutput: secp256k1fx.OutputOwners embedded). */
  const ownersOutput = (type: string) =>
    class {
      _type = type;
      readonly outputOwners: InstanceType<typeof OutputOwners>;
      constructor(outputOwners: InstanceType<typeof OutputOwners>) {
        this.outputOwners = outputOwners;
      }
      static fromBytes(bytes: Uint8Array, c: Codec): [unknown, Uint8Array] {
        const [owners, rest] = OutputOwners.fromBytes(bytes, c);
        return [new this(owners), rest];
      }
      getOutputOwners() {
        return this.outputOwners;
      }
      toBytes(c: Codec): Uint8Array {
        return this.outputOwners.toBytes(c);
      }
    };
  const MintOutput = ownersOutput('propertyfx.MintOutput');
  const OwnedOutput = ownersOutput('propertyfx.OwnedOutput');

  class MintOperation {
    _type = 'propertyfx.MintOperation';
    readonly input: InstanceType<typeof Input>;
    readonly mintOutput: InstanceType<typeof MintOutput>;
    readonly ownedOutput: InstanceType<typeof OwnedOutput>;
    constructor(
      input: InstanceType<typeof Input>,
      mintOutput: InstanceType<typeof MintOutput>,
      ownedOutput: InstanceType<typeof OwnedOutput>,
    ) {
      this.input = input;
      this.mintOutput = mintOutput;
      this.ownedOutput = ownedOutput;
    }
    static fromBytes(bytes: Uint8Array, c: Codec): [MintOperation, Uint8Array] {
      const [input, afterInput] = Input.fromBytes(bytes);
      const [mint, afterMint] = MintOutput.fromBytes(afterInput, c);
      const [owned, rest] = OwnedOutput.fromBytes(afterMint, c);
      return [
        new MintOperation(input, mint as InstanceType<typeof MintOutput>, owned as InstanceType<typeof OwnedOutput>),
        rest,
      ];
    }
    toBytes(c: Codec): Uint8Array {
      return utils.concatBytes(
        (this.input as Bytes).toBytes(c),
        this.mintOutput.toBytes(c),
        this.ownedOutput.toBytes(c),
      );
    }
  }

  class BurnOperation {
    _type = 'propertyfx.BurnOperation';
    readonly input: InstanceType<typeof Input>;
    constructor(input: InstanceType<typeof Input>) {
      this.input = input;
    }
    static fromBytes(bytes: Uint8Array): [BurnOperation, Uint8Array] {
      const [input, rest] = Input.fromBytes(bytes);
      return [new BurnOperation(input), rest];
    }
    toBytes(c: Codec): Uint8Array {
      return (this.input as Bytes).toBytes(c);
    }
  }

  const types: [number, unknown, string][] = [
    [PROPERTY_MINT_OUTPUT, MintOutput, 'propertyfx.MintOutput'],
    [PROPERTY_OWNED_OUTPUT, OwnedOutput, 'propertyfx.OwnedOutput'],
    [PROPERTY_MINT_OPERATION, MintOperation, 'propertyfx.MintOperation'],
    [PROPERTY_BURN_OPERATION, BurnOperation, 'propertyfx.BurnOperation'],
  ];
  for (const [id, type, name] of types) {
    codec.typeIdToType[id] = type;
    codec.typeToTypeID.set(name, id);
  }
  // A propertyfx credential decodes as secp256k1fx's (the same layout), as avalanchejs decodes nftfx's; the engine
  // reads each credential's fx from its type ID in the bytes (./codec.ts credentialTypesOf).
  codec.typeIdToType[PROPERTY_CREDENTIAL] = Credential;
}
