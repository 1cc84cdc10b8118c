/** The node sends 64-bit integers as decimal strings; these read and write them as bigint without losing a digit. */

const UINT64_MAX = 18446744073709551615n;

/**
 * Reads a decimal-string integer, as the node sends every `Uint64`/`Uint32`/`Uint8` (e.g. `"30000000000000000"`), as a
 * bigint, keeping every digit. Throws a TypeError for anything that is not a string of decimal digits.
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
 * Writes a bigint as the decimal string the node accepts for integer params, without losing a digit. Throws a
 * TypeError for a non-bigint and a RangeError outside 0 to 2^64-1, the range of the node's unsigned integers.
 */
export function fromBigInt(value: bigint): string {
  if (typeof value !== 'bigint') throw new TypeError(`fromBigInt expects a bigint; got ${typeof value}`);
  if (value < 0n || value > UINT64_MAX)
    throw new RangeError(`fromBigInt: ${value} is outside the node's unsigned 64-bit range 0 to ${UINT64_MAX}`);
  return value.toString();
}
