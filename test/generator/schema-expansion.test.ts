/**
 * Documents that are small as files and huge once their `$ref`s are written out, as the generators write them: each
 * is a spec problem at the method (or the methods) past the budget, found before any generator runs, and the output
 * folder is left as it was. Without the budget, a 3 KB document whose components double at each level (`S1: {a: S0,
 * b: S0}`, ...) keeps the client generator busy for minutes: the secrets' paths (model/sensitive.ts) write it out.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleDocument } from '../../generators/load/bundle.ts';
import { MAX_DOCUMENT_EXPANSION, MAX_METHOD_EXPANSION, expandedSizes } from '../../generators/load/expansion.ts';
import { SpecError } from '../../generators/load/index.ts';
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
  }));
  const document = { openrpc: '1.3.2', info: { title: name, version: '1.0.0' }, methods, components: { schemas } };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(document));
  return dir;
}

/** `S0` a string, each `S<i>` an object of two properties typed `S<i-1>`: `S<n>` is 2^n schemas written out. */
function doubling(levels: number, [a, b] = ['a', 'b']): Schemas {
  const schemas: Schemas = { S0: { type: 'string' } };
  for (let i = 1; i <= levels; i++)
    schemas[`S${i}`] = { type: 'object', properties: { [a!]: ref(`S${i - 1}`), [b!]: ref(`S${i - 1}`) } };
  return schemas;
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

describe('schemas as the generators write them out', () => {
  it('counts a component used twice twice, a recursive one once per cycle, each capped', () => {
    const dir = documentWith('counted', { ...doubling(3), Tree: { type: 'array', items: ref('Tree') } }, [
      'S3',
      'Tree',
    ]);
    // S3: the param, its $ref and S3's own three objects, and two of S2, each of those two of S1...
    const [doubled, tree] = expandedSizes(bundleDocument(join(dir, 'counted.json')).document);
    expect(doubled).toBeGreaterThan(2 ** 3);
    expect(tree).toBeLessThan(10);
    const dir64 = documentWith('capped', doubling(64), ['S64']);
    expect(expandedSizes(bundleDocument(join(dir64, 'capped.json')).document)).toEqual([MAX_DOCUMENT_EXPANSION + 1]);
  });

  it('refuses a method whose param doubles 64 times, at the method, leaving the output folder as it was', () => {
    const dir = documentWith('doubling', doubling(64), ['S64']);
    const out = join(temp, 'doubling-out');
    mkdirSync(out);
    writeFileSync(join(out, 'kept.txt'), 'kept');
    const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), '--spec', dir, '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('doubling.json#/methods/0: ');
    expect(run.stderr).toContain(`more than ${MAX_METHOD_EXPANSION.toLocaleString('en')} schemas`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(out, 'kept.txt'), 'utf8')).toBe('kept');
  });

  it('counts properties named like data keywords (enum, const) as the schemas they are', () => {
    const problems = problemsOf(documentWith('named-enum', doubling(64, ['enum', 'const']), ['S64']));
    expect(problems.map((p) => p.pointer)).toEqual(['/methods/0']);
  });

  it('does not count the values of an enum, a const or a default as schemas', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => ({ v: i }));
    const schemas = { Big: { enum: values, default: values[0], const: values[1] } };
    expect(problemsOf(documentWith('data', schemas, ['Big']))).toEqual([]);
  });

  it('refuses a document whose methods together pass the budget, at its methods', () => {
    // 24 methods, each taking a component that is some 5,000 schemas written out: each method within its budget.
    const schemas = doubling(10);
    const problems = problemsOf(
      documentWith(
        'many',
        schemas,
        Array.from({ length: 24 }, () => 'S10'),
      ),
    );
    expect(problems.map((p) => p.pointer)).toEqual(['/methods']);
    expect(problems[0]!.message).toContain(`more than ${MAX_DOCUMENT_EXPANSION.toLocaleString('en')} schemas together`);
  });

  it('reads a document within the budget, shared and recursive components included', () => {
    const schemas = {
      ...doubling(8),
      Tree: { type: 'object', properties: { children: { type: 'array', items: ref('Tree') } } },
    };
    expect(problemsOf(documentWith('within', schemas, ['S8', 'Tree', 'S8']))).toEqual([]);
  });
});
