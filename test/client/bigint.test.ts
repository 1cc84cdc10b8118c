/** The lossless number helpers of the client package: decimal strings in and out of bigint, with bad input refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBigInt, toBigInt } from '../../generated/client/dist/index.js';

const UINT64_MAX = 2n ** 64n - 1n;

describe('toBigInt', () => {
  it.each([
    ['0', 0n],
    ['1000', 1000n],
    ['9007199254740993', 9007199254740993n],
    ['18446744073709551615', UINT64_MAX],
  ])('reads %s without losing a digit', (text, value) => {
    expect(toBigInt(text)).toBe(value);
  });

  it.each(['', ' 1', '1 ', '-1', '+1', '1.0', '1e3', '0x10', 'NaN', '١٢'])('refuses %j', (text) => {
    expect(() => toBigInt(text)).toThrow(
      new TypeError(`toBigInt expects a string of decimal digits, such as "1000"; got ${JSON.stringify(text)}`),
    );
  });

  it('refuses what is not a string, even from untyped callers', () => {
    expect(() => toBigInt(42 as unknown as string)).toThrow(/got number/);
    expect(() => toBigInt(null as unknown as string)).toThrow(TypeError);
  });
});

describe('fromBigInt', () => {
  it('writes the decimal string the node accepts, across the whole unsigned 64-bit range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: UINT64_MAX }), (value) => {
        const text = fromBigInt(value);
        expect(text).toMatch(/^(0|[1-9][0-9]*)$/);
        expect(toBigInt(text)).toBe(value);
      }),
    );
  });

  it.each([-1n, UINT64_MAX + 1n])("refuses %s, outside the node's range", (value) => {
    expect(() => fromBigInt(value)).toThrow(RangeError);
  });

  it('refuses a number: it may already have lost digits', () => {
    expect(() => fromBigInt((2 ** 60) as unknown as bigint)).toThrow(
      new TypeError('fromBigInt expects a bigint; got number'),
    );
  });
});
