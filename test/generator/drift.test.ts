/** generated/ is exactly what the spec and templates produce now: a stale commit fails here, with the files named. */
import { describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';

describe('drift', () => {
  it('generated/ equals a fresh run of openrpc/ and templates/', async () => {
    const result = await generate({ check: true });
    expect(result.mode).toBe('check');
    expect(result.report, 'generated/ is out of date: run npm run generate and commit the result').toEqual({
      stale: [],
      missing: [],
      extra: [],
    });
  });
});
