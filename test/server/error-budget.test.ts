/**
 * The generated validators' error budget (runtime/server/ajv.ts): a request with a million invalid items yields a
 * short list ending in the "more errors" marker, a smaller one at most the first ERROR_LIMIT errors and the marker,
 * valid input stays valid however many errors its branches discard on the way, and those discarded errors do not hide
 * the real one.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_LIMIT, LISTED_VALUES, TOO_MANY } from '../../generated/server/dist/runtime/ajv.js';
import { type MethodSpec, pChainMethods } from '../../generated/server/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';

const method = (name: string) => (pChainMethods as readonly MethodSpec[]).find((m) => m.name === name)!;
const ADDRESS = 'P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5';

describe('the validators’ error budget', () => {
  it('lists the first error of a million invalid items, then the marker', () => {
    const { validateParams } = method('platform.getBalance');
    expect(validateParams({ addresses: Array(1_000_000).fill('x') })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors.length).toBeLessThanOrEqual(ERROR_LIMIT + 1);
    expect(errors.at(-1)).toBe(TOO_MANY);
    expect(errors[0]).toMatchObject({ instancePath: '/addresses/0', keyword: 'pattern' });
    expect(validateParams({ addresses: Array(1_000_000).fill(ADDRESS) })).toBe(true);
  });

  it('lists the first ERROR_LIMIT errors of a value small enough to list, then the marker', () => {
    const { validateParams } = method('platform.getBalance');
    expect(validateParams({ addresses: Array(LISTED_VALUES - 2).fill('x') })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors.length).toBe(ERROR_LIMIT + 1);
    expect(errors.at(-1)).toBe(TOO_MANY);
    const paths = [...new Set(errors.slice(0, -1).map((e) => e.instancePath))];
    expect(paths.slice(0, 3)).toEqual(['/addresses/0', '/addresses/1', '/addresses/2']);
  });

  it('keeps valid input valid and reports the real error after many discarded branch errors', () => {
    // A short ID fails the address branch of AddressOrShortID (two errors each, discarded) before matching the other.
    const shortIDs = Array.from({ length: LISTED_VALUES - 100 }, (_, i) =>
      cb58Encode(Uint8Array.from({ length: 20 }, (_, j) => (i + j) % 256)),
    );
    const { validateParams } = method('platform.getUTXOs');
    expect(validateParams({ addresses: shortIDs })).toBe(true);
    expect(validateParams({ addresses: [...shortIDs, 'x'] })).toBe(false);
    const errors = validateParams.errors!;
    expect(errors).not.toContain(TOO_MANY);
    expect(errors.some((e) => e.instancePath === `/addresses/${shortIDs.length}`)).toBe(true);
  });
});
