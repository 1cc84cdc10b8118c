/**
 * The sender of a signed Ethereum transaction, as types.Sender recovers it, checksummed as common.Address.Hex writes
 * it: coreth's txpool names the sender in some refusals (core/txpool/validation.go), and the engine's texts do not.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1';

const toBig = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`));

/** EIP-55: a hex digit is upper case where the keccak of the lower-case address has a nibble of 8 or more. */
export function checksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  let out = '0x';
  for (let i = 0; i < lower.length; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i];
  return out;
}

/** The checksummed sender of `raw` (0x-hex of a legacy or typed transaction), or undefined when it has none. */
export function transactionSender(raw: string): string | undefined {
  try {
    const bytes = Buffer.from(raw.slice(2), 'hex');
    let fields: Uint8Array[];
    let signing: Uint8Array;
    let recovery: bigint;
    if (bytes[0]! >= 0xc0) {
      fields = RLP.decode(bytes) as Uint8Array[];
      const v = toBig(fields[6]!);
      const unsigned = fields.slice(0, 6);
      // EIP-155 signs [..., chainId, 0, 0]; a transaction before it signs the six fields.
      signing = RLP.encode(v >= 35n ? [...unsigned, (v - 35n) / 2n, new Uint8Array(), new Uint8Array()] : unsigned);
      recovery = v >= 35n ? (v - 35n) % 2n : v - 27n;
    } else {
      fields = RLP.decode(bytes.subarray(1)) as Uint8Array[];
      recovery = toBig(fields[fields.length - 3]!);
      signing = Buffer.concat([bytes.subarray(0, 1), RLP.encode(fields.slice(0, -3))]);
    }
    const [r, s] = fields.slice(-2).map(toBig) as [bigint, bigint];
    const key = new secp256k1.Signature(r, s)
      .addRecoveryBit(Number(recovery))
      .recoverPublicKey(keccak_256(signing))
      .toRawBytes(false);
    return checksumAddress(`0x${Buffer.from(keccak_256(key.subarray(1)).subarray(12)).toString('hex')}`);
  } catch {
    return undefined;
  }
}
