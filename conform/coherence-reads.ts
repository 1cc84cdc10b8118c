/**
 * What the coherence rows read from a node: its answers (a row is skipped when the node cannot give one it needs),
 * and a block's header, a UTXO's amount and reference from their bytes.
 */
import { createHash } from 'node:crypto';
import { Utxo, utils } from '@avalabs/avalanchejs';
import { cb58Encode, hexDecode } from '../generators/formats.ts';

/**
 * Calls a method on an endpoint path (`/ext/bc/P`): its result, or the error the node sent; `unserved`: the release
 * being checked does not serve the method (why, as notServedReason says it), and nothing was sent.
 */
export type Caller = (
  path: string,
  method: string,
  params: Record<string, unknown>,
) => Promise<{ result?: unknown; error?: { code: number; message: string }; unserved?: string }>;

export class Skip extends Error {}

export type Obj = Record<string, unknown>;
export const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
export const bytesOf = (text: unknown): Uint8Array => {
  const bytes = typeof text === 'string' ? hexDecode(text) : undefined;
  if (!bytes) throw new Error(`not hex bytes with a checksum: ${String(text).slice(0, 40)}`);
  return bytes;
};

/** The answer, result or error; a release that does not serve the method skips the row. */
export async function sent(call: Caller, path: string, method: string, params: Obj = {}) {
  const answer = await call(path, method, params);
  if (answer.unserved) throw new Skip(`${answer.unserved}: ${method}, which this row needs`);
  return answer;
}

export async function ok(call: Caller, path: string, method: string, params: Obj = {}): Promise<Obj> {
  const answer = await sent(call, path, method, params);
  if (answer.error) throw new Skip(`${method} answered an error: ${answer.error.message}`);
  return answer.result as Obj;
}

/** Parent ID and height of a block's bytes, from its type ID (platformvm Apricot 0-4 / Banff 29-32, AVM 20). */
export function blockHeader(chain: 'X' | 'P', bytes: Uint8Array): { parentID: string; height: bigint } {
  const view = Buffer.from(bytes);
  const type = view.readUInt32BE(2);
  const banff = chain === 'P' && type >= 29 && type <= 32;
  const at = banff ? 14 : 6;
  return { parentID: cb58Encode(view.subarray(at, at + 32)), height: view.readBigUInt64BE(at + 32) };
}

/** The AVAX amount of UTXOs (codec bytes): plain transfer outputs, and P-Chain stakeable.LockOut ones. */
export function amountOf(chain: 'X' | 'P', hex: string, assetID: string): bigint {
  const codec = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM').getDefaultCodec();
  const [utxo] = Utxo.fromBytes(bytesOf(hex).subarray(2), codec);
  if (utxo.getAssetId() !== assetID) return 0n;
  const output = utxo.output as { amount?: () => bigint };
  return typeof output.amount === 'function' ? output.amount() : 0n;
}

/** A UTXO's `txID:outputIndex`, from its bytes. */
export function utxoRef(hex: string): string {
  const bytes = Buffer.from(bytesOf(hex));
  return `${cb58Encode(bytes.subarray(2, 34))}:${bytes.readUInt32BE(34)}`;
}

export async function allUtxos(call: Caller, path: string, method: string, address: string): Promise<string[]> {
  const out: string[] = [];
  let startIndex: unknown;
  for (let page = 0; page < 20; page++) {
    const result = await ok(call, path, method, {
      addresses: [address],
      encoding: 'hex',
      ...(startIndex ? { startIndex } : {}),
    });
    const utxos = result.utxos as string[];
    out.push(...utxos);
    if (utxos.length < 1024) return out;
    startIndex = result.endIndex;
  }
  throw new Skip(`${address} has more than 20 pages of UTXOs`);
}
