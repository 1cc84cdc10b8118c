/**
 * A document whose methods are written inline (a published bundle, or a foreign spec written as one document) is only
 * bundled by the diff, not checked against the project's rules; its schemas' `$ref`s into other files of the spec
 * folder (`./lib/defs.json`) are still followed: a `$ref` to a file that does not exist is refused naming the file and
 * pointer (as `npm run generate` does), and a change inside the referenced file is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

const temp = mkdtempSync(join(tmpdir(), 'diff-inline-refs-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const documentText = JSON.stringify({
  openrpc: '1.3.2',
  info: { title: 'Refs', version: '1.0.0' },
  methods: [
    {
      name: 'refs_get',
      params: [{ name: 'x', required: true, schema: { $ref: './lib/defs.json#/definitions/Id' } }],
      result: { name: 'r', schema: { type: 'string' } },
    },
  ],
});

/** A spec folder holding the document and, unless `defs` is undefined, `lib/defs.json` with `definitions.Id = defs`. */
function revision(name: string, defs?: object): string {
  const dir = join(temp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'refs.json'), documentText);
  if (defs) {
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib/defs.json'), JSON.stringify({ definitions: { Id: defs } }));
  }
  return dir;
}

describe('the diff of hand-written documents with inline methods and $refs to other files', () => {
  it('refuses a $ref to a file that does not exist, naming the document and the pointer', async () => {
    const old = revision('old-ok', { type: 'string' });
    const broken = revision('new-broken');
    const { code, stderr } = await runCli('diff/cli.ts', [old, broken]);
    expect(code).toBe(2);
    expect(stderr).toContain('refs.json');
    expect(stderr).toContain('/methods/0/params/0/schema/$ref');
  });

  it('reports a change made inside the referenced file (a param narrowed from string to integer)', async () => {
    const old = revision('old', { type: 'string' });
    const narrowed = revision('new', { type: 'integer' });
    const { code, stdout } = await runCli('diff/cli.ts', [old, narrowed]);
    expect(stdout).toContain('refs_get');
    expect(stdout).toContain('param "x": the type changed from string to number');
    expect(stdout).toContain('param-type-changed at /components/schemas/Id');
    expect(code).toBe(1);
  });
});
