// avalanchejs 5.2.0 ships declarations whose relative imports have no file extensions, which NodeNext resolution
// cannot follow (every member reads as missing). Its API is therefore declared loosely here; the tests exercise it.
declare module '@avalabs/avalanchejs' {
  // biome-ignore lint/suspicious/noExplicitAny: see above
  type Loose = any;
  export const avm: Loose;
  export const pvm: Loose;
  export const avaxSerial: Loose;
  export const avmSerial: Loose;
  export const pvmSerial: Loose;
  export const utils: Loose;
  export const secp256k1: Loose;
  export const networkIDs: Loose;
  export const Context: Loose;
  export const Id: Loose;
  export const Int: Loose;
  export const BigIntPr: Loose;
  export const Utxo: Loose;
  export const OutputOwners: Loose;
  export const TransferOutput: Loose;
  export const TransferableOutput: Loose;
  export const TransferableInput: Loose;
  export const Address: Loose;
  export const addTxSignatures: Loose;
  export const Credential: Loose;
  export const Signature: Loose;
  export const UnsignedTx: Loose;
  export const Stringpr: Loose;
  export const Bytes: Loose;
  export type Utxo = Loose;
  export type Id = Loose;
  export type Int = Loose;
  export type TransferableOutput = Loose;
  export type TransferableInput = Loose;
  export namespace Common {
    type Transaction = Loose;
  }
  export namespace avaxSerial {
    type UTXOID = Loose;
    type SignedTx = Loose;
  }
  export namespace avmSerial {
    type BaseTx = Loose;
    type CreateAssetTx = Loose;
  }
}
