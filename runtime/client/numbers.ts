/**
 * Many JSON-RPC servers send 64-bit integers as decimal strings, which a JSON number cannot hold; these read and write
 * them as bigint without losing a digit.
 */

const UINT64_MAX = 18446744073709551615n;

/**
 * Reads a decimal-string integer (e.g. `"30000000000000000"`) as a bigint, keeping every digit. Throws a TypeError
 * for anything that is not a string of decimal digits.
 */
export function toBigInt(value: string): bigint {
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) {
    throw new TypeError(
      'toBigInt expects a string of decimal digits, such as "1000"; ' +
        `got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
  }
  return BigInt(value);
}

/**
 * Writes a bigint as a decimal string, without losing a digit. Throws a TypeError for a non-bigint and a RangeError
 * outside 0 to 2^64-1, the range of an unsigned 64-bit integer.
 */
export function fromBigInt(value: bigint): string {
  if (typeof value !== 'bigint') throw new TypeError(`fromBigInt expects a bigint; got ${typeof value}`);
  if (value < 0n || value > UINT64_MAX)
    throw new RangeError(`fromBigInt: ${value} is outside the unsigned 64-bit range 0 to ${UINT64_MAX}`);
  return value.toString();
}
