/**
 * Unions of one type at every level (`S1: {anyOf: [S0, S0]}`, ...) reach the bottom type along 2^n paths. The docs
 * show each type's wire hint, found once per type however many paths lead to it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { ROOT, methodSection, renderDocs, textOf } from './site.ts';

const temp = mkdtempSync(join(tmpdir(), 'deep-unions-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `S0` a 0x hex string, each `S<i>` any of two `S<i-1>`; `P<j>` objects holding two `S<levels>`, one method each. */
function unions(levels: number, holders: number) {
  const schemas: Record<string, object> = { S0: { type: 'string', pattern: '^0x[0-9a-f]*$' } };
  for (let i = 1; i <= levels; i++) schemas[`S${i}`] = { anyOf: [ref(`S${i - 1}`), ref(`S${i - 1}`)] };
  const methods = [];
  for (let j = 0; j < holders; j++) {
    schemas[`P${j}`] = { type: 'object', properties: { x: ref(`S${levels}`), y: ref(`S${levels}`) } };
    methods.push({
      name: `m${j}`,
      params: [{ name: 'p', schema: ref(`P${j}`) }],
      result: { name: 'r', schema: ref(`S${levels}`) },
    });
  }
  return { openrpc: '1.3.2', info: { title: 'Unions', version: '1.0.0' }, methods, components: { schemas } };
}

async function resultHint(model: ReturnType<typeof loadModel>, method: string) {
  const page = (await renderDocs(model)).find((file) => file.path === 'docs/unions.html')!.contents;
  return textOf(methodSection(page, method));
}

describe('docs of unions doubling at every level', () => {
  // Eleven levels is just under the loader's budget (model/expansion.ts); 200 holders made the docs twice as slow.
  it('hints each field of a 200-method document whose unions double 11 levels', async () => {
    const dir = join(temp, 'under-budget');
    mkdirSync(dir);
    writeFileSync(join(dir, 'unions.json'), JSON.stringify(unions(11, 200)));
    const text = await resultHint(loadModel(dir), 'm199');
    expect(text).toContain('S11 (0x hex)');
  });

  // The loader refuses this document; the docs generator given its model anyway (2^64 paths) must not hang. In a child
  // process, so that a hang fails the test (a synchronous loop would block this one's timeout, 120 s in vitest.config).
  it('hints a union 64 levels deep', () => {
    const file = join(temp, 'unions.json');
    writeFileSync(file, JSON.stringify(unions(64, 1)));
    const script = `
      import { readFileSync } from 'node:fs';
      import { buildModel } from ${JSON.stringify(join(ROOT, 'generators/model/build.ts'))};
      import { renderArtifacts } from ${JSON.stringify(join(ROOT, 'generators/pipeline.ts'))};
      const document = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8'));
      const model = buildModel([{ name: 'unions', file: 'unions.json', document, sources: [] }]);
      const files = await renderArtifacts(model, { artifacts: ['docs'] });
      process.stdout.write(files.find((f) => f.path === 'docs/unions.html').contents);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 110_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.signal, 'the docs generator hung').toBeNull();
    expect(run.stderr).toBe('');
    expect(textOf(methodSection(run.stdout, 'm0'))).toContain('S64 (0x hex)');
  });
});
