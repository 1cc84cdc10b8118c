/**
 * A spec's `pattern`s as an attack on the generator itself: the loader checks every example against its schema, so a
 * pattern that backtracks exponentially in JavaScript (`^(a+)+$` against `aaa…!`) must not hang it, a repetition that
 * expands a billion-fold is refused at its pointer, and a pattern of twenty thousand alternatives is read as any other.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'hostile-patterns-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A spec folder with one method whose param has `pattern`, and an example sending `value`. */
function specWith(name: string, pattern: string, value: string): string {
  const spec = join(temp, name);
  mkdirSync(spec);
  const document = {
    openrpc: '1.3.2',
    info: { title: 'Patterns', version: '1.0.0' },
    methods: [
      {
        name: 'p_check',
        params: [{ name: 'text', required: true, schema: { type: 'string', pattern } }],
        result: { name: 'r', schema: { type: 'string' } },
        examples: [{ name: 'e', params: [{ name: 'text', value }], result: { name: 'r', value: 'ok' } }],
      },
    ],
  };
  writeFileSync(join(spec, 'patterns.json'), JSON.stringify(document));
  return spec;
}

describe('patterns that would hang a backtracking matcher', () => {
  it('checks an example against ^(a+)+$ in linear time and reports it as not matching', { timeout: 120_000 }, () => {
    const model = loadModel(specWith('redos', '^(a+)+$', `${'a'.repeat(5000)}!`));
    expect(model.advice).toEqual([
      expect.objectContaining({ method: 'p_check', pointer: '/methods/0/examples/0/params/0/value' }),
    ]);
  });

  it('refuses a repetition a billion characters long at its schema', () => {
    let error: unknown;
    try {
      loadModel(specWith('repeat', '^((a{1000}){1000}){1000}$', 'a'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SpecError);
    const [problem] = (error as SpecError).problems;
    expect(problem!.pointer).toBe('/methods/0/params/0/schema');
    expect(problem!.message).toContain('invalid repeat count');
  });

  it('generates from a pattern of twenty thousand alternatives', { timeout: 120_000 }, async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`);
    const files = await renderArtifacts(loadModel(specWith('wide', `^(${words.join('|')})$`, 'w19999')), {
      artifacts: ['server'],
    });
    expect(files.some((f) => f.path.startsWith('server/src/validators/'))).toBe(true);
  });

  // Accumulate's document (corpus README) writes `[0-9a-zA-Z._-/]`: the range `_-/` is out of order.
  it('refuses a pattern that is no ECMA-262 regular expression at the pattern, saying why', () => {
    let error: unknown;
    try {
      loadModel(specWith('range', '^[0-9a-zA-Z._-/]+$', 'a'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).problems).toEqual([
      expect.objectContaining({
        pointer: '/methods/0/params/0/schema/pattern',
        message: expect.stringContaining('Range out of order in character class'),
      }),
    ]);
  });
});
