/**
 * A C-Chain block's bytes and hash, as coreth makes them. The header is coreth's (plugin/evm/customtypes
 * HeaderSerializable, gen_header_serializable_rlp.go): Ethereum's fields to the nonce, then ExtDataHash, then the
 * optional BaseFee, ExtDataGasUsed, BlockGasCost, BlobGasUsed, ExcessBlobGas, ParentBeaconRoot, TimeMilliseconds,
 * MinDelayExcess, each written up to the last one set (an unset one before it as the empty string); no
 * WithdrawalsHash. The block's hash is its keccak-256. The bytes, as the indexer and proposervm wrap them, are RLP of
 * coreth's block layout (customtypes/block_ext.go BlockRLPFieldsForEncoding: header, transactions, uncles, Version,
 * ExtData; no withdrawals), from the block as `/ext/bc/C/rpc` answers it with full transactions, so they agree with
 * it; ExtData holds the block's atomic transactions (coreth's batch codec), as coreth puts them.
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

/** What coreth's header adds, as its JSON names them (./coreth-block.ts sets them on the engine's block). */
export interface CorethHeaderFields {
  extDataHash: Hex;
  extDataGasUsed?: Hex;
  blockGasCost?: Hex;
  timestampMilliseconds?: Hex;
  minDelayExcess?: Hex;
}

/** A block, or header, as coreth answers it: the engine's fields with coreth's hashes and header extras. */
export type CorethBlock = Omit<RpcBlock, 'transactions'> &
  CorethHeaderFields & { transactions?: RpcBlock['transactions'] };

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
/** keccak-256 as 0x-hex, natively once the engine is loaded. */
export const keccakHex = (data: Uint8Array): Hex => `0x${Buffer.from(keccak(data)).toString('hex')}`;

/** coreth's header fields in its order, the optional ones up to the last the block has. */
function headerItems(block: Omit<CorethBlock, 'hash' | 'transactions'>): Item[] {
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
    bytes(block.extDataHash),
  ];
  const optional: Array<[string | undefined, (hex: string) => Uint8Array]> = [
    [block.baseFeePerGas, quantity],
    [block.extDataGasUsed, quantity],
    [block.blockGasCost, quantity],
    [block.blobGasUsed, quantity],
    [block.excessBlobGas, quantity],
    [block.parentBeaconBlockRoot, bytes],
    [block.timestampMilliseconds, quantity],
    [block.minDelayExcess, quantity],
  ];
  let end = optional.length;
  while (end > 0 && optional[end - 1]![0] === undefined) end--;
  // An unset field before a set one is written as the empty string, as a zero quantity is.
  for (const [value, encode] of optional.slice(0, end))
    items.push(value === undefined ? new Uint8Array() : encode(value));
  return items;
}

/** coreth's header's RLP, whose keccak-256 is the block's hash (types.Header.Hash). */
export const encodeHeader = (header: Omit<CorethBlock, 'hash' | 'transactions'>): Uint8Array =>
  RLP.encode(headerItems(header));

/** coreth's block hash (types.Header.Hash). */
export const headerHash = (header: Omit<CorethBlock, 'hash' | 'transactions'>): Hex => keccakHex(encodeHeader(header));

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
  if (keccakHex(encoded) !== tx.hash)
    throw new Error(`transaction ${tx.hash} of type ${type} does not encode to its hash`);
  return encoded;
}

/**
 * coreth's block RLP, of a block with its transactions; `extData` its atomic transactions, if it has any. `hashed`:
 * the header must encode to the block's hash (all but a fork source's blocks, whose header the mock has only part of).
 * `encoded`: the header's RLP when the block's hash was just worked out from it (./coreth-block.ts), not made again.
 */
export function blockBytes(block: CorethBlock, extData?: Uint8Array, hashed = true, encoded?: Uint8Array): Uint8Array {
  const header = encoded ?? RLP.encode(headerItems(block));
  if (!encoded && hashed && keccakHex(header) !== block.hash)
    throw new Error(`block ${block.hash}'s header does not encode to its hash`);
  const txs = (block.transactions ?? []).map((tx) => {
    const encoded = transactionBytes(tx);
    // In a block's list a typed transaction is a byte string, a legacy one the list itself.
    return encoded[0]! >= 0xc0 ? (RLP.decode(encoded) as Item) : encoded;
  });
  const empty = new Uint8Array();
  return rlpList([header, RLP.encode(txs), RLP.encode([]), RLP.encode(empty), RLP.encode(extData ?? empty)]);
}

/** An RLP list of items already encoded (a header's RLP goes into its block as it was hashed). */
function rlpList(encoded: Uint8Array[]): Uint8Array {
  const payload = Buffer.concat(encoded);
  if (payload.length < 56) return Buffer.concat([Uint8Array.of(0xc0 + payload.length), payload]);
  const digits = payload.length.toString(16);
  const length = Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
  return Buffer.concat([Uint8Array.of(0xf7 + length.length), length, payload]);
}
