/**
 * Hostile values a JSON parser takes without complaint but that the generator must not pass on silently changed: a
 * number too large for a double (1e400 parses as Infinity, which JSON.stringify writes as `null`), a key written
 * twice (JSON.parse keeps the last, other readers the first), a component whose name is the empty string. Each either
 * generates what the document says or is refused as a spec problem naming the file and the JSON pointer.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../generators/load/index.ts';
import { generate } from '../../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'specadv11-values-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Generates `text` as a spec folder's only file, `p.json`; the folders and the error thrown, if any. */
async function generateFrom(name: string, text: string): Promise<{ out: string; error?: unknown }> {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(spec, { recursive: true });
  writeFileSync(join(spec, 'p.json'), text);
  try {
    await generate({ spec, out });
    return { out };
  } catch (error) {
    return { out, error };
  }
}

/** A one-method document's text; `param` is the param object's JSON text, written as is. */
const documentWithParam = (param: string, components = '{}') =>
  `{"openrpc":"1.3.2","info":{"title":"Values","version":"1.0.0"},"methods":[{"name":"values_get","params":[${param}],` +
  `"result":{"name":"r","schema":{"type":"string"}}}],"components":${components}}`;

/** The message of a refusal, which must be a SpecError naming `p.json` and `pointer`. */
function expectRefusedAt(error: unknown, pointer: string): void {
  expect(error).toBeInstanceOf(SpecError);
  expect((error as Error).message).toContain(`p.json#${pointer}`);
}

describe('values JSON.parse takes but cannot keep', () => {
  it('a number beyond a double (maximum, default, enum 1e400) is kept as a number or refused at its pointer', async () => {
    const text = documentWithParam(
      '{"name":"x","schema":{"type":"number","maximum":1e400,"default":1e400,"enum":[1e400,2]}}',
    );
    const { out, error } = await generateFrom('huge-number', text);
    if (error) {
      expectRefusedAt(error, '/methods/0/params/0/schema/maximum');
      expect(existsSync(out)).toBe(false);
      return;
    }
    // Generated: nothing may have turned the number into null (the bundle would fail OpenRPC's own meta-schema, the
    // client would type the param `null | 2`, the server's validator would hold `"maximum": null`).
    const bundled = JSON.parse(readFileSync(join(out, 'openrpc/p.json'), 'utf8'));
    const schema = bundled.methods[0].params[0].schema;
    expect(typeof schema.maximum).toBe('number');
    expect(schema.enum).not.toContain(null);
    expect(readFileSync(join(out, 'client/src/types.ts'), 'utf8')).not.toMatch(/x\?: null/);
  });

  it('a key written twice in one object is refused at its pointer, not read as whichever came last', async () => {
    const text =
      '{"openrpc":"1.3.2","info":{"title":"Values","version":"1.0.0"},' +
      '"methods":[{"name":"values_get","name":"values_delete","params":[],"result":{"name":"r","schema":{"type":"string"}}}]}';
    const { out, error } = await generateFrom('duplicate-key', text);
    expectRefusedAt(error, '/methods/0/name');
    expect(existsSync(out)).toBe(false);
  });

  it('a component named "" is refused as a spec problem naming the file and the $ref pointer', async () => {
    const text = documentWithParam(
      '{"name":"x","schema":{"$ref":"#/components/schemas/"}}',
      '{"schemas":{"":{"type":"string"}}}',
    );
    const { out, error } = await generateFrom('empty-name', text);
    // Either generates (the empty name given some identifier) or names where the problem is written; a bare Error
    // ("cannot name the type of $ref ...") names neither the file nor the pointer.
    if (error) expectRefusedAt(error, '/components/schemas/');
    else expect(readdirSync(out)).toContain('client');
  });
});

describe('a $ref to a part of the document that is not a schema', () => {
  it('a param schema that refers to a method object (#/methods/0) is refused naming the file and the $ref', async () => {
    // A string (#/info/title) or an array (#/methods) is refused as a spec problem; an object that is no schema was
    // a bare Error from json-schema-to-typescript ("could not compile the type Methods0: Missing $ref pointer").
    const text = documentWithParam('{"name":"x","schema":{"$ref":"#/methods/0"}}');
    const { out, error } = await generateFrom('ref-method', text);
    if (error) {
      expectRefusedAt(error, '/methods/0/params/0/schema');
      expect(existsSync(out)).toBe(false);
    } else expect(readdirSync(out)).toContain('client');
  });
});

describe('the output folder', () => {
  it('never writes through a symlink inside --out to a folder outside it', async () => {
    const victim = join(temp, 'victim');
    mkdirSync(victim);
    const out = join(temp, 'symlinked-out', 'out');
    mkdirSync(out, { recursive: true });
    symlinkSync(victim, join(out, 'client'));
    const spec = join(temp, 'symlinked-out', 'spec');
    mkdirSync(spec);
    writeFileSync(join(spec, 'p.json'), documentWithParam('{"name":"x","schema":{"type":"string"}}'));
    await generate({ spec, out }).catch(() => undefined);
    expect(readdirSync(victim)).toEqual([]);
  });
});
