/**
 * Shapes of valid OpenRPC documents from the field, and broken or hostile ones, loaded by the generator's own loader:
 * the field's documents load, the others are refused naming file and JSON pointer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePointer } from '../../generators/common/problems.ts';
import { loadSpec } from '../../generators/load/index.ts';
import { loadModel, specFiles } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'foreign-shapes-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string | object>): string {
  const dir = join(temp, name);
  mkdirSync(dir);
  for (const [file, body] of Object.entries(files))
    writeFileSync(join(dir, file), typeof body === 'string' ? body : JSON.stringify(body, null, 1));
  return dir;
}

const info = { title: 'T', version: '1.0.0' };
const result = (schema: unknown) => ({ name: 'r', schema });
const doc = (methods: object[], extra: object = {}) => ({ openrpc: '1.3.2', info, methods, ...extra });
const methodNames = (dir: string) => loadModel(dir).endpoints.flatMap((e) => e.methods.map((m) => m.name));
/** The value at `pointer` in the folder's one document, bundled. */
const bundledAt = (dir: string) => {
  const { document } = loadSpec(specFiles(dir))[0]!;
  return (pointer: string) => resolvePointer(document, pointer).value;
};

describe('valid documents of the field', () => {
  it('reads by-name and either params, and method names with dots, slashes, spaces and non-ASCII letters', () => {
    const names = ['pet.add', 'pet/remove', 'pet remove all', 'délete_ñame', '🦊.get'];
    const dir = folder('names', {
      'names.json': {
        ...doc(
          names.map((name, i) => ({
            name,
            paramStructure: ['by-name', 'either', 'by-position'][i % 3],
            params: [{ name: 'pet name', required: true, schema: { type: 'string' } }],
            result: result(i % 2 ? true : { type: 'null' }),
          })),
        ),
        openrpc: '1.2.6',
      },
    });
    expect(methodNames(dir)).toEqual(names);
  });

  it('reads servers with variables and x- extensions holding plain values', () => {
    const dir = folder('servers', {
      's.json': doc([{ name: 'm', params: [], result: result({ type: 'string' }), 'x-extra': { deep: true } }], {
        'x-top': { anything: [1, 2] },
        servers: [
          { url: 'http://{host}:{port}/rpc', variables: { host: { default: 'localhost' }, port: { default: '1' } } },
        ],
      }),
    });
    expect(methodNames(dir)).toEqual(['m']);
  });

  // A specification extension may hold any JSON value (OpenRPC 1.3 "Specification Extensions"); a `$ref` inside one
  // is the extension's data, not a reference the document's tools must follow (nor fetch).
  it('reads a document whose x- extension holds a URL $ref, leaving the extension as written', () => {
    const dir = folder('xref', {
      'x.json': doc([{ name: 'm', params: [], result: result({ type: 'string' }) }], {
        'x-top': { $ref: 'https://example.com/x.json' },
      }),
    });
    expect(methodNames(dir)).toEqual(['m']);
  });

  it("bundles an extension's $refs into the spec's files and leaves its URL ones as written, wherever it sits", () => {
    const url = (name: string) => ({ $ref: `https://example.com/${name}.json` });
    const dir = folder('xrefs', {
      'x.json': doc(
        [
          {
            name: 'm',
            params: [],
            result: result({ type: 'object', 'x-schema': url('schema'), properties: { a: { type: 'string' } } }),
            'x-method': [url('method')],
          },
        ],
        { 'x-top': { local: { $ref: '#/x-defs/D' }, remote: url('top') }, 'x-defs': { D: { type: 'integer' } } },
      ),
    });
    const at = bundledAt(dir);
    expect(at('/x-top')).toEqual({ local: { $ref: '#/components/schemas/x-defs_D' }, remote: url('top') });
    expect(at('/components/schemas/x-defs_D')).toEqual({ type: 'integer' });
    expect(at('/methods/0/x-method')).toEqual([url('method')]);
    expect(at('/methods/0/result/schema/x-schema')).toEqual(url('schema'));
  });

  // JSON Schema draft-07 (section 8.2): `$id` makes a schema a resource of its own, and `#/definitions/E` inside it
  // resolves against that schema, as schemas generated from code (typescript-json-schema, Go's jsonschema) write it.
  it('resolves #/definitions inside a schema with its own $id against that schema', () => {
    const dir = folder('idref', {
      'i.json': doc([
        {
          name: 'm',
          params: [
            { name: 'a', schema: { $id: 'urn:x', definitions: { E: { type: 'integer' } }, $ref: '#/definitions/E' } },
          ],
          result: result({ type: 'string' }),
        },
      ]),
    });
    expect(methodNames(dir)).toEqual(['m']);
  });

  it('resolves references inside nested $id resources, and naming an $id from elsewhere, never fetching them', () => {
    const node = {
      $id: 'https://example.com/schemas/node.json',
      definitions: {
        Id: { type: 'string' },
        Node: { type: 'object', properties: { id: { $ref: '#/definitions/Id' }, next: { $ref: '#' } } },
      },
      $ref: '#/definitions/Node',
    };
    const outer = {
      $id: 'https://example.com/schemas/outer.json',
      type: 'object',
      properties: { inner: { $id: 'inner.json', definitions: { F: { type: 'boolean' } }, $ref: '#/definitions/F' } },
    };
    const dir = folder('ids', {
      'i.json': doc([
        {
          name: 'm',
          params: [
            { name: 'a', schema: node },
            { name: 'b', schema: outer },
            { name: 'c', schema: { $ref: 'https://example.com/schemas/inner.json#/definitions/F' } },
          ],
          result: result({ $ref: 'https://example.com/schemas/node.json#/definitions/Id' }),
          examples: [
            {
              name: 'chain',
              params: [
                { name: 'a', value: { id: 'n1', next: { id: 'n2' } } },
                { name: 'b', value: { inner: true } },
                { name: 'c', value: false },
              ],
              result: { name: 'r', value: 'n1' },
            },
          ],
        },
      ]),
    });
    const at = bundledAt(dir);
    expect(at('/methods/0/params/0/schema/$ref')).toBe('#/components/schemas/Node');
    expect(at('/components/schemas/Node/properties/next')).toEqual({ $ref: '#/components/schemas/node' });
    expect(at('/methods/0/params/1/schema/properties/inner/$ref')).toBe('#/components/schemas/F');
    expect(at('/methods/0/params/2/schema/$ref')).toBe('#/components/schemas/F');
    expect(at('/methods/0/result/schema/$ref')).toBe('#/components/schemas/Id');
    // The bundle's references all resolve against its root, so no `$id` is left to scope them elsewhere.
    expect(JSON.stringify(at(''))).not.toContain('$id');
    expect(loadModel(dir).advice ?? []).toEqual([]);
  });
});

describe('broken and hostile documents', () => {
  const refused = (dir: string) => {
    try {
      loadModel(dir);
    } catch (error) {
      return String((error as Error).message);
    }
    throw new Error('loaded');
  };

  it('names file, line and column of invalid JSON', () => {
    const dir = folder('badjson', {
      'b.json':
        '{"openrpc":"1.3.2","info":{"title":"T","version":"1"},\n "methods":[{"name":"m","params":[],"result":{"name":"r","schema":{"type":"string",}}}]}',
    });
    expect(refused(dir)).toMatch(/b\.json#: invalid JSON \(line 2, column \d+\)/);
  });

  it.each([
    ['file URL', 'file:///etc/passwd', /is a URL; only files inside the spec folder are read/],
    ['percent-encoded ..', './%2e%2e/x.json', /points outside the spec folder/],
    ['whole document', '#', /points at the whole OpenRPC document/],
  ])('refuses a $ref to a %s, naming its pointer', (name, ref, message) => {
    const dir = folder(`ref-${name.replace(/\W/g, '')}`, {
      'f.json': doc([{ name: 'm', params: [], result: result({ $ref: ref }) }]),
    });
    const text = refused(dir);
    expect(text).toContain('f.json#/methods/0/result/schema/$ref');
    expect(text).toMatch(message);
  });

  it('refuses a URL $ref in a schema property named like an extension, which is a schema, not an extension', () => {
    const dir = folder('xprop', {
      'p.json': doc([
        {
          name: 'm',
          params: [],
          result: result({ type: 'object', properties: { 'x-p': { $ref: 'https://example.com/p.json' } } }),
        },
      ]),
    });
    expect(refused(dir)).toMatch(/p\.json#\/methods\/0\/result\/schema\/properties\/x-p\/\$ref: .* is a URL/);
  });

  it('refuses a lookbehind pattern, which the server could not match in linear time, at its schema', () => {
    const dir = folder('lookbehind', {
      'l.json': doc([
        { name: 'm', params: [{ name: 'a', schema: { type: 'string', pattern: '(?<=a)b' } }], result: result({}) },
      ]),
    });
    expect(refused(dir)).toMatch(/l\.json#\/methods\/0\/params\/0\/schema: .*RE2/);
  });

  // A folder holding only `openrpc.yaml` (MetaMask/api-specs publishes its API so) is not a spec the toolkit reads:
  // loaded as a spec without an API, `generate` would write empty packages.
  it('refuses a folder whose only document is YAML, naming the file', () => {
    const dir = folder('yaml', { 'openrpc.yaml': 'openrpc: 1.3.2\ninfo: {title: T, version: "1"}\nmethods: []\n' });
    expect(refused(dir)).toMatch(/yaml\/#: .*convert openrpc\.yaml to JSON/);
    expect(refused(join(dir, 'openrpc.yaml'))).toMatch(/openrpc\.yaml#: .*not YAML: convert it to JSON/);
  });

  it('refuses a folder with no document at all', () => {
    expect(refused(folder('empty', {}))).toMatch(/empty\/#: holds no OpenRPC document/);
  });
});
