/**
 * References that name something no generated type can be made of: a component named "" (nothing can be named after
 * it) and a `$ref` where a schema goes to a part of the document that is no schema (a method, a title, the list of
 * methods). Each is refused as a spec problem naming the file and the JSON pointer; before, some failed deep in the
 * type compiler with a bare Error naming neither.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'misplaced-refs-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let count = 0;
/** Generates a spec folder holding `files` (name -> JSON value); the message of the SpecError, nothing written. */
async function refusal(files: Record<string, unknown>): Promise<string> {
  const spec = join(temp, `spec-${count}`);
  const out = join(temp, `out-${count++}`);
  mkdirSync(join(spec, 'lib'), { recursive: true });
  for (const [file, value] of Object.entries(files)) writeFileSync(join(spec, file), JSON.stringify(value));
  const error = await generate({ spec, out }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SpecError);
  expect(existsSync(out)).toBe(false);
  return (error as Error).message;
}

/** A one-method document whose only param's schema is `schema`. */
const documentWithSchema = (schema: object, components: object = {}) => ({
  openrpc: '1.3.2',
  info: { title: 'Refs', version: '1.0.0' },
  methods: [{ name: 'refs_get', params: [{ name: 'x', schema }], result: { name: 'r', schema: { type: 'string' } } }],
  components,
});

describe('a component named ""', () => {
  it('of the document is refused at the component', async () => {
    const document = documentWithSchema({ $ref: '#/components/schemas/' }, { schemas: { '': { type: 'string' } } });
    expect(await refusal({ 'p.json': document })).toContain('p.json#/components/schemas/: has an empty name');
  });

  it('of another file is refused at the $ref', async () => {
    const document = documentWithSchema({ $ref: './lib/defs.json#/definitions/' });
    const message = await refusal({ 'p.json': document, 'lib/defs.json': { definitions: { '': { type: 'string' } } } });
    expect(message).toContain('p.json#/methods/0/params/0/schema/$ref: $ref "./lib/defs.json#/definitions/"');
    expect(message).toContain('has an empty name');
  });
});

describe('a $ref where a schema goes', () => {
  it.each([
    ['#/methods/0', 'a method'],
    ['#/info/title', 'a string'],
    ['#/methods', 'the list of methods'],
  ])('to %s (%s) is refused at the $ref', async (ref) => {
    const message = await refusal({ 'p.json': documentWithSchema({ $ref: ref }) });
    expect(message).toContain(`p.json#/methods/0/params/0/schema/$ref: $ref "${ref}" sits where a schema goes, but `);
    expect(message).toContain(`p.json${ref} is no schema`);
  });

  it('to a schema inside a method (its param) or a components file is taken', async () => {
    const spec = join(temp, 'taken');
    mkdirSync(join(spec, 'lib'), { recursive: true });
    const document = documentWithSchema({ $ref: './lib/defs.json#/definitions/Id' });
    document.methods.push({
      name: 'refs_again',
      params: [{ name: 'y', schema: { $ref: '#/methods/0/params/0/schema' } }],
      result: { name: 'r', schema: { type: 'string' } },
    });
    writeFileSync(join(spec, 'p.json'), JSON.stringify(document));
    writeFileSync(join(spec, 'lib/defs.json'), JSON.stringify({ definitions: { Id: { type: 'string' } } }));
    await generate({ spec, out: join(temp, 'taken-out'), artifacts: ['client'] });
    expect(existsSync(join(temp, 'taken-out', 'client'))).toBe(true);
  });
});
