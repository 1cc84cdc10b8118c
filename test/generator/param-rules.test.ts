/**
 * Documents that break a rule of OpenRPC 1.3.2 the meta-schema cannot express: each is refused as a spec problem
 * naming its file and the JSON pointer of the fault, and the output folder stays as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'adv9-broken-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const info = { title: 'Broken', version: '1.0.0' };
const result = { name: 'r', schema: { type: 'string' } };

/** Generates `document` as `<name>.json`, the only file of its spec folder: the error's message, or undefined. */
async function refusal(name: string, document: object): Promise<{ message?: string; out: string }> {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(spec, { recursive: true });
  writeFileSync(join(spec, `${name}.json`), JSON.stringify(document, null, 1));
  try {
    await generate({ spec, out, artifacts: ['openrpc', 'client'] });
    return { out };
  } catch (error) {
    return { message: (error as Error).message, out };
  }
}

describe('documents that break OpenRPC rules beyond its meta-schema', () => {
  // Bug: OpenRPC 1.3.2, Method Object `params`: "All optional params (content descriptor objects with "required":
  // false) MUST be positioned after all required params in the list." Here optional `a` comes before required `b`,
  // so a by-position call of just `b` cannot be written; the loader accepts it and generates a client whose `b` is
  // required and `a` optional. Correct: refuse it as a spec problem at positional-params.json#/methods/0/params/1
  // (the first required param after an optional one). Suspected: generators/load/rules.ts checkRules, which checks
  // params for duplicates only.
  it('refuses a required param placed after an optional one, naming file and pointer', async () => {
    const { message, out } = await refusal('positional-params', {
      openrpc: '1.3.2',
      info,
      methods: [
        {
          name: 'get_range',
          paramStructure: 'by-position',
          params: [
            { name: 'a', schema: { type: 'string' } },
            { name: 'b', required: true, schema: { type: 'string' } },
          ],
          result,
        },
      ],
    });
    expect(message).toMatch(/positional-params\.json#\/methods\/0\/params\/1\b/);
    expect(existsSync(out)).toBe(false);
  });

  // Bug: a param whose $ref names a schema instead of a content descriptor (a common slip: `#/components/schemas/S`
  // for `#/components/contentDescriptors/S`) is refused, but at `#/components/schemas/S/schema`, a pointer that does
  // not exist in the file, with ajv's "can't resolve reference openrpc:document#/components/schemas/S/schema": the
  // author is not told which $ref is wrong. OpenRPC 1.3.2: a method's params are Content Descriptor Objects (REQUIRED
  // `name` and `schema`) or Reference Objects to one. Correct: report the $ref's own pointer,
  // `#/methods/0/params/0`, saying that what it names is not a content descriptor (no `name`, no `schema`).
  // Suspected: generators/load/rules.ts (compiles `${pointer}/schema` of whatever the $ref names, unchecked) and the
  // meta-schema check, which runs after $refs are followed.
  it('names the $ref of a param that refers to a schema, not a content descriptor', async () => {
    const { message, out } = await refusal('param-ref-to-schema', {
      openrpc: '1.3.2',
      info,
      methods: [{ name: 'get_thing', params: [{ $ref: '#/components/schemas/Thing' }], result }],
      components: { schemas: { Thing: { type: 'string' } } },
    });
    expect(message).toMatch(/param-ref-to-schema\.json#\/methods\/0\/params\/0\b/);
    expect(message).not.toMatch(/#\/components\/schemas\/Thing\/schema/);
    expect(existsSync(out)).toBe(false);
  });
});
