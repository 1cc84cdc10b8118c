/**
 * Block bytes as the chains encode them, so a block's ID is the node's hash of its bytes. X: avm StandardBlock
 * (vms/avm/block/standard_block.go; type ID 20, after the 5 tx types and three fxs of 5 types each). P: Banff
 * standard block (vms/platformvm/block/; type ID 32). Transactions inside are their signed bytes without their own
 * codec version.
 */
import type { ChainName } from './codec.ts';
import { fromCb58, hashID, withoutCodecVersion } from './codec.ts';

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export function blockBytes(chain: ChainName, parentID: string, height: number, timestamp: bigint, txs: Uint8Array[]): Uint8Array {
  const codec = new Uint8Array(2);
  const body = [u32(txs.length), ...txs.map(withoutCodecVersion)];
  if (chain === 'X') return concat([codec, u32(20), fromCb58(parentID), u64(BigInt(height)), u64(timestamp), new Uint8Array(32), ...body]);
  return concat([codec, u32(32), u64(timestamp), fromCb58(parentID), u64(BigInt(height)), ...body]);
}

export const blockID = hashID;
