/**
 * The one decoding of a signed legacy, access-list or dynamic-fee transaction's fields (0x-hex or bytes), for the
 * pool's checks (./min-tip.ts), eth_resend (./resend.ts) and the replay (./replay.ts). The engine signs a transaction
 * it sends for an impersonated account with a fake signature, r and s both the sender's address (EDR's fake
 * signature): the same transaction from the same sender hashes alike, and its sender is read from r, since it
 * recovers to no one's.
 */
import { RLP } from '@ethereumjs/rlp';
import type { AccessTuple } from './access-list-args.ts';

export interface SignedTx {
  type: number;
  /** The RLP list's fields, the signature's three last. */
  fields: Uint8Array[];
  nonce: bigint;
  /** The tip cap, and the fee cap: both the gas price of a legacy or access-list transaction. */
  tip: bigint;
  feeCap: bigint;
  gas: bigint;
  to?: string;
  value: bigint;
  data: string;
  accessList: AccessTuple[];
  /** The sender of a transaction the engine signed with an impersonated account's fake signature. */
  impersonatedBy?: string;
}

const big = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** The transaction's fields; undefined for another type or bytes that are no such transaction. */
export function decodeSigned(raw: string | Uint8Array): SignedTx | undefined {
  try {
    const bytes = typeof raw === 'string' ? Buffer.from(raw.slice(2), 'hex') : raw;
    // A typed transaction starts with its type byte; a legacy one is an RLP list (0xc0 and up).
    const type = bytes[0]! >= 0xc0 ? 0 : bytes[0]!;
    if (type > 2) return undefined;
    const fields = RLP.decode(type === 0 ? bytes : bytes.subarray(1)) as Uint8Array[];
    const body = type === 0 ? fields : fields.slice(1);
    const [nonce, first, second] = body;
    const [tip, feeCap] = type === 2 ? [big(first!), big(second!)] : [big(first!), big(first!)];
    const [gas, to, value, data] = body.slice(type === 2 ? 3 : 2);
    const list = type === 0 ? [] : (fields.at(-4) as unknown as [Uint8Array, Uint8Array[]][]);
    const [r, s] = fields.slice(-2);
    const fake = r && s && r.length <= 20 && hex(r) === hex(s);
    return {
      type,
      fields,
      nonce: big(nonce!),
      tip,
      feeCap,
      gas: big(gas!),
      ...(to!.length > 0 ? { to: hex(to!) } : {}),
      value: big(value!),
      data: hex(data!),
      accessList: list.map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) })),
      ...(fake ? { impersonatedBy: `0x${Buffer.from(r).toString('hex').padStart(40, '0')}` } : {}),
    };
  } catch {
    return undefined;
  }
}
