/**
 * What X- and P-Chain reads share, as the node words it: parsing service addresses (avax.ParseServiceAddress),
 * encoding bytes (formatting.Encode), UTXO pages (avax.GetPaginatedUTXOs / GetAtomicUTXOs), owners in the API's
 * form, times in Go's RFC 3339. Every function reads the world and changes nothing.
 */
import { createHash } from 'node:crypto';
import { bech32Decode, bech32Encode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { RawJson } from '../../runtime/server/rpc.ts';
import { encodeBytes } from '../shared/formatting.ts';
import { parseBech32 } from './bech32-go.ts';
import { utxoIDOf } from './codec.ts';
import { blockJson } from './json-block.ts';
import { type GoJson, writeGoJson } from './json-go.ts';
import type { Block, Encoding, Owner, Tx, Utxo, UtxoChain } from './types.ts';
import { EMPTY_ID } from './networks.ts';
import type { World } from './world.ts';

/**
 * The params a read looks at, by name: decoded JSON, whose values the read checks itself (a check is handed params the
 * schema refused, and a param the spec requires may be absent). Which names a method has, and what it answers, are the
 * generated server's: ../handlers.ts binds each read to its method there, where the generated types may be imported.
 */
export type Params<N extends string> = { readonly [K in N]?: unknown };
/**
 * A reply written as the node writes it. Its text is the node's (the wire tests hold it to that), not a value the
 * compiler can check, so it stands for whatever result the method has.
 */
export type GoReply = RawJson<never>;

/** What only the engine knows of each transaction type (../engine/handlers.ts): handed to the reads that need it. */
export interface TxTypes {
  /** The transaction's JSON form (`encoding: "json"`), its addresses on the network of `hrp`. */
  json(tx: Tx, hrp: string): GoJson;
  /** An X-Chain transaction's UTXOs and those it spends: what the address index reads (./address-txs.ts). */
  xUtxos(tx: Tx): TxUtxos;
}

export interface TxUtxos {
  /** The UTXOs it produces by output index: their asset and owners (40-hex). */
  produced: Array<{ assetID: string; addresses: string[] }>;
  /** The UTXOs it spends from the chain's own set. */
  spent: Array<{ txID: string; outputIndex: number }>;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * The node's encoding param: `hex` when absent, any letter case. A name the node does not know passes here and is
 * refused where bytes are encoded or decoded, before any answer could echo it.
 */
export function encodingOf(params: Params<'encoding'>): Encoding {
  return typeof params.encoding === 'string' && params.encoding !== ''
    ? (params.encoding.toLowerCase() as Encoding)
    : 'hex';
}

/** formatting.Encode: `hex` (with its checksum, by node:crypto: pages hash a thousand UTXOs), `hexc`, `hexnc`. */
export function encode(bytes: Uint8Array, encoding: string): string {
  if (encoding !== 'hex' && encoding !== 'hexc') return encodeBytes(bytes, encoding);
  const checksum = createHash('sha256').update(bytes).digest().subarray(28);
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  return `0x${hex}${checksum.toString('hex')}`;
}

/**
 * Each UTXO's `hex` form (`hexc` is the same text) as a JSON string with its quotes, in bytes, written once: a UTXO's
 * bytes never change, and a page is assembled from these without a string of the whole (RawJson.bytes).
 */
const hexJsonOf = new WeakMap<Utxo, Uint8Array>();

function hexJson(utxo: Utxo): Uint8Array {
  let json = hexJsonOf.get(utxo);
  if (json === undefined) hexJsonOf.set(utxo, (json = Buffer.from(`"${encode(utxo.bytes, 'hex')}"`, 'latin1')));
  return json;
}

/**
 * `decode` with its answers remembered (boundedly, strings of at most 128 characters), for answers that depend on the
 * string alone: what an ID or address decodes to never changes, and a test or a wallet sends the same ones call after
 * call. The last string is compared first: one read from a request is new, and a Map lookup hashes it whole.
 */
export function remembered<V>(decode: (text: string) => V): (text: string) => V {
  const answers = new Map<string, V>();
  let last: string | undefined;
  let lastAnswer: V;
  return (text) => {
    if (text === last) return lastAnswer;
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = decode(text);
      if (text.length > 128) return answer;
      if (answers.size >= 4096) answers.delete(answers.keys().next().value!);
      answers.set(text, answer);
    }
    last = text;
    lastAnswer = answer;
    return answer;
  };
}

const isID = remembered((text) => cb58Decode(text)?.length === 32);

type AddressForm = { shortID: string } | { alias: string; hrp: string; payload: string } | { invalid: true };

/**
 * A height param (a uint64, quoted or not) in full: the node prints a height it refuses as strconv parsed it, where
 * Number() would round one past 2^53 (18446744073709551615 to 18446744073709552000).
 */
export function heightOf(params: Params<'height'>): bigint {
  return BigInt(String(params.height ?? 0));
}

/** An ID param (cb58, 32 bytes), or undefined when it is not one. */
export function parseID(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  return isID(text) ? text : undefined;
}

const addressForm = remembered((address): AddressForm => {
  const shortID = cb58Decode(address);
  if (shortID?.length === 20) return { shortID: hex(shortID) };
  const dash = address.indexOf('-');
  if (dash < 0) return { invalid: true };
  const decoded = bech32Decode(address.slice(dash + 1));
  if (decoded?.payload.length !== 20) return { invalid: true };
  return { alias: address.slice(0, dash), hrp: decoded.hrp, payload: hex(decoded.payload) };
});

/** The last second Go's time.Time writes in JSON: MarshalJSON refuses a year past 9999 (RFC 3339 has four digits). */
export const LAST_RFC3339_SECOND = 253_402_300_799n;

/** Go's time.Time in JSON: RFC 3339 in UTC, without fractional seconds when there are none. */
export function rfc3339(seconds: bigint): string {
  if (seconds > LAST_RFC3339_SECOND) throw new Error('Time.MarshalJSON: year outside of range [0,9999]');
  return new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');
}

/** An address of this chain and network as `<chain>-<hrp>1...`. */
export function formatAddress(world: World, chain: UtxoChain, address: string): string {
  return `${chain}-${bech32Encode(world.network.hrp, Buffer.from(address, 'hex'))}`;
}

export function apiOwner(world: World, chain: UtxoChain, owner: Owner) {
  return {
    locktime: String(owner.locktime),
    threshold: String(owner.threshold),
    addresses: owner.addresses.map((a) => formatAddress(world, chain, a)),
  };
}

/** avax.ParseServiceAddress: a raw cb58 short ID, or a bech32 address of this chain and network. 40-hex out. */
export function parseServiceAddress(world: World, chain: UtxoChain, address: string): string {
  const form = addressForm(address);
  if ('shortID' in form) return form.shortID;
  if ('invalid' in form)
    throw addressError(
      address,
      address.includes('-') ? bech32Refusal(world, address) : 'no separator found in address',
    );
  const { alias, hrp, payload } = form;
  // The alias names a chain of this world at this moment (admin.aliasChain adds aliases): looked up every time.
  const chainID = world.chainID(alias);
  if (!chainID) throw addressError(address, `there is no ID with alias: ${alias}`);
  if (hrp !== world.network.hrp)
    throw addressError(address, `expected hrp ${JSON.stringify(world.network.hrp)} but got ${JSON.stringify(hrp)}`);
  const ownID = world.chainIDs[chain];
  if (chainID !== ownID)
    throw addressError(
      address,
      `mismatched chainIDs: expected ${JSON.stringify(ownID)} but got ${JSON.stringify(chainID)}`,
    );
  return payload;
}

/**
 * Why ParseAddress refuses `<alias>-<bech32>` that is no address of 20 bytes: bech32.Decode's error first; a payload
 * of another length (ids.ToShortID) only after the alias and the HRP are checked, as Go's order has it.
 */
function bech32Refusal(world: World, address: string): string {
  const dash = address.indexOf('-');
  const [alias, text] = [address.slice(0, dash), address.slice(dash + 1)];
  let length = '';
  try {
    parseBech32(text);
  } catch (error) {
    length = (error as Error).message;
    if (!length.startsWith('invalid hash length')) return length;
  }
  if (!world.chainID(alias)) return `there is no ID with alias: ${alias}`;
  const hrp = text.toLowerCase().slice(0, text.lastIndexOf('1'));
  if (hrp !== world.network.hrp)
    return `expected hrp ${JSON.stringify(world.network.hrp)} but got ${JSON.stringify(hrp)}`;
  return length;
}

/** The node's wording of an address it cannot parse, for each reason the parser above refuses one. */
function addressError(address: string, reason: string): Error {
  return new Error(`couldn't parse address ${JSON.stringify(address)}: ${reason}`);
}

/** Every UTXO of the addresses, by address, each newest first and once (avax.GetAllUTXOs). */
export function allUtxos(world: World, chain: UtxoChain, addresses: Iterable<string>): Utxo[] {
  const seen = new Set<string>();
  const out: Utxo[] = [];
  for (const address of [...new Set(addresses)].sort()) {
    for (const utxo of world.utxosOf(chain, address)) {
      if (seen.has(utxo.key)) continue;
      seen.add(utxo.key);
      out.push(utxo);
    }
  }
  return out;
}

export const utxoRef = (utxo: Utxo) => ({ txID: utxo.txID, outputIndex: utxo.outputIndex });

/** The most addresses getUTXOs takes, and the most UTXOs a page holds (api.MaxPageSize... maxGetUTXOsAddrs). */
const MAX_UTXOS = 1024;

/**
 * How each chain's GetUTXOs wraps formatting.Encode's refusal of a UTXO: vms/avm/service.go, vms/platformvm/
 * service.go, and coreth's plugin/evm/atomic/vm/api.go (avax.getUTXOs, which pages as the others do).
 */
const ENCODE_REFUSAL: Record<UtxoChain | 'C', (utxoID: string, encoding: string) => string> = {
  X: (utxoID) => `couldn't encode UTXO ${utxoID} as string`,
  P: (utxoID, encoding) => `couldn't encode UTXO ${utxoID} as ${encoding}`,
  C: () => 'problem encoding utxo',
};

/** What `getUTXOs` reads, on every chain. */
export type UtxoPageParams = Params<'addresses' | 'limit' | 'startIndex' | 'sourceChain' | 'encoding'>;

/** A page of UTXOs as api.GetUTXOsReply: the shape of the JSON `hexPage` writes as well. */
interface UtxoPage {
  numFetched: string;
  utxos: string[];
  endIndex: { address: string; utxo: string };
  encoding: Encoding;
}

/** `avm.getUTXOs` and `platform.getUTXOs`: a page of UTXOs, of the chain or imported from `sourceChain`. */
export function utxoPage(world: World, chain: UtxoChain, params: UtxoPageParams): UtxoPage | RawJson<UtxoPage> {
  const addresses = Array.isArray(params.addresses) ? (params.addresses as string[]) : [];
  if (addresses.length === 0) throw new Error('no addresses provided');
  if (addresses.length > MAX_UTXOS)
    throw new Error(`number of addresses given, ${addresses.length}, exceeds maximum, ${MAX_UTXOS}`);
  const ownID = world.chainIDs[chain];
  let source = ownID;
  if (typeof params.sourceChain === 'string' && params.sourceChain !== '') {
    const id = world.chainID(params.sourceChain);
    if (!id)
      throw new Error(
        `problem parsing source chainID ${JSON.stringify(params.sourceChain)}: there is no ID with alias: ` +
          `${params.sourceChain}`,
      );
    source = id;
  }
  const owners = [...new Set(addresses.map((a) => parseServiceAddress(world, chain, a)))].sort();
  let startOwner = '';
  let startKey = '';
  const start = params.startIndex as { address?: string; utxo?: string } | undefined;
  if (start && (start.address || start.utxo)) {
    try {
      startOwner = parseServiceAddress(world, chain, start.address ?? '');
    } catch (error) {
      throw new Error(
        `couldn't parse start index address ${JSON.stringify(start.address ?? '')}: ${(error as Error).message}`,
      );
    }
    const id = cb58Decode(start.utxo ?? '');
    if (id?.length !== 32) throw new Error(`couldn't parse start index utxo: ${idError(start.utxo ?? '')}`);
    startKey = hex(id);
  }
  const requested = Number(params.limit ?? 0);
  const limit = !(requested > 0) || requested > MAX_UTXOS ? MAX_UTXOS : requested;
  const page: Utxo[] = [];
  const seen = new Set<string>();
  let lastOwner = startOwner;
  let lastKey = startKey;
  const atomic = source !== ownID;
  outer: for (const owner of owners) {
    if (owner < startOwner) continue;
    const from = owner === startOwner ? startKey : '';
    lastOwner = owner;
    // Both read each address's list from the start key when the list holds it, else from its head. A chain's own
    // index (avax/utxo_state.go:232 UTXOIDs) skips the start key and reads at most the requested number of IDs per
    // address, seen ones included, and ends at the last ID it read; shared memory (chains/atomic/state.go getKeys)
    // keeps the start key and ends at the last key the list gave, or the start key (none past the start address).
    const all = atomic ? world.atomicUtxosOf(ownID, source, owner) : world.utxosOf(chain, owner);
    const at = from ? all.findIndex((utxo) => utxo.key === from) : -1;
    let list: readonly Utxo[] = at < 0 ? all : all.slice(atomic ? at : at + 1);
    if (atomic) lastKey = from;
    else list = list.slice(0, limit);
    for (const utxo of list) {
      lastKey = utxo.key;
      if (seen.has(utxo.key)) continue;
      seen.add(utxo.key);
      page.push(utxo);
      if (page.length >= limit) break outer;
    }
  }
  const encoding = encodingOf(params);
  const endIndex = {
    address: formatAddress(world, chain, lastOwner || '0'.repeat(40)),
    utxo: cb58Encode(Buffer.from(lastKey || '0'.repeat(64), 'hex')),
  };
  if (encoding === 'hex' || encoding === 'hexc') return hexPage(page, endIndex, encoding);
  return {
    numFetched: String(page.length),
    utxos: page.map((utxo) => {
      try {
        return encode(utxo.bytes, encoding);
      } catch (error) {
        throw new Error(`${ENCODE_REFUSAL[chain](utxoIDOf(utxo), encoding)}: ${(error as Error).message}`);
      }
    }),
    endIndex,
    encoding,
  };
}

const COMMA = Buffer.from(',');

/**
 * A page in hex as api.GetUTXOsReply's JSON (its fields in the struct's order), from each UTXO's cached JSON: a page
 * of 1,024 is some 235 KB, which JSON.stringify, Go's escaping and the UTF-8 encoding each went over whole.
 */
function hexPage(page: Utxo[], endIndex: UtxoPage['endIndex'], encoding: Encoding): RawJson<UtxoPage> {
  const chunks: Uint8Array[] = [Buffer.from(`{"numFetched":"${page.length}","utxos":[`)];
  for (let i = 0; i < page.length; i++) {
    if (i > 0) chunks.push(COMMA);
    chunks.push(hexJson(page[i]!));
  }
  // Bech32, cb58 and `hex`/`hexc`: nothing Go would escape, so JSON.stringify writes Go's bytes.
  chunks.push(Buffer.from(`],"endIndex":${JSON.stringify(endIndex)},"encoding":${JSON.stringify(encoding)}}`));
  return RawJson.bytes(chunks);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * ids.FromString's complaint about a string that is not a cb58 ID: cb58.Decode over mr-tron/base58 v1.2.0 (its
 * errors prefixed "base58 decoding error: " since v1.10.1), then hashing.ToHash256's length check.
 */
export function idError(text: string): string {
  if (text === '') return 'base58 decoding error: zero length string';
  for (const char of text) {
    if (char.codePointAt(0)! > 127) return 'base58 decoding error: high-bit set on invalid digit';
    if (!BASE58.includes(char)) return `base58 decoding error: invalid base58 digit (${goQuotedRune(char)})`;
  }
  if (base58Length(text) < 4) return 'input string is smaller than the checksum size';
  const payload = cb58Decode(text);
  return payload ? `invalid hash length: expected 32 bytes but got ${payload.length}` : 'invalid input checksum';
}

/** How many bytes base58 digits decode to: each leading '1' a zero byte, then the number's bytes. */
function base58Length(digits: string): number {
  // Six digits or more always make 4 bytes or more (58^5 > 2^24), the only question asked.
  if (digits.length >= 6) return digits.length;
  let ones = 0;
  while (digits[ones] === '1') ones++;
  let value = 0n;
  for (const char of digits.slice(ones)) value = value * 58n + BigInt(BASE58.indexOf(char));
  let bytes = 0;
  for (; value > 0n; value >>= 8n) bytes++;
  return ones + bytes;
}

const GO_RUNE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  "'": "\\'",
  '\\': '\\\\',
};

/** An ASCII character as Go's %q writes a rune. */
function goQuotedRune(char: string): string {
  const code = char.charCodeAt(0);
  const escaped =
    GO_RUNE_ESCAPES[char] ?? (code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : char);
  return `'${escaped}'`;
}

/** `{<field>: <json>, "encoding": "json"}` written as Go writes the reply (api.GetTxReply, api.GetBlockResponse). */
function jsonReply(field: 'tx' | 'block', json: GoJson): GoReply {
  return RawJson.verbatim(`{"${field}":${writeGoJson(json)},"encoding":"json"}`);
}

/**
 * JSON replies written once per transaction's and block's bytes: bytes never change, and decoding them costs
 * milliseconds. (A world's network, so its HRP, is fixed: the bytes' owner fixes the answer.)
 */
const jsonOf = new WeakMap<Uint8Array, GoReply>();

function cachedJson(bytes: Uint8Array, build: () => GoReply): GoReply {
  let reply = jsonOf.get(bytes);
  if (!reply) jsonOf.set(bytes, (reply = build()));
  return reply;
}

/** `getTx`'s answer: the bytes in the requested encoding, or the node's JSON form of the transaction. */
export function txAnswer(
  world: World,
  tx: Tx,
  params: Params<'encoding'>,
  types: TxTypes,
): GoReply | { tx: string; encoding: Encoding } {
  const encoding = encodingOf(params);
  if (encoding === 'json') return cachedJson(tx.bytes, () => jsonReply('tx', types.json(tx, world.network.hrp)));
  return { tx: encode(tx.bytes, encoding), encoding };
}

/** `getBlock` and `getBlockByHeight` of the X- or P-Chain. */
export function blockReads(world: World, chain: UtxoChain, types: TxTypes) {
  return {
    getBlock: (p: Params<'blockID' | 'encoding'>) => {
      const id = String(p.blockID ?? EMPTY_ID);
      const block = world.blockIDs.get(id);
      if (block?.chain !== chain) throw new Error(`couldn't get block with id ${id}: not found`);
      return blockAnswer(world, block, p, id, types);
    },
    getBlockByHeight: (p: Params<'height' | 'encoding'>) => {
      const block = world.blocks[chain].at(Number(p.height ?? 0));
      if (!block) throw new Error(`couldn't get block at height ${p.height ?? 0}: not found`);
      return blockAnswer(world, block, p, block.id, types);
    },
  };
}

/** A block's answer, in the requested encoding or the node's JSON form. */
function blockAnswer(
  world: World,
  block: Block,
  params: Params<'encoding'>,
  what: string,
  types: TxTypes,
): GoReply | { block: string; encoding: Encoding } {
  const encoding = encodingOf(params);
  if (encoding === 'json') return cachedJson(block.bytes, () => jsonReply('block', blockJson(world, block, types)));
  let text: string;
  try {
    text = encode(block.bytes, encoding);
  } catch (error) {
    throw new Error(
      `couldn't encode block ${what} as ${block.chain === 'X' ? 'string' : encoding}: ${(error as Error).message}`,
    );
  }
  return { block: text, encoding };
}
