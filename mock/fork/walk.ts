/** Reading the source by method name, and walking a decoded transaction for what it names. */
import { JsonRpcError } from '../../generated/client/dist/index.js';
import { EMPTY_ID } from '../world/networks.ts';
import type { Utxo, UtxoChain } from '../world/types.ts';
import type { Clients } from './clients.ts';
import { hexBytes, utxoFrom } from './convert.ts';

type Params = Record<string, unknown>;

/** A call to the source by method name, its JSON-RPC error rethrown with the source's message and code. */
export function ask(client: object, method: string, params: Params): Promise<unknown> {
  const call = (client as Record<string, (p: Params) => Promise<unknown>>)[method];
  if (typeof call !== 'function') return Promise.reject(new Error(`the fork cannot read ${method} from its source`));
  return call.call(client, params);
}

/**
 * Whether the source refused a call (a JSON-RPC error: an ID it does not know...), rather than failing to answer or
 * answering what the fork cannot read.
 */
export const refusedBySource = (error: unknown): boolean => error instanceof JsonRpcError;

/** What `read` makes of a source's answer; its failure (bytes that are no transaction...) is the source's, named. */
export function fromSource<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(`the fork source answered ${what} that the mock cannot read: ${(error as Error).message}`);
  }
}

/**
 * An error of reading the source, for the caller: an answer of a shape the fork trusted (a missing list, a number that
 * is none) surfaces as a TypeError, SyntaxError or RangeError, named here as the source's; any other as it is.
 */
export function sourceError(url: string, error: unknown): unknown {
  if (!(error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError)) return error;
  return new Error(`the fork source ${url} answered what the mock cannot read: ${error.message}`, { cause: error });
}

const PAGE = 1024;

/**
 * Every UTXO of an address at the source, on its chain or (with `sourceChain`) in its shared memory, page by page. A
 * UTXO a later page repeats is kept once (the node restarts a page at its cursor's address); a full page that brings
 * nothing new or keeps its cursor would be asked for again forever, so it is the source's error.
 */
export async function utxosAt(
  c: Clients,
  chain: UtxoChain | 'C',
  address: string,
  sourceChain?: string,
): Promise<Utxo[]> {
  const utxos = new Map<string, Utxo>();
  let startIndex: unknown;
  for (;;) {
    const page = (await ask(chain === 'P' ? c.p : chain === 'X' ? c.x : c.cAvax, 'getUTXOs', {
      addresses: [address],
      limit: PAGE,
      encoding: 'hex',
      ...(sourceChain ? { sourceChain } : {}),
      ...(startIndex ? { startIndex } : {}),
    })) as { utxos?: unknown; endIndex?: unknown } | null;
    const list = page?.utxos;
    if (!Array.isArray(list)) throw new Error(`the fork source answered getUTXOs of ${address} without a utxos list`);
    const before = utxos.size;
    // The C-Chain's atomic codec numbers the secp256k1fx outputs as the X-Chain's does.
    for (const text of list) {
      const utxo = fromSource('a UTXO', () => utxoFrom(chain === 'C' ? 'X' : chain, hexBytes(text)));
      utxos.set(utxo.key, utxo);
    }
    if (list.length < PAGE) return [...utxos.values()];
    const moved = page!.endIndex !== undefined && JSON.stringify(page!.endIndex) !== JSON.stringify(startIndex);
    if (!moved || utxos.size === before)
      throw new Error(`the fork source answered getUTXOs of ${address} with a full page that does not move on`);
    startIndex = page!.endIndex;
  }
}

/** The subnet IDs a decoded transaction names (`subnetID` fields, the Primary Network's left out). */
export function collectSubnets(value: unknown, ids: Set<string>, depth: number): void {
  if (!value || typeof value !== 'object' || depth > 4) return;
  for (const [key, field] of Object.entries(value)) {
    if (/^subnet(ID|Id)$/.test(key) && field && typeof (field as object).toString === 'function') {
      const id = String(field);
      if (id !== EMPTY_ID) ids.add(id);
    } else collectSubnets(field, ids, depth + 1);
  }
}

/** The owners (40-hex) of every output in a decoded transaction. */
export function collectOwners(value: unknown, owners: Set<string>, depth: number): void {
  if (!value || typeof value !== 'object' || depth > 6) return;
  if (Array.isArray(value)) {
    for (const item of value) collectOwners(item, owners, depth + 1);
    return;
  }
  const o = value as { _type?: string; outputOwners?: { addrs?: { toBytes(): Uint8Array }[] } };
  if (o._type === 'secp256k1fx.TransferOutput' && o.outputOwners?.addrs) {
    for (const a of o.outputOwners.addrs) owners.add(Buffer.from(a.toBytes()).toString('hex'));
    return;
  }
  for (const key of Object.keys(value)) collectOwners((value as Record<string, unknown>)[key], owners, depth + 1);
}
