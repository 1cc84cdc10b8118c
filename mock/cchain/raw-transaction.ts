/**
 * What coreth reads from a signed Ethereum transaction before its pool: the sender, as types.Sender recovers it,
 * checksummed as common.Address.Hex writes it (the txpool names it in some refusals, core/txpool/validation.go), and
 * whether SubmitTransaction takes a transaction without EIP-155 replay protection.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ethChecksum } from '../engine/dev.ts';
import { recoverPublicKey } from '../world/signers.ts';
import { decodeRefusal } from './raw-transaction-decode.ts';

const toBig = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`));

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
    if (recovery < 0n || recovery > 3n) return undefined;
    const [r, s] = fields.slice(-2).map((field) => Buffer.from(field!).toString('hex').padStart(64, '0'));
    const signature = Buffer.from(`${r}${s}0${recovery}`, 'hex');
    const key = recoverPublicKey(keccak_256(signing), signature, false);
    return ethChecksum(Buffer.from(keccak_256(key.subarray(1)).subarray(12)).toString('hex'));
  } catch {
    return undefined;
  }
}

/** coreth's default allow-unprotected-tx-hashes (plugin/evm/config/default_config.go:18): EIP-1820's deployment. */
const ALLOWED_UNPROTECTED = new Set(['0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e']);

/**
 * SendRawTransaction's refusal of `raw` (internal/ethapi/api.go), or undefined: bytes that are no transaction
 * (./raw-transaction-decode.ts), then SubmitTransaction's (api.go:1786): a legacy transaction signed without a chain
 * ID (v 27 or 28, !tx.Protected()) is refused unless UnprotectedAllowed takes it (eth/api_backend.go: 459: a hash of
 * the allow list, or Nick's pattern, nonce 0 and r = s); allow-unprotected-txs is off by default.
 */
export function rawTransactionRefusal(raw: string): string | undefined {
  const bytes = Buffer.from(raw.slice(2), 'hex');
  const undecoded = decodeRefusal(bytes);
  if (undecoded !== undefined) return undecoded;
  if (bytes.length === 0 || bytes[0]! < 0xc0) return undefined;
  let fields: Uint8Array[];
  try {
    fields = RLP.decode(bytes) as Uint8Array[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 9) return undefined;
  const v = toBig(fields[6]!);
  if (v !== 27n && v !== 28n) return undefined;
  const hash = `0x${Buffer.from(keccak_256(bytes)).toString('hex')}`;
  if (ALLOWED_UNPROTECTED.has(hash)) return undefined;
  if (toBig(fields[0]!) === 0n && toBig(fields[7]!) === toBig(fields[8]!)) return undefined;
  return 'only replay-protected (EIP-155) transactions allowed over RPC';
}
