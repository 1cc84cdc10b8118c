/**
 * eth_sendRawTransaction's decoding of the signed bytes as libevm's Transaction.UnmarshalBinary does it (core/types/
 * transaction.go): a first byte over 0x7f is a legacy tx, rlp-decoded into a LegacyTx; anything else is a typed
 * envelope (decodeTyped: "typed transaction too short", "transaction type not supported", then its body rlp-decoded
 * into the type's struct). Only the refusals of the transaction's shape are answered here, in rlp's words (rlp/
 * decode.go decodeStruct, DecodeBytes); bytes whose Go error this does not reproduce (a non-canonical size or integer,
 * an element of the wrong kind, a blob tx's body) are left to the engine.
 */

/** The Go type of a field: uint64, *big.Int, *common.Address (`rlp:"nil"`), []byte, a list (AccessList). */
type Field = 'u64' | 'big' | 'address' | 'bytes' | 'list';

/** Each struct's fields in rlp order. */
const LEGACY: Field[] = ['u64', 'big', 'u64', 'address', 'big', 'bytes', 'big', 'big', 'big'];
const STRUCTS: Record<number, { name: string; fields: Field[] }> = {
  1: {
    name: 'types.AccessListTx',
    fields: ['big', 'u64', 'big', 'u64', 'address', 'big', 'bytes', 'list', 'big', 'big', 'big'],
  },
  2: {
    name: 'types.DynamicFeeTx',
    fields: ['big', 'u64', 'big', 'big', 'u64', 'address', 'big', 'bytes', 'list', 'big', 'big', 'big'],
  },
};
const BLOB_TX = 0x03;

/** One RLP item: whether it is a list, whether it has a header (a lone byte under 0x80 has none), its content. */
interface Item {
  list: boolean;
  header: boolean;
  start: number;
  end: number;
}

/** The item at `at`, within `limit`; undefined when its size is non-canonical or runs past the limit. */
function itemAt(bytes: Uint8Array, at: number, limit: number): Item | undefined {
  const b = bytes[at]!;
  if (b < 0x80) return { list: false, header: false, start: at, end: at + 1 };
  const list = b >= 0xc0;
  const short = b - (list ? 0xc0 : 0x80);
  let start = at + 1;
  let size = short;
  if (short > 55) {
    const sizeBytes = short - 55;
    if (start + sizeBytes > limit || bytes[start] === 0) return undefined;
    size = 0;
    for (let i = 0; i < sizeBytes; i++) size = size * 256 + bytes[start + i]!;
    if (size < 56) return undefined;
    start += sizeBytes;
  } else if (!list && size === 1 && (bytes[start] ?? 0x80) < 0x80) return undefined;
  if (start + size > limit) return undefined;
  return { list, header: true, start, end: start + size };
}

/** Whether `item` decodes into a field of `kind` without an error (canonical integers, 0 or 20 address bytes). */
function fits(bytes: Uint8Array, item: Item, kind: Field): boolean {
  if (kind === 'list' || item.list) return kind === 'list' && item.list;
  const size = item.end - item.start;
  if (kind === 'bytes') return true;
  if (kind === 'address') return size === 0 || size === 20;
  // An integer has no leading zero byte (a lone 0x00 is a non-canonical zero); a uint64 at most 8 bytes.
  if (size > 0 && bytes[item.start] === 0) return false;
  return kind === 'big' || size <= 8;
}

/** rlp.DecodeBytes of `bytes` into the struct: its error, or undefined when it decodes or fails otherwise. */
function structRefusal(bytes: Uint8Array, name: string, fields: Field[]): string | undefined {
  const outer = itemAt(bytes, 0, bytes.length);
  if (!outer) return undefined;
  if (!outer.list) return `rlp: expected input list for ${name}`;
  let at = outer.start;
  for (const kind of fields) {
    if (at >= outer.end) return `rlp: too few elements for ${name}`;
    const item = itemAt(bytes, at, outer.end);
    if (!item || !fits(bytes, item, kind)) return undefined;
    at = item.end;
  }
  if (at < outer.end) return `rlp: input list has too many elements for ${name}`;
  return outer.end < bytes.length ? 'rlp: input contains more than one value' : undefined;
}

/** UnmarshalBinary's refusal of the signed bytes, as far as reproduced here. */
export function decodeRefusal(bytes: Uint8Array): string | undefined {
  if (bytes.length > 0 && bytes[0]! > 0x7f) return structRefusal(bytes, 'types.LegacyTx', LEGACY);
  if (bytes.length <= 1) return 'typed transaction too short';
  const typed = STRUCTS[bytes[0]!];
  if (typed) return structRefusal(bytes.subarray(1), typed.name, typed.fields);
  return bytes[0] === BLOB_TX ? undefined : 'transaction type not supported';
}
