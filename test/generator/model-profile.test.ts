/**
 * Whether a spec is Avalanche's is decided once, in the model (`SpecModel.profile`): every document must opt in.
 * The validators' strictness, the type namer's use of titles and conformance's node rows all read that field.
 */
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';

const AVALANCHE = 'test/fixtures/golden/no-params';
const PLAIN = 'test/fixtures/corpus/openrpc-petstore';

describe('SpecModel.profile', () => {
  it('is avalanche when every document opts in', () => {
    expect(loadModel('openrpc').profile).toBe('avalanche');
    expect(loadModel(AVALANCHE).profile).toBe('avalanche');
  });

  it('is absent for plain OpenRPC, and for a mix, whatever each endpoint opts into', () => {
    expect(loadModel(PLAIN).profile).toBeUndefined();
    const mixed = loadModel([AVALANCHE, PLAIN]);
    expect(mixed.endpoints.map((endpoint) => endpoint.profile)).toEqual(['avalanche', undefined]);
    expect(mixed.profile).toBeUndefined();
  });
});
