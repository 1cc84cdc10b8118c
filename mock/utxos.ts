/**
 * `avm.getUTXOs` and `platform.getUTXOs` beyond their examples: every address owns a fixed, deterministic set of
 * UTXOs (none, a few, or more than one page), listed the way the node pages them (api/common_args_responses.go):
 * sorted by address then UTXO ID, at most `limit` per page (0, omitted or above 1024 means 1024), `endIndex` naming
 * the last UTXO returned so that passing it as `startIndex` continues the listing. The bytes are the example UTXO's,
 * with this UTXO's transaction ID, output index, amount and owner written in and the checksum recomputed.
 */
import { createHash } from 'node:crypto';
import { bech32Decode, bech32Encode, cb58Decode, cb58Encode, hexDecode } from '../generators/formats.ts';
import { encodeBytes } from './keystore.ts';

const SIZES = [0, 1, 2, 5, 13, 600, 1500];
/** Codec version, tx ID, output index, asset ID, type ID 7 (secp256k1 transfer output): where the owner sits. */
const TRANSFER_OUTPUT_LENGTH = 2 + 32 + 4 + 32 + 4 + 8 + 8 + 4 + 4 + 20;

const sha256 = (...parts: Uint8Array[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

interface Utxo {
  owner: Uint8Array;
  id: Uint8Array;
  bytes: Uint8Array;
}

export interface UtxoQuery {
  addresses?: string[];
  limit?: string | number;
  startIndex?: { address: string; utxo: string };
  sourceChain?: string;
  encoding?: string;
}

export interface UtxoPage {
  numFetched: string;
  utxos: string[];
  endIndex: { address: string; utxo: string };
  encoding: string;
}

function compare(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export class UtxoSet {
  private readonly template: Uint8Array;
  private readonly cache = new Map<string, Utxo[]>();

  /**
   * @param chain - the chain's address prefix (`X`, `P`)
   * @param hrp - the network's bech32 prefix
   * @param exampleUtxo - one UTXO of the method's examples, in `hex`
   * @param resolveChain - the chain ID of a chain ID or alias, or undefined when unknown
   * @param maxPage - the most addresses a call takes (the spec's `maxItems`), which the node also caps pages at
   */
  constructor(
    private readonly chain: string,
    private readonly hrp: string,
    exampleUtxo: string,
    private readonly resolveChain: (chain: string) => string | undefined,
    private readonly maxPage: number,
  ) {
    const template = hexDecode(exampleUtxo);
    if (!template) throw new Error(`the example UTXO ${exampleUtxo.slice(0, 20)}... is not hex with a checksum`);
    this.template = template;
  }

  private owned(owner: Uint8Array, source: string): Utxo[] {
    const key = `${source}:${Buffer.from(owner).toString('hex')}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const seed = sha256(Buffer.from(`${this.chain} ${source} utxos`), owner);
    const utxos = Array.from({ length: SIZES[seed[0]! % SIZES.length]! }, (_, i) => this.utxo(owner, seed, i));
    utxos.sort((a, b) => compare(a.id, b.id));
    this.cache.set(key, utxos);
    return utxos;
  }

  private utxo(owner: Uint8Array, seed: Uint8Array, i: number): Utxo {
    const txID = sha256(seed, Buffer.from(String(i)));
    const outputIndex = txID[0]! % 4;
    const bytes = Buffer.from(this.template);
    txID.copy(bytes, 2);
    bytes.writeUInt32BE(outputIndex, 34);
    if (bytes.length === TRANSFER_OUTPUT_LENGTH && bytes.readUInt32BE(70) === 7) {
      bytes.writeBigUInt64BE(BigInt(1 + (txID.readUInt32BE(4) % 5_000_000)) * 1_000_000n, 74);
      Buffer.from(owner).copy(bytes, TRANSFER_OUTPUT_LENGTH - 20);
    }
    // The UTXO ID is the transaction ID prefixed with the output index, hashed (ids.ID.Prefix).
    const index = Buffer.alloc(8);
    index.writeBigUInt64BE(BigInt(outputIndex));
    return { owner, id: sha256(index, txID), bytes };
  }

  /** avax.ParseServiceAddress: a raw cb58 short ID, or a bech32 address of this chain and network. */
  private parseAddress(address: string): Uint8Array {
    const shortID = cb58Decode(address);
    if (shortID?.length === 20) return shortID;
    const fail = (reason: string) => new Error(`couldn't parse address ${JSON.stringify(address)}: ${reason}`);
    const dash = address.indexOf('-');
    if (dash < 0) throw fail('no separator found in address');
    const decoded = bech32Decode(address.slice(dash + 1));
    if (!decoded || decoded.payload.length !== 20) throw fail('invalid address');
    const alias = address.slice(0, dash);
    const chainID = this.resolveChain(alias);
    if (!chainID) throw fail(`there is no ID with alias: ${alias}`);
    if (decoded.hrp !== this.hrp) throw fail(`expected hrp ${JSON.stringify(this.hrp)} but got ${JSON.stringify(decoded.hrp)}`);
    const ownID = this.resolveChain(this.chain);
    if (chainID !== ownID) throw fail(`mismatched chainIDs: expected ${JSON.stringify(ownID)} but got ${JSON.stringify(chainID)}`);
    return decoded.payload;
  }

  page(query: UtxoQuery): UtxoPage {
    const addresses = query.addresses ?? [];
    if (addresses.length === 0) throw new Error('no addresses provided');
    if (addresses.length > this.maxPage) throw new Error(`number of addresses given, ${addresses.length}, exceeds maximum, ${this.maxPage}`);
    let source = '';
    if (query.sourceChain) {
      const id = this.resolveChain(query.sourceChain);
      if (!id) throw new Error(`problem parsing source chainID ${JSON.stringify(query.sourceChain)}: there is no ID with alias: ${query.sourceChain}`);
      source = id;
    }
    const owners = [...new Map(addresses.map((a) => this.parseAddress(a)).map((o) => [Buffer.from(o).toString('hex'), o])).values()].sort(compare);
    const requested = Number(query.limit ?? 0);
    const limit = requested === 0 || requested > this.maxPage ? this.maxPage : requested;
    const start = query.startIndex ? { owner: this.parseAddress(query.startIndex.address), id: cb58Decode(query.startIndex.utxo) ?? new Uint8Array(32) } : undefined;
    const page: Utxo[] = [];
    for (const owner of owners) {
      if (page.length === limit) break;
      if (start && compare(owner, start.owner) < 0) continue;
      for (const utxo of this.owned(owner, source)) {
        if (page.length === limit) break;
        if (start && compare(owner, start.owner) === 0 && compare(utxo.id, start.id) <= 0) continue;
        page.push(utxo);
      }
    }
    const encoding = (query.encoding ?? 'hex').toLowerCase();
    const last = page[page.length - 1];
    const endOwner = last?.owner ?? start?.owner ?? new Uint8Array(20);
    const endID = last?.id ?? start?.id ?? new Uint8Array(32);
    return {
      numFetched: String(page.length),
      utxos: page.map((utxo) => encodeBytes(utxo.bytes, encoding)),
      endIndex: { address: `${this.chain}-${bech32Encode(this.hrp, endOwner)}`, utxo: cb58Encode(endID) },
      encoding,
    };
  }
}
