/**
 * The bounds coreth puts on a signed transaction between decoding it and its pool's state checks, so that a refused
 * transaction changes nothing:
 * - SubmitTransaction's checkTxFee (graft/coreth/internal/ethapi/api.go:1783, :2145) with RPCTxFeeCap, 100 AVAX by
 *   default (plugin/evm/config/default_config.go:42), before its replay-protection check;
 * - the pool's txMaxSize, 4 × 32 KiB (core/txpool/legacypool/legacypool.go:71), ValidateTransaction's first check
 *   of the transaction itself (core/txpool/validation.go:75), after the pool's "already known".
 */
import { RLP } from '@ethereumjs/rlp';
import { decodeRefusal } from './raw-transaction-decode.ts';
import { rawTransactionRefusal } from './raw-transaction.ts';

/** RPCTxFeeCap, in ether (AVAX). */
const RPC_TX_FEE_CAP = 100;
const TX_MAX_SIZE = 4 * 32 * 1024;
const ETHER = 10n ** 18n;

const toBig = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`));

/** eth_sendRawTransaction's refusal of `raw` (0x-hex) before the pool's state: decoding, fee cap, replay, size. */
export function submitRefusal(raw: string): string | undefined {
  const bytes = Buffer.from(raw.slice(2), 'hex');
  return (
    decodeRefusal(bytes) ??
    feeCapRefusal(bytes) ??
    rawTransactionRefusal(raw) ??
    (bytes.length > TX_MAX_SIZE ? `oversized data: transaction size ${bytes.length}, limit ${TX_MAX_SIZE}` : undefined)
  );
}

/** checkTxFee of a decoded transaction: tx.GasPrice() (a fee cap for a dynamic-fee tx) × its gas over the cap. */
function feeCapRefusal(bytes: Uint8Array): string | undefined {
  const priced = priceAndGas(bytes);
  return priced ? checkTxFee(priced.price, priced.gas) : undefined;
}

/** The price and gas fields of a legacy, access-list or dynamic-fee (or blob) transaction; undefined when unread. */
function priceAndGas(bytes: Uint8Array): { price: bigint; gas: bigint } | undefined {
  try {
    if (bytes[0]! >= 0xc0) {
      const [, price, gas] = RLP.decode(bytes) as Uint8Array[];
      return { price: toBig(price!), gas: toBig(gas!) };
    }
    const fields = RLP.decode(bytes.subarray(1)) as Uint8Array[];
    if (bytes[0] === 1) return { price: toBig(fields[2]!), gas: toBig(fields[3]!) };
    return { price: toBig(fields[3]!), gas: toBig(fields[4]!) };
  } catch {
    return undefined;
  }
}

/** checkTxFee's refusal, in its words: the fee as big.Float's quotient in ether, made a float64, printed `%.2f`. */
export function checkTxFee(price: bigint, gas: bigint): string | undefined {
  const fee = goFloat64Quotient(price * gas, ETHER);
  if (!(fee.value > RPC_TX_FEE_CAP)) return undefined;
  return `tx fee (${goFixed2(fee)} ether) exceeds the configured cap (${RPC_TX_FEE_CAP.toFixed(2)} ether)`;
}

/** A float64 as mantissa × 2^exponent (exact), with its value. */
interface Float64 {
  mantissa: bigint;
  exponent: number;
  value: number;
}

const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);

/** n / d rounded to nearest, ties to even. */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twice = 2n * (n % d);
  return twice > d || (twice === d && q % 2n === 1n) ? q + 1n : q;
}

/** n / 2^shift (shift ≥ 0) rounded to nearest, ties to even. */
const roundShift = (n: bigint, shift: number) => (shift <= 0 ? n << BigInt(-shift) : roundDiv(n, 1n << BigInt(shift)));

/** m × 2^e rounded to `bits` bits of mantissa. */
function roundBits(m: bigint, e: number, bits: number): { mantissa: bigint; exponent: number } {
  const shift = bitLength(m) - bits;
  if (shift <= 0) return { mantissa: m, exponent: e };
  const rounded = roundShift(m, shift);
  return { mantissa: rounded, exponent: e + shift };
}

/**
 * new(big.Float).Quo(SetInt(n), SetInt(d)).Float64(): the quotient rounded to the operands' precision (max(bits, 64)
 * of each, as SetInt gives), then to float64's 53 bits: Go rounds twice, and so does this.
 */
function goFloat64Quotient(n: bigint, d: bigint): Float64 {
  if (n === 0n) return { mantissa: 0n, exponent: 0, value: 0 };
  const precision = Math.max(bitLength(n), bitLength(d), 64);
  // Enough quotient bits, then the remainder as a sticky bit, so one rounding to `precision` is exact.
  const shift = precision + 2 - (bitLength(n) - bitLength(d));
  const scaled = shift >= 0 ? n << BigInt(shift) : n >> BigInt(-shift);
  const quotient = scaled / d;
  const sticky = scaled % d !== 0n || (shift < 0 && n % (1n << BigInt(-shift)) !== 0n) ? 1n : 0n;
  const wide = roundBits((quotient << 1n) | sticky, -shift - 1, precision);
  const { mantissa, exponent } = roundBits(wide.mantissa, wide.exponent, 53);
  return { mantissa, exponent, value: Number(mantissa) * 2 ** exponent };
}

/** Go's `%.2f` of a float64: its exact value to two decimals, ties to even (strconv's fixed formatting). */
function goFixed2({ mantissa, exponent }: Float64): string {
  const hundredths = roundShift(mantissa * 100n, -exponent);
  const whole = hundredths / 100n;
  return `${whole}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}
