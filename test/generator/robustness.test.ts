/**
 * The generator on documents no author would write but anyone can: nested a thousand levels deep, a `$ref` chain of a
 * thousand hops, an example of megabytes, a template that fails. Each ends in a named answer (a spec problem at its
 * file and pointer, bounded output, one sentence) and never in a stack trace, a crash or a wait.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../generators/load/depth.ts';
import { SpecError } from '../../generators/load/index.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { MAX_SHOWN_EXAMPLE } from '../../generators/shared/example-size.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'robustness-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A one-method document in its own folder, with `param` as its param's schema. */
function specWith(name: string, param: object, extra: { schemas?: object; example?: object } = {}): string {
  const dir = join(temp, name);
  mkdirSync(dir);
  const document = {
    openrpc: '1.3.2',
    info: { title: name, version: '1.0.0' },
    servers: [{ name: 's', url: 'http://127.0.0.1:9650/ext/t' }],
    methods: [
      {
        name: 't.get',
        params: [{ name: 'p', schema: param }],
        result: { name: 'r', schema: { type: 'array', items: { type: 'string' } } },
        examples: extra.example ? [extra.example] : [],
      },
    ],
    ...(extra.schemas ? { components: { schemas: extra.schemas } } : {}),
  };
  writeFileSync(join(dir, 't.json'), JSON.stringify(document));
  return dir;
}

function nested(levels: number): object {
  let schema: object = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

function cli(...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('the generator on hostile shapes', () => {
  it('refuses a schema nested 1,000 deep as a spec problem at its pointer, without a stack trace', () => {
    const spec = specWith('deep', nested(1000));
    let error: unknown;
    try {
      loadModel(spec);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SpecError);
    const [problem] = (error as SpecError).problems;
    expect(problem!.file).toMatch(/deep\/t\.json$/);
    expect(problem!.pointer.startsWith('/methods/0/params/0/schema/properties/a/properties/a/')).toBe(true);
    expect(problem!.pointer.split('/').length - 1).toBe(MAX_DEPTH);
    expect(problem!.message).toContain(`more than ${MAX_DEPTH} levels`);

    const run = cli('--validate', '--spec', spec);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('#/methods/0/params/0/schema/properties/a/');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('generates every artifact from a document as deep as the limit allows', async () => {
    // The document, methods, one method, params, one param and schema take 6 levels; each schema level 2 more.
    const spec = specWith('deepest', nested((MAX_DEPTH - 6) / 2));
    const files = await renderArtifacts(loadModel(spec));
    expect(files.some((file) => file.path === 'server/src/t.ts')).toBe(true);
  }, 120_000);

  it('follows a $ref chain of 1,000 hops to its end', async () => {
    const hops = 1000;
    const schemas: Record<string, object> = Object.fromEntries(
      Array.from({ length: hops }, (_, i) => [`A${i}`, { $ref: `#/components/schemas/A${i + 1}` }]),
    );
    schemas[`A${hops}`] = { type: 'string', format: 'date-time' };
    const spec = specWith('chain', { $ref: '#/components/schemas/A0' }, { schemas });
    const files = await renderArtifacts(loadModel(spec), { artifacts: ['docs', 'server'] });
    const page = files.find((file) => file.path === 'docs/t.html')!.contents;
    // The param's type names the chain's first type, and its hint is where the chain ends.
    expect(page).toContain('>A0</a> <span class="hint">(RFC 3339 time)</span>');
  }, 120_000);

  it('shows a megabyte example as a note of its size in the docs and the README', async () => {
    const big = 'x'.repeat(1_000_000);
    const spec = specWith(
      'large',
      { type: 'string' },
      { example: { name: 'big', params: [{ name: 'p', value: big }], result: { name: 'r', value: [big] } } },
    );
    const files = await renderArtifacts(loadModel(spec), { artifacts: ['docs', 'openrpc'] });
    const page = files.find((file) => file.path === 'docs/t.html')!.contents;
    expect(page.length).toBeLessThan(100_000);
    expect(page).toContain(`more than ${MAX_SHOWN_EXAMPLE} characters of JSON`);
    // The published document keeps it whole.
    const published = files.find((file) => file.path === 'openrpc/t.json')!.contents;
    expect(published).toContain(big);
  }, 120_000);

  it('reports a failure inside the toolkit in one sentence, and its stack trace only with --debug', () => {
    const templates = join(temp, 'templates');
    cpSync(join(ROOT, 'templates'), templates, { recursive: true });
    writeFileSync(join(templates, 'client/index.ts.hbs'), '{{noSuchField}}');
    const spec = specWith('failing', { type: 'string' });
    const args = ['--spec', spec, '--out', join(temp, 'out'), '--artifact', 'client', '--templates', templates];
    const plain = cli(...args);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/generating from .*failing\/t\.json failed: .*noSuchField.*--debug/);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = cli(...args, '--debug');
    expect(debug.status).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);
  }, 120_000);
});
