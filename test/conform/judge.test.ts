/** The runner's verdicts on one answer, read from the model alone. */
import { describe, expect, it } from 'vitest';
import { documentedDecodeError } from '../../conform/judge.ts';
import { loadSpecModel } from '../../conform/spec.ts';

const model = loadSpecModel();
const platform = model.endpoints.find((e) => e.name === 'p-chain')!;
const getHeight = platform.methods.find((m) => m.name === 'platform.getHeight')!;

describe('the documented decode error', () => {
  it("is the model's invalidArgument text with the code the method documents for it", () => {
    expect(platform.invalidArgument).not.toBe('');
    const error = documentedDecodeError(platform, getHeight);
    expect(error).toEqual({ code: expect.any(Number), message: platform.invalidArgument });
    expect(getHeight.errors).toContainEqual(expect.objectContaining(error));
  });

  it('comes from the model, not from the raw document', () => {
    const endpoint = { ...platform, document: {} };
    expect(documentedDecodeError(endpoint, getHeight)).toEqual(documentedDecodeError(platform, getHeight));
    expect(documentedDecodeError({ invalidArgument: 'cannot decode' }, getHeight)).toBeUndefined();
    const listed = { errors: [{ name: 'Other', code: -32000, message: 'cannot decode' }] };
    expect(documentedDecodeError({ invalidArgument: 'cannot decode' }, listed)).toEqual({
      code: -32000,
      message: 'cannot decode',
    });
  });

  it('is none where the method does not list it', () => {
    expect(documentedDecodeError(platform, { errors: [] })).toBeUndefined();
  });
});
