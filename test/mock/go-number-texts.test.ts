/** Go's texts the mock reproduces by hand: formatting.Decode's errors and checkTxFee's `%.2f` of a big.Float quotient. */
import { describe, expect, it } from 'vitest';
import { checkTxFee } from '../../mock/cchain/submit-limits.ts';
import { decodeBytes } from '../../mock/shared/formatting.ts';

const ETHER = 10n ** 18n;

describe('decodeBytes (utils/formatting Decode)', () => {
  it.each([
    ['', 'hex', ''],
    ['0x', 'hexnc', ''],
    ['0x00', 'hexnc', '00'],
  ])('decodes %j in %s', (text, encoding, hex) => {
    expect(Buffer.from(decodeBytes(text, encoding)).toString('hex')).toBe(hex);
  });

  it.each([
    ['00', 'hex', 'missing 0x prefix to hex encoding'],
    ['0x0g', 'hexnc', "encoding/hex: invalid byte: U+0067 'g'"],
    // The first bad byte is named before an odd length; a byte is a rune of its own, printable or not as Go says.
    ['0xz', 'hexnc', "encoding/hex: invalid byte: U+007A 'z'"],
    ['0x0\n', 'hexnc', 'encoding/hex: invalid byte: U+000A'],
    ['0x\u00e9', 'hexnc', "encoding/hex: invalid byte: U+00C3 'Ã'"],
    ['0x\u00a0', 'hexnc', "encoding/hex: invalid byte: U+00C2 'Â'"],
    ['0x0', 'hexnc', 'encoding/hex: odd length hex string'],
    ['0x000000', 'hex', 'input string is smaller than the checksum size'],
    ['0x00000000', 'hex', 'invalid input checksum'],
    ['0x00', 'json', 'unsupported encoding in method'],
  ])('refuses %j in %s: %s', (text, encoding, message) => {
    expect(() => decodeBytes(text, encoding)).toThrow(new Error(message));
  });
});

describe('checkTxFee (internal/ethapi/api.go)', () => {
  it.each([
    [100n * ETHER, 1n, undefined],
    [100n * ETHER + 1n, 1n, undefined], // the quotient is 100 as a float64
    [10n ** 16n, 21_000n, 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)'],
    // Exactly halfway between two hundredths: Go rounds to even, where toFixed would round up.
    [100_125n * 10n ** 15n, 1n, 'tx fee (100.12 ether) exceeds the configured cap (100.00 ether)'],
    [100_375n * 10n ** 15n, 1n, 'tx fee (100.38 ether) exceeds the configured cap (100.00 ether)'],
    // Far past 1e21, where toFixed would write an exponent: every digit of the float64's value.
    [10n ** 30n, 1n, 'tx fee (1000000000000.00 ether) exceeds the configured cap (100.00 ether)'],
    [
      1n << 255n,
      21_000n,
      `tx fee (${exactFloat((1n << 255n) * 21_000n)}.00 ether) exceeds the configured cap (100.00 ether)`,
    ],
  ])('%s wei × %s gas', (price, gas, message) => {
    expect(checkTxFee(price, gas)).toBe(message);
  });
});

/** The integer value of the float64 nearest (price × gas) / 1e18 when that is above 2^53: Number's own rounding. */
function exactFloat(wei: bigint): string {
  return BigInt(Number(wei / ETHER)).toString();
}
