/**
 * Documents that are small as files and huge once their `$ref`s are written out. Whose properties double at each level
 * (`S1: {a: S0, b: S0}`, ...: 2^64 schemas written out) or chain 1,500 components generate every artifact: nothing
 * writes them out (the secrets are found once per schema, model/sensitive.ts). Whose `allOf`s double are a spec
 * problem at the schema where the count crosses the budget: every validator checks one value against all of them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENUM } from '../../generators/load/depth.ts';
import { MAX_SCHEMAS_PER_VALUE } from '../../generators/load/expansion.ts';
import { SpecError } from '../../generators/load/index.ts';
import { sensitiveKeys } from '../../generators/model/sensitive.ts';
import { loadModel } from '../../generators/pipeline.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'schema-expansion-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

type Schemas = Record<string, object>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A document in its own folder: one method per entry of `params`, each taking that component. */
function documentWith(name: string, schemas: Schemas, params: string[]): string {
  const dir = join(temp, name);
  mkdirSync(dir);
  const methods = params.map((param, i) => ({
    name: `m_${i}`,
    params: [{ name: 'p', schema: ref(param) }],
    result: { name: 'r', schema: { type: 'string' } },
    examples: [{ name: 'e', params: [{ name: 'p', value: {} }], result: { name: 'r', value: 'ok' } }],
  }));
  const document = { openrpc: '1.3.2', info: { title: name, version: '1.0.0' }, methods, components: { schemas } };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(document));
  return dir;
}

/** `S0` an object holding a secret, each `S<i>` made of two `S<i-1>`: `S<n>` is 2^n schemas written out. */
function doubling(levels: number, made: (part: object) => object): Schemas {
  const schemas: Schemas = {
    S0: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
  };
  for (let i = 1; i <= levels; i++) schemas[`S${i}`] = made(ref(`S${i - 1}`));
  return schemas;
}
const byProperties = (part: object) => ({ type: 'object', properties: { a: part, b: part } });

/** `C0` an object holding a secret, each `C<i>` an object whose one property is a `C<i-1>`. */
function chain(length: number): Schemas {
  const schemas: Schemas = { C0: { type: 'object', properties: { pin: { type: 'string', 'x-sensitive': true } } } };
  for (let i = 1; i < length; i++) schemas[`C${i}`] = { type: 'object', properties: { next: ref(`C${i - 1}`) } };
  return schemas;
}

function generate(dir: string) {
  const out = join(dir, 'out');
  const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), '--spec', dir, '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { ...run, out };
}

function problemsOf(dir: string): Array<{ pointer: string; message: string }> {
  try {
    loadModel(dir);
  } catch (error) {
    if (error instanceof SpecError) return error.problems;
    throw error;
  }
  return [];
}

describe('documents huge once their $refs are written out', () => {
  it('generates every artifact from properties doubling 64 levels and a chain of 1,500 components', () => {
    const schemas = { ...doubling(64, byProperties), ...chain(1500) };
    const params = ['S64', ...Array.from({ length: 1500 }, (_, i) => `C${i}`)];
    const run = generate(documentWith('doubling', schemas, params));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const artifact of ['client/src/doubling.ts', 'server/src/index.ts', 'docs/doubling.html', 'docs/types.html'])
      expect(existsSync(join(run.out, artifact)), artifact).toBe(true);
    // The client's error excerpts hide the secrets at the bottom of both.
    expect(readFileSync(join(run.out, 'client/src/doubling.ts'), 'utf8')).toContain("['PIN', 'SECRET']");
  });

  it('refuses allOf doubling 64 levels at the schema past the budget, leaving the output folder as it was', () => {
    const dir = documentWith(
      'all-of',
      doubling(64, (part) => ({ allOf: [part, part] })),
      ['S64'],
    );
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'kept.txt'), 'kept');
    const run = generate(dir);
    expect(run.status).toBe(1);
    // Each level counts its allOf, the two $refs and what they name: the line is crossed a dozen levels down.
    expect(run.stderr).toMatch(/all-of\.json#\/components\/schemas\/S1\d: /);
    expect(run.stderr).toContain(`more than ${MAX_SCHEMAS_PER_VALUE.toLocaleString('en')} schemas at once`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(out, 'kept.txt'), 'utf8')).toBe('kept');
  });

  it('counts anyOf, oneOf, if/then/else and $refs to one value, not properties, items or enum values', () => {
    expect(
      problemsOf(
        documentWith(
          'any-of',
          doubling(64, (part) => ({ anyOf: [part, part] })),
          ['S64'],
        ),
      ).length,
    ).toBe(1);
    const conditional = doubling(64, (part) => ({ if: part, then: part, else: { oneOf: [part] } }));
    expect(problemsOf(documentWith('conditional', conditional, ['S64'])).length).toBe(1);
    const items = doubling(64, (part) => ({ type: 'array', items: [part, part] }));
    expect(problemsOf(documentWith('items', items, ['S64']))).toEqual([]);
    // As many as an enum may list (load/depth.ts): counted as schemas, with the schema itself they would pass the budget.
    const values = Array.from({ length: MAX_ENUM }, (_, i) => ({ allOf: [{ v: i }] }));
    expect(problemsOf(documentWith('data', { Big: { enum: values, default: values[0] } }, ['Big']))).toEqual([]);
  });

  it('lists the keys whose values are secrets, or arrays of them, once per schema', () => {
    const model = loadModel(
      documentWith(
        'keys',
        {
          ...doubling(64, byProperties),
          Keys: {
            type: 'object',
            properties: { keys: { type: 'array', items: { type: 'array', items: ref('Secret') } } },
          },
          Secret: { type: 'string', 'x-sensitive': true },
          Tree: { type: 'object', properties: { child: ref('Tree'), token: { allOf: [ref('Secret')] } } },
        },
        ['S64', 'Keys', 'Tree'],
      ),
    );
    expect(sensitiveKeys(model.endpoints[0]!, model.schemas)).toEqual(['KEYS', 'SECRET', 'TOKEN']);
  });
});
