/**
 * A C-Chain block's bytes, as the indexer and proposervm wrap them: RLP of coreth's block layout
 * (plugin/evm/customtypes/block_ext.go BlockRLPFieldsForEncoding: header, transactions, uncles, Version, ExtData; no
 * withdrawals), built from the engine's eth_getBlockByNumber with full transactions. The header is the one the engine
 * hashed (its keccak-256 is the block's `hash`), so the bytes agree with what `/ext/bc/C/rpc` answers; ExtData holds the
 * block's atomic transactions (coreth's batch codec, one tx here), as coreth puts them.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { cb58Encode } from '../../generators/formats.ts';

type Hex = `0x${string}`;

/** A C-Chain block's ID: its hash as an ids.ID, as the node names C-Chain blocks. */
export const blockIDOf = (hash: string): string => cb58Encode(Buffer.from(hash.slice(2), 'hex'));

/** What eth_getBlockByNumber(n, true) answers, in the fields the encoding reads. */
export interface RpcBlock {
  hash: Hex;
  number: Hex;
  timestamp: Hex;
  parentHash: Hex;
  sha3Uncles: Hex;
  miner: Hex;
  stateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  logsBloom: Hex;
  difficulty: Hex;
  gasLimit: Hex;
  gasUsed: Hex;
  extraData: Hex;
  mixHash: Hex;
  nonce: Hex;
  baseFeePerGas?: Hex;
  withdrawalsRoot?: Hex;
  blobGasUsed?: Hex;
  excessBlobGas?: Hex;
  parentBeaconBlockRoot?: Hex;
  transactions: RpcTransaction[];
}

interface RpcTransaction {
  hash: Hex;
  type?: Hex;
  chainId?: Hex;
  nonce: Hex;
  gasPrice?: Hex;
  maxPriorityFeePerGas?: Hex;
  maxFeePerGas?: Hex;
  maxFeePerBlobGas?: Hex;
  gas: Hex;
  to?: Hex | null;
  value: Hex;
  input: Hex;
  accessList?: Array<{ address: Hex; storageKeys: Hex[] }>;
  blobVersionedHashes?: Hex[];
  v: Hex;
  r: Hex;
  s: Hex;
  yParity?: Hex;
}

type Item = Uint8Array | Item[];

const bytes = (hex: string): Uint8Array => Buffer.from(hex.slice(2), 'hex');
/** A quantity as RLP takes it: big-endian, no leading zeros (zero is empty). */
const quantity = (hex: string): Uint8Array => {
  const value = BigInt(hex);
  if (value === 0n) return new Uint8Array();
  const digits = value.toString(16);
  return Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
};
/** noble's keccak-256, or the engine's native one once loaded (mock/cchain/evm.ts): every block's bytes are checked. */
let keccak = (data: Uint8Array): Uint8Array => keccak_256(data);
export function useNativeKeccak(native: (data: Uint8Array) => Uint8Array): void {
  keccak = native;
}
const digest = (data: Uint8Array): Hex => `0x${Buffer.from(keccak(data)).toString('hex')}`;

/** The header's fields in geth's order, the optional ones up to the last the block has. */
function headerItems(block: RpcBlock): Item[] {
  const items: Item[] = [
    bytes(block.parentHash),
    bytes(block.sha3Uncles),
    bytes(block.miner),
    bytes(block.stateRoot),
    bytes(block.transactionsRoot),
    bytes(block.receiptsRoot),
    bytes(block.logsBloom),
    quantity(block.difficulty),
    quantity(block.number),
    quantity(block.gasLimit),
    quantity(block.gasUsed),
    quantity(block.timestamp),
    bytes(block.extraData),
    bytes(block.mixHash),
    bytes(block.nonce),
  ];
  const optional: Array<[string | undefined, (hex: string) => Uint8Array]> = [
    [block.baseFeePerGas, quantity],
    [block.withdrawalsRoot, bytes],
    [block.blobGasUsed, quantity],
    [block.excessBlobGas, quantity],
    [block.parentBeaconBlockRoot, bytes],
  ];
  for (const [value, encode] of optional) {
    if (value === undefined) break;
    items.push(encode(value));
  }
  return items;
}

const accessList = (tx: RpcTransaction): Item[] =>
  (tx.accessList ?? []).map((entry) => [bytes(entry.address), entry.storageKeys.map(bytes)]);

/** A signed transaction's canonical encoding (legacy: an RLP list; typed: the type byte then the RLP payload). */
export function transactionBytes(tx: RpcTransaction): Uint8Array {
  const type = Number(tx.type ?? '0x0');
  const to = tx.to ? bytes(tx.to) : new Uint8Array();
  // The engine reports an impersonated typed transaction's fake signature with v 27 or 28 and no yParity.
  const yParity = tx.yParity ?? (BigInt(tx.v) >= 27n ? `0x${(BigInt(tx.v) - 27n).toString(16)}` : tx.v);
  const signature = [quantity(yParity), quantity(tx.r), quantity(tx.s)];
  const common = [quantity(tx.gas), to, quantity(tx.value), bytes(tx.input)];
  let encoded: Uint8Array;
  if (type === 0)
    encoded = RLP.encode([
      quantity(tx.nonce),
      quantity(tx.gasPrice!),
      ...common,
      quantity(tx.v),
      quantity(tx.r),
      quantity(tx.s),
    ]);
  else {
    const fees =
      type === 1 ? [quantity(tx.gasPrice!)] : [quantity(tx.maxPriorityFeePerGas!), quantity(tx.maxFeePerGas!)];
    const blob = type === 3 ? [quantity(tx.maxFeePerBlobGas!), (tx.blobVersionedHashes ?? []).map(bytes)] : [];
    const payload = RLP.encode([
      quantity(tx.chainId!),
      quantity(tx.nonce),
      ...fees,
      ...common,
      accessList(tx),
      ...blob,
      ...signature,
    ]);
    encoded = Buffer.concat([Uint8Array.of(type), payload]);
  }
  if (digest(encoded) !== tx.hash)
    throw new Error(`transaction ${tx.hash} of type ${type} does not encode to its hash`);
  return encoded;
}

/** coreth's block RLP; `extData` the block's atomic transactions, if it has any. */
export function blockBytes(block: RpcBlock, extData?: Uint8Array): Uint8Array {
  const header = headerItems(block);
  const encodedHeader = RLP.encode(header);
  if (digest(encodedHeader) !== block.hash) throw new Error(`block ${block.hash}'s header does not encode to its hash`);
  const txs = block.transactions.map((tx) => {
    const encoded = transactionBytes(tx);
    // In a block's list a typed transaction is a byte string, a legacy one the list itself.
    return encoded[0]! >= 0xc0 ? (RLP.decode(encoded) as Item) : encoded;
  });
  return RLP.encode([header, txs, [], new Uint8Array(), extData ?? new Uint8Array()]);
}
