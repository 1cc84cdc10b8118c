/**
 * The generated validators' error budget (runtime/server/ajv.ts): a request with a million invalid items yields a
 * short list ending in the "more errors" marker, a smaller one at most the first ERROR_LIMIT errors and the marker,
 * valid input stays valid however many errors its branches discard on the way, and those discarded errors do not hide
 * the real one.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_LIMIT, LISTED_VALUES, TOO_MANY, methodValidators } from '../../runtime/server/ajv.ts';
import { cb58Encode } from '../../generators/formats.ts';

/**
 * Params of the shapes that spend the budget: an array of patterned strings, and one of `anyOf` branches. The node's
 * own params take addresses as plain strings (openrpc/README.md), so these are the test's own.
 */
const ADDRESS_PATTERN = '^[A-Za-z0-9]+-[a-z0-9]{1,83}1[02-9ac-hj-np-z]{38}$';
const SHORT_ID_PATTERN = '^[1-9A-HJ-NP-Za-km-z]{20,40}$';
const validators = methodValidators(
  {},
  {
    components: {},
    schemas: {
      addresses: {
        params: {
          type: 'object',
          properties: { addresses: { type: 'array', items: { type: 'string', pattern: ADDRESS_PATTERN } } },
        },
        result: {},
      },
      addressesOrShortIDs: {
        params: {
          type: 'object',
          properties: {
            addresses: {
              type: 'array',
              items: {
                anyOf: [
                  { type: 'string', pattern: ADDRESS_PATTERN, minLength: 1 },
                  { type: 'string', pattern: SHORT_ID_PATTERN },
                ],
              },
            },
          },
        },
        result: {},
      },
    },
  },
);
const method = (name: 'addresses' | 'addressesOrShortIDs') => ({ validateParams: validators(name, 'params') });
const ADDRESS = 'P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5';

describe('the validators’ error budget', () => {
  it('lists the first error of a million invalid items, then the marker', () => {
    const { validateParams } = method('addresses');
    expect(validateParams({ addresses: Array(1_000_000).fill('x') })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors.length).toBeLessThanOrEqual(ERROR_LIMIT + 1);
    expect(errors.at(-1)).toBe(TOO_MANY);
    expect(errors[0]).toMatchObject({ instancePath: '/addresses/0', keyword: 'pattern' });
    expect(validateParams({ addresses: Array(1_000_000).fill(ADDRESS) })).toBe(true);
  });

  it('lists the first ERROR_LIMIT errors of a value small enough to list, then the marker', () => {
    const { validateParams } = method('addresses');
    expect(validateParams({ addresses: Array(LISTED_VALUES - 2).fill('x') })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors.length).toBe(ERROR_LIMIT + 1);
    expect(errors.at(-1)).toBe(TOO_MANY);
    const paths = [...new Set(errors.slice(0, -1).map((e) => e.instancePath))];
    expect(paths.slice(0, 3)).toEqual(['/addresses/0', '/addresses/1', '/addresses/2']);
  });

  it('keeps valid input valid and reports the real error after many discarded branch errors', () => {
    // A short ID fails the address branch (two errors each, discarded) before matching the other.
    const shortIDs = Array.from({ length: LISTED_VALUES - 100 }, (_, i) =>
      cb58Encode(Uint8Array.from({ length: 20 }, (_, j) => (i + j) % 256)),
    );
    const { validateParams } = method('addressesOrShortIDs');
    expect(validateParams({ addresses: shortIDs })).toBe(true);
    expect(validateParams({ addresses: [...shortIDs, 'x'] })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors).not.toContain(TOO_MANY);
    expect(errors.some((e) => e.instancePath === `/addresses/${shortIDs.length}`)).toBe(true);
  });
});
