/**
 * A spec's file names and references as an attack or an accident: an endpoint's name (its document's file name) is
 * its generated files' names and a module path in string literals, so one holding a quote, or two one in another
 * case (one file on macOS and Windows), is refused naming the document, and the output folder is left as it was; a
 * `$ref` to a URL reads nothing, except the OpenRPC meta-schema's, which reads the toolkit's own copy; `__proto__`
 * keys anywhere in a document stay data.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import { generate, loadModel } from '../../generators/pipeline.ts';
import { payload } from './hostile-spec.ts';

const temp = mkdtempSync(join(tmpdir(), 'hostile-names-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const documentOf = (method: string, extra: object = {}) => ({
  openrpc: '1.3.2',
  info: { title: 'Names', version: '1.0.0' },
  methods: [{ name: method, params: [], result: { name: 'r', schema: { type: 'string' } } }],
  ...extra,
});

/** A spec folder holding `files` (name to document or text); its path. */
function specWith(name: string, files: Record<string, object | string>): string {
  const spec = join(temp, name);
  mkdirSync(spec, { recursive: true });
  for (const [file, content] of Object.entries(files))
    writeFileSync(join(spec, file), typeof content === 'string' ? content : JSON.stringify(content));
  return spec;
}

/** Generates `spec` into an output folder that already holds a file; the problems, and the folder's files after. */
async function refused(spec: string): Promise<{ messages: string[]; after: string[] }> {
  const out = `${spec}-out`;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'kept.txt'), 'mine');
  let error: unknown;
  try {
    await generate({ spec, out });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(SpecError);
  expect(readFileSync(join(out, 'kept.txt'), 'utf8')).toBe('mine');
  return {
    messages: (error as SpecError).problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`),
    after: readdirSync(out),
  };
}

describe('endpoint names that cannot be file names', () => {
  it('a document whose file name holds a quote and braces is refused, naming it, before anything is written', async () => {
    const spec = specWith('quote', { "x'y}{{z}}.json": documentOf('q_a') });
    const { messages, after } = await refused(spec);
    expect(after).toEqual(['kept.txt']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/x'y\}\{\{z\}\}\.json#: the endpoint name "x'y\}\{\{z\}\}" .* holds "'"/);
  });

  it('two documents whose names differ only in case are refused: one file on a case-insensitive file system', async () => {
    // `aB` and `ab` make the type names `AB` and `Ab`, which TypeScript keeps apart; their files are one on macOS.
    const spec = specWith('case', { 'aB.json': documentOf('a_b'), 'ab.json': documentOf('a_c') });
    const { messages, after } = await refused(spec);
    expect(after).toEqual(['kept.txt']);
    expect(messages.join('\n')).toContain('ab.json#: endpoint name "ab" differs from that of');
    expect(messages.join('\n')).toContain('("aB") only in case');
  });

  it("a document named like a generated package's own file in another case is refused", async () => {
    const { messages } = await refused(specWith('reserved-case', { 'Index.json': documentOf('i_a') }));
    expect(messages.join('\n')).toContain('the endpoint name "Index" (the document\'s file name) is taken');
  });
});

describe('references to URLs', () => {
  it("reads the OpenRPC meta-schema's URL from the toolkit's copy, and nothing from any other URL", async () => {
    let requests = 0;
    const server = createServer((_, res) => {
      requests++;
      res.end('{"type":"string"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
      const elsewhere = specWith('url', {
        'u.json': {
          ...documentOf('u_a'),
          methods: [{ name: 'u_a', params: [], result: { name: 'r', schema: { $ref: url } } }],
        },
      });
      const { messages } = await refused(elsewhere);
      expect(messages).toEqual([
        expect.stringContaining(`u.json#/methods/0/result/schema/$ref: $ref "${url}" is a URL; only files`),
      ]);
      expect(requests).toBe(0);

      const meta = 'https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json';
      const discover = specWith('discover', {
        'd.json': {
          ...documentOf('rpc.discover'),
          methods: [{ name: 'rpc.discover', params: [], result: { name: 'doc', schema: { $ref: meta } } }],
        },
      });
      const { schemas, schemaTypeNames } = loadModel(discover);
      expect((schemas.OpenrpcDocument as { title?: string }).title).toBe('openrpcDocument');
      expect(schemas).toHaveProperty('methodObject');
      expect(schemaTypeNames.OpenrpcDocument).toMatch(/^OpenrpcDocument/);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('__proto__ keys as data', () => {
  it('an example value, an extension and an error datum keyed __proto__ change no prototype', async () => {
    const text = JSON.stringify(
      documentOf('p_a', {
        'x-extension': { marker: 0 },
        components: { errors: { E: { code: 1, message: 'e', data: { marker: 0 } } } },
      }),
    )
      .replace('"x-extension":{"marker":0}', '"x-extension":{"__proto__":{"polluted":1}}')
      .replace('"data":{"marker":0}', '"data":{"constructor":{"prototype":{"polluted":2}},"__proto__":{"polluted":3}}')
      .replace(
        '"params":[]',
        '"params":[{"name":"p","schema":{}}],"examples":[{"name":"e","params":[{"name":"p","value":' +
          '{"__proto__":{"polluted":4}}}],"result":{"name":"r","value":"x"}}]',
      );
    const spec = specWith('proto', { 'p.json': text });
    const out = `${spec}-out`;
    await generate({ spec, out });
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const published = JSON.parse(readFileSync(join(out, 'openrpc/p.json'), 'utf8'));
    expect(Object.hasOwn(published['x-extension'], '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(published['x-extension'])).toBe(Object.prototype);
  });
});

describe('component names as an attack', () => {
  it('a schema named with every attack, and one with quotes, a line separator and a script tag, stays data', async () => {
    const markFile = join(temp, 'ran');
    // A component's name in a `$ref`: `~` and `/` escaped as JSON pointer says, then percent-encoded.
    const refTo = (name: string) =>
      `#/components/schemas/${encodeURIComponent(name.replaceAll('~', '~0').replaceAll('/', '~1'))}`;
    const names = [payload(1, markFile), `a\u2028b"c'd\`e\${f}</script><!--{{g}}`];
    const spec = specWith('component-names', {
      'c.json': {
        ...documentOf('c_get'),
        methods: [
          {
            name: 'c_get',
            params: names.map((name, i) => ({ name: `p${i}`, required: true, schema: { $ref: refTo(name) } })),
            result: { name: 'r', schema: { $ref: refTo(names[0]!) } },
          },
        ],
        components: { schemas: Object.fromEntries(names.map((name) => [name, { type: 'string', title: name }])) },
      },
    });
    const out = `${spec}-out`;
    await generate({ spec, out });
    const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] };
    const program = ts.createProgram([join(out, 'client/src/types.ts')], options);
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))).toEqual(
      [],
    );
    await import(pathToFileURL(join(out, 'client/dist/index.js')).href);
    expect(existsSync(markFile)).toBe(false);
    expect((globalThis as { hostileRan?: number[] }).hostileRan).toBeUndefined();
    for (const page of readdirSync(join(out, 'docs')).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(join(out, 'docs', page), 'utf8');
      expect(html.match(/<script/g), page).toHaveLength(1);
      expect(html).not.toContain('</script><!--{{g}}');
    }
  });
});
