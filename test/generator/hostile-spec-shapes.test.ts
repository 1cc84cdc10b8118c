/**
 * Odd but valid shapes of a foreign OpenRPC document, each in a document of its own: boolean schemas, component names
 * that need JSON pointer escaping or are Object.prototype's own names, a byte order mark, a percent-encoded `$ref`,
 * an alias component that refers to itself. Each either generates packages that compile under strict TypeScript, or
 * is refused as a spec problem naming its file and pointer (never a TypeError, never a stack overflow's text).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'hostile-shapes-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

type Param = { name: string; schema: unknown };

/** A one-method document as text (so a test can prepend bytes), with `params` and `components.schemas`. */
function documentText(params: Param[], schemas?: Record<string, unknown>): string {
  return JSON.stringify({
    openrpc: '1.3.2',
    info: { title: 'Shapes', version: '1.0.0' },
    methods: [{ name: 'shapes_get', params, result: { name: 'r', schema: { type: 'string' } } }],
    ...(schemas ? { components: { schemas } } : {}),
  });
}

/** Generates `text` as a spec folder's only file; the output folder, or the error thrown. */
async function generateFrom(
  name: string,
  text: string,
  file = 'shapes.json',
): Promise<{ out: string; error?: unknown }> {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(spec, { recursive: true });
  writeFileSync(join(spec, file), text);
  try {
    await generate({ spec, out });
    return { out };
  } catch (error) {
    return { out, error };
  }
}

/**
 * The strict compiler's complaints about the generated client's types (the file the spec's schemas become; it imports
 * nothing, so it is checked alone, without the runtime and Node's types, in a fraction of the time).
 */
function clientDiagnostics(out: string): string[] {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] };
  return ts
    .getPreEmitDiagnostics(ts.createProgram([join(out, 'client/src/types.ts')], options))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

async function compiles(name: string, text: string, file?: string): Promise<void> {
  const { out, error } = await generateFrom(name, text, file);
  expect(error).toBeUndefined();
  expect(clientDiagnostics(out)).toEqual([]);
}

describe('odd shapes of a foreign document', () => {
  it('a boolean result schema generates packages that compile', async () => {
    await compiles('result-true', documentText([]).replace('{"type":"string"}', 'true'));
  });

  // Was a bug: generators/server/shapes.ts acceptsNull (line ~38) runs `'const' in resolved` on a boolean schema
  // (`schema: true` is draft-07's "any value"), so generation dies with "TypeError: Cannot use 'in' operator to search
  // for 'const' in true" instead of generating (or naming the pointer). Reached from paramsShape for a param whose
  // schema, or the component it refers to, is `true` or `false`. Fix: treat a non-object schema as
  // `resolved === true` (accepts null) / false there and in shapeOf.
  it('a param whose schema is `true` (any value) generates packages that compile', async () => {
    await compiles('param-true', documentText([{ name: 'anything', schema: true }]));
  });

  it('a param typed by a component that is `true` generates packages that compile', async () => {
    await compiles(
      'component-true',
      documentText([{ name: 'anything', schema: { $ref: '#/components/schemas/Anything' } }], { Anything: true }),
    );
  });

  // Was a bug: generators/model/schema-walk.ts componentName slices the $ref after `#/components/schemas/` without undoing
  // RFC 6901's escapes, so `#/components/schemas/a~1b` (the component "a/b", written as the model itself writes it:
  // model/build.ts escapePointerToken) is typed `A1b` while the component's type is declared `AB`: the client does not
  // compile ("Cannot find name 'A1b'"). Fix: unescape `~1` then `~0` in componentName.
  it('a component whose name holds "/" (a ~1 in its $ref) is the type its $ref names', async () => {
    await compiles(
      'tilde-ref',
      documentText([{ name: 'path', schema: { $ref: '#/components/schemas/a~1b' } }], { 'a/b': { type: 'string' } }),
    );
  });

  // Was a bug: generators/model/build.ts line 110 copies the components with `schemas[name] = schema` into a plain object,
  // so a component named "__proto__" replaces the object's prototype instead of becoming an entry: its type is never
  // declared, and the client does not compile ("Cannot find name 'Proto'"). Fix: Object.defineProperty (or build the
  // record with Object.fromEntries / a null-prototype object).
  it('a component named "__proto__" is declared as a type of its own', async () => {
    await compiles(
      'proto-component',
      // Parsed, not written as a literal: in an object literal `__proto__:` sets the prototype, and makes no entry.
      documentText(
        [{ name: 'p', schema: { $ref: '#/components/schemas/__proto__' } }],
        JSON.parse('{"__proto__": {"type": "string"}}'),
      ),
    );
  });

  // Was a bug: the loader's JSON reader does not skip a UTF-8 byte order mark (RFC 8259 section 8.1 lets a parser ignore
  // one; editors on Windows write it), and reports the file as "invalid JSON (line 1, column 142): the file ends too
  // early", pointing at the file's last column. Either read past the BOM or say that the file starts with one.
  it('a file that starts with a UTF-8 byte order mark is read', async () => {
    await compiles('bom', `\uFEFF${documentText([{ name: 'p', schema: { type: 'string' } }])}`);
  });

  // Was a bug: a $ref is a URI, so its fragment is percent-encoded (RFC 6901 section 6): `#/components/schemas/Foo%20Bar`
  // names the component "Foo Bar". The loader looks up "Foo%20Bar" and reports a broken $ref.
  it('a percent-encoded $ref fragment names the component it encodes', async () => {
    await compiles(
      'percent-ref',
      documentText([{ name: 'p', schema: { $ref: '#/components/schemas/Foo%20Bar' } }], {
        'Foo Bar': { type: 'string' },
      }),
    );
  });

  // Was a bug: an alias component that refers to itself (directly or through another) is reported as "invalid schema:
  // Maximum call stack size exceeded" (the text of a RangeError caught somewhere in the schema compile), where the
  // loader already names $ref chains that never end for other objects ("starts a chain of more than 64 references").
  it('an alias component that refers to itself is refused as a $ref cycle, naming its pointer', async () => {
    const { error } = await generateFrom(
      'self-alias',
      documentText([{ name: 'p', schema: { $ref: '#/components/schemas/A' } }], {
        A: { $ref: '#/components/schemas/B' },
        B: { $ref: '#/components/schemas/A' },
      }),
    );
    expect(error).toBeInstanceOf(SpecError);
    const message = (error as Error).message;
    expect(message).toContain('shapes.json#/');
    expect(message).not.toMatch(/call stack/i);
  });

  it.each([
    ['fragment', '#/components/schemas/100%'],
    ['file', './x%zz.json#/A'],
  ])('a $ref whose %s is not valid percent-encoding is refused naming its pointer', async (part, ref) => {
    const { error } = await generateFrom(
      `bad-percent-${part}`,
      documentText([{ name: 'p', schema: { $ref: ref } }], { A: { type: 'string' } }),
    );
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message).toContain('shapes.json#/methods/0/params/0/schema/$ref: ');
    expect((error as Error).message).toContain('malformed percent-encoding');
  });

  // Was a bug: generators/load/rules.ts line 43 names the document's schema for ajv `openrpc:${bundle.name}`, the file's
  // name unencoded, so a document named "my api.json" (or "ünï.json") fails with "invalid schema: can't resolve
  // reference openrpc:my api#/methods/0/result/schema from id #" at its first schema. Fix: encodeURIComponent the
  // name there (or use a fixed id: each bundle has an ajv of its own).
  it('a document whose file name holds a space or a non-ASCII letter generates', async () => {
    await compiles('file-space', documentText([{ name: 'p', schema: { type: 'string' } }]), 'my api.json');
    await compiles('file-unicode', documentText([{ name: 'p', schema: { type: 'string' } }]), 'ünï.json');
  });

  // Was a bug: a component that intersects itself (`A: { allOf: [{ $ref: A }, { type: 'object' }] }`: JSON Schema's "an
  // object", nothing recursive in the values it accepts) becomes `type A = A & { [k: string]: unknown }`, which
  // TypeScript refuses ("Type alias 'A' circularly references itself"). generators/types should drop the self
  // reference from an allOf (it adds nothing) or refuse the schema naming its pointer.
  it('a component that lists itself in its own allOf generates packages that compile', async () => {
    await compiles(
      'allof-self',
      documentText([{ name: 'p', schema: { $ref: '#/components/schemas/A' } }], {
        A: { allOf: [{ $ref: '#/components/schemas/A' }, { type: 'object' }] },
      }),
    );
  });

  // Was a bug: an example pairing that refers to itself (`examples: [{ $ref: '#/components/examplePairingObjects/A' }]`,
  // A = { $ref: A }) is accepted and written into the bundled document as it is, a $ref cycle any reader of
  // generated/openrpc must then detect; a method $ref cycle is refused ("starts a chain of more than 64 references").
  it('an example pairing that refers to itself is refused as a $ref cycle', async () => {
    const text = JSON.stringify({
      openrpc: '1.3.2',
      info: { title: 'Shapes', version: '1.0.0' },
      methods: [
        {
          name: 'shapes_get',
          params: [],
          result: { name: 'r', schema: { type: 'string' } },
          examples: [{ $ref: '#/components/examplePairingObjects/A' }],
        },
      ],
      components: { examplePairingObjects: { A: { $ref: '#/components/examplePairingObjects/A' } } },
    });
    const { error } = await generateFrom('example-cycle', text);
    expect(error).toBeInstanceOf(SpecError);
  });
});
