/**
 * The loader reads OpenRPC as the field writes it, only from inside the spec's folder, follows recursive schemas end to
 * end, and reports one root cause per problem (the counts and texts are pinned here).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError, type SpecProblem, loadSpec } from '../../generators/load/index.ts';
import { clientMethodName, methodTypeNames, schemaTypeName } from '../../generators/model/names.ts';
import { loadModel, renderArtifacts, specFiles } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'loader-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let count = 0;
/** A spec folder holding `files` (path -> JSON value or raw text); returns the folder. */
function folder(files: Record<string, unknown>): string {
  const dir = join(temp, `spec-${count++}`);
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
  return dir;
}

function problems(spec: string): SpecProblem[] {
  try {
    loadSpec(specFiles(spec).filter((file) => !file.endsWith('/secret.json') && !file.endsWith('/link.json')));
  } catch (error) {
    if (error instanceof SpecError) return error.problems;
    throw error;
  }
  throw new Error('the spec was accepted');
}

const doc = (methods: unknown[], components: Record<string, unknown> = {}) => ({
  openrpc: '1.2.6',
  info: { title: 'T', version: '1' },
  methods,
  components,
});
const method = (name: string, schema: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  params: [{ name: 'p', schema }],
  result: { name: 'r', schema: { type: 'string' } },
  ...extra,
});

describe('the OpenRPC text over the meta-schema', () => {
  const messages = (spec: string) => problems(spec).map((p) => `${p.pointer}: ${p.message}`);

  it('reports every meta-schema problem, each by its root cause, in document order', () => {
    const dir = folder({
      'api.json': {
        ...doc([
          { params: [], result: { name: 'r', schema: { type: 'string' } } },
          method('ok', { type: 'string' }),
          { name: 'third', params: 'none' },
        ]),
        info: { title: 'T' },
      },
    });
    expect(messages(dir)).toEqual([
      "/info: OpenRPC meta-schema: must have required property 'version'",
      "/methods/0: OpenRPC meta-schema: must have required property 'name'",
      '/methods/2/params: OpenRPC meta-schema: must be array',
    ]);
  });

  it('OpenRPC 1.4.x: checked by 1.4 rules, relative server and docs URLs accepted, a 1.5 version refused', () => {
    const relative = {
      ...doc([method('ok', { type: 'string' })]),
      openrpc: '1.4.1',
      servers: [{ url: '/rpc' }],
      externalDocs: { url: '../docs/index.html' },
    };
    expect(loadSpec(specFiles(folder({ 'api.json': relative })))).toHaveLength(1);
    expect(messages(folder({ 'api.json': { ...relative, openrpc: '1.5.0' } }))).toEqual([
      expect.stringMatching(/^\/openrpc: OpenRPC meta-schema: must be equal to one of the allowed values/),
    ]);
  });

  it('a method reference may carry paramStructure and x- extensions, copied onto the foreign method; nothing else', () => {
    const foreign = doc([method('eth_thing', { type: 'string' })]);
    const ref = { $ref: './foreign.json#/methods/0', paramStructure: 'by-position', 'x-side-effects': 'none' };
    const dir = folder({ 'api.json': doc([ref]), 'foreign.json': foreign });
    const [bundle] = loadSpec([join(dir, 'api.json')]);
    expect(bundle!.document.methods).toEqual([
      { ...method('eth_thing', { type: 'string' }), paramStructure: 'by-position', 'x-side-effects': 'none' },
    ]);
    const renamed = folder({ 'api.json': doc([{ ...ref, name: 'other' }]), 'foreign.json': foreign });
    expect(() => loadSpec([join(renamed, 'api.json')])).toThrow(/methods\/0.*additional properties \("name"\)/s);
  });

  it('a `$schema`, `$id` or any extension member never reaches the validator as a keyword', () => {
    const dir = folder({
      'api.json': { $schema: 'https://meta.open-rpc.org/', 'x-$id': 'y', ...doc([method('ok', { type: 'string' })]) },
    });
    expect(loadSpec(specFiles(dir))).toHaveLength(1);
  });
});

describe('standard OpenRPC in', () => {
  it('resolves #/components/<kind>/... of every kind, and any JSON pointer into a file of the spec folder', () => {
    const dir = folder({
      'api.json': {
        ...doc(
          [
            {
              name: 'eth_getBalance',
              params: [
                { $ref: '#/components/contentDescriptors/Address' },
                { name: 'block', schema: { $ref: './defs.json#/definitions/BLOCK_ID' } },
              ],
              result: { name: 'balance', schema: { $ref: './defs.json#/definitions/Quantity' } },
              errors: [{ $ref: '#/components/errors/NotFound' }],
              tags: [{ $ref: '#/components/tags/eth' }],
              examples: [{ $ref: '#/components/examplePairingObjects/Zero' }],
            },
            {
              name: 'get_versions',
              params: [],
              result: { name: 'v', schema: { type: 'array', items: { type: 'string' } } },
            },
            { name: 'link_clicked', params: [{ name: 'url', schema: { type: 'string' } }] },
          ],
          {
            contentDescriptors: {
              Address: { name: 'address', required: true, schema: { $ref: '#/components/schemas/Address' } },
            },
            schemas: {
              Address: { type: 'string', pattern: '^0x[0-9a-f]{40}$' },
              Config: { type: 'object', properties: { default: { $ref: './defs.json#/definitions/Quantity' } } },
            },
            errors: { NotFound: { code: 4004, message: 'not found' } },
            tags: { eth: { name: 'eth' } },
            examples: { Zero: { name: 'zero', value: '0x0' } },
            examplePairingObjects: {
              Zero: {
                name: 'zero',
                params: [
                  { name: 'address', value: `0x${'0'.repeat(40)}` },
                  { name: 'block', value: 'latest' },
                ],
                result: { $ref: '#/components/examples/Zero' },
              },
            },
          },
        ),
        'x-vendor': { note: 'carried as written', schema: { $ref: './defs.json#/definitions/Quantity' } },
      },
      'defs.json': {
        definitions: {
          BLOCK_ID: { oneOf: [{ enum: ['latest', 'pending'] }, { $ref: '#/definitions/Quantity' }] },
          Quantity: { type: 'string', pattern: '^0x(0|[1-9a-f][0-9a-f]*)$' },
        },
      },
    });
    const [bundle] = loadSpec([join(dir, 'api.json')]);
    // biome-ignore lint/suspicious/noExplicitAny: the test reads deep into the bundled JSON, whose shape it asserts
    const document = bundle!.document as Record<string, any>;
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Address', 'BLOCK_ID', 'Config', 'Quantity']);
    expect(document.components.schemas.Config.properties.default).toEqual({ $ref: '#/components/schemas/Quantity' });
    expect(document.methods[0].params[1].schema).toEqual({ $ref: '#/components/schemas/BLOCK_ID' });
    expect(document.components.schemas.BLOCK_ID.oneOf[1]).toEqual({ $ref: '#/components/schemas/Quantity' });
    expect(document['x-vendor']).toEqual({
      note: 'carried as written',
      schema: { $ref: '#/components/schemas/Quantity' },
    });
    expect(JSON.stringify(document)).not.toContain('defs.json');
    const model = loadModel(join(dir, 'api.json'));
    expect(model.endpoints[0]!.methods.map((m) => [m.name, m.shortName, m.typeNames.params])).toEqual([
      ['eth_getBalance', 'ethGetBalance', 'EthGetBalanceParams'],
      ['get_versions', 'getVersions', 'GetVersionsParams'],
      ['link_clicked', 'linkClicked', 'LinkClickedParams'],
    ]);
    expect(model.endpoints[0]!.methods[2]!.result).toBeUndefined();
  });

  it('names any naming style idiomatically and keeps the wire name', () => {
    expect(
      ['eth_getBalance', 'starknet_getBlockWithTxs', 'get_versions', 'platform.getHeight', 'ETH_call'].map((name) =>
        clientMethodName(name),
      ),
    ).toEqual(['ethGetBalance', 'starknetGetBlockWithTxs', 'getVersions', 'getHeight', 'ethCall']);
    expect(['Pet', 'BLOCK_ID', 'NodeID', 'Uint64', 'pet', 'block_header'].map(schemaTypeName)).toEqual([
      'Pet',
      'BlockId',
      'NodeID',
      'Uint64',
      'Pet',
      'BlockHeader',
    ]);
    expect(methodTypeNames('starknet_getBlockWithTxs')).toEqual({
      params: 'StarknetGetBlockWithTxsParams',
      result: 'StarknetGetBlockWithTxsResult',
    });
  });

  it('refuses two wire names that would share a client name, naming both', () => {
    const dir = folder({
      'api.json': doc([method('get_block', { type: 'string' }), method('getBlock', { type: 'string' })]),
    });
    expect(() => loadModel(dir)).toThrow(
      /client method ApiClient\.getBlock would stand for both get_block and getBlock/,
    );
  });

  it('applies the avalanche profile only where the folder opts in', () => {
    const files = { 'api.json': doc([method('get_block', { type: 'string' })]) };
    expect(loadSpec(specFiles(folder(files)))).toHaveLength(1);
    const opted = problems(folder({ ...files, 'openrpc.config.json': { profile: 'avalanche' } })).map((p) => p.message);
    expect(opted).toContain(
      'method name "get_block" must be <service>.<lowerCamelCase>, the only form the node accepts',
    );
    expect(problems(folder({ ...files, 'openrpc.config.json': { profile: 'ethereum' } }))[0]!.message).toBe(
      'unknown profile "ethereum"; known: avalanche',
    );
  });
});

describe('$ref reads only inside the spec folder', () => {
  const secret = join(temp, 'secret.json');
  writeFileSync(secret, JSON.stringify({ definitions: { Key: { const: 'hunter2-do-not-print' } } }));

  it.each([
    ['a relative path up', '../secret.json#/definitions/Key'],
    ['an absolute path', `${secret}#/definitions/Key`],
    ['a system file', '/etc/passwd'],
    ['a URL', 'https://example.com/schema.json'],
  ])('%s is refused, naming the ref and its pointer, never the target', (_what, ref) => {
    const dir = folder({ 'api.json': doc([method('get', { $ref: ref })]) });
    const found = problems(dir);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/methods/0/params/0/schema/$ref');
    expect(found[0]!.message).toContain(`$ref "${ref}"`);
    expect(JSON.stringify(found)).not.toMatch(/hunter2|root:/);
  });

  it('a symlink inside the folder that leads outside is refused too', () => {
    const dir = folder({ 'api.json': doc([method('get', { $ref: './link.json#/definitions/Key' })]) });
    symlinkSync(secret, join(dir, 'link.json'));
    expect(problems(dir).map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^\$ref "\.\/link\.json#\/definitions\/Key" points outside the spec folder .+; only files inside it are read$/,
      ),
    ]);
  });
});

describe('recursive schemas, end to end', () => {
  it('a self-referencing schema gives a recursive type, a validator and docs', { timeout: 60_000 }, async () => {
    const model = loadModel('test/fixtures/recursive');
    const files = await renderArtifacts(model);
    const text = (path: string) => String(files.find((f) => f.path === path)!.contents);
    expect(text('client/src/types.ts')).toMatch(
      /export interface Node \{[^}]*children\?: Node\[\];[^}]*parent\?: Parent;/s,
    );
    expect(text('client/src/types.ts')).toContain('export type Parent = null | Node;');
    expect(text('docs/tree.html')).toContain('tree_put');
    const out = join(temp, 'recursive');
    for (const file of files) {
      mkdirSync(dirname(join(out, file.path)), { recursive: true });
      writeFileSync(join(out, file.path), file.contents);
    }
    const { createTreeEndpoint } = await import(pathToFileURL(join(out, 'server/dist/index.js')).href);
    const app = createTreeEndpoint({ treePut: () => 2, treePath: () => ({ value: 'leaf', children: [] }) });
    const call = async (node: unknown) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tree_put', params: { node } });
      return (
        await app.fetch(
          new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
        )
      ).json();
    };
    expect(
      await call({ value: 'a', children: [{ value: 'b', children: [{ value: 'c', parent: { value: 'b' } }] }] }),
    ).toEqual({ jsonrpc: '2.0', id: 1, result: 2 });
    const refused = await call({ value: 'a', children: [{ value: 'b', children: [{ value: 3 }] }] });
    expect(refused.error.code).toBe(-32602);
  });
});

describe('one root cause per problem', () => {
  const project = () => {
    const dir = join(temp, `project-${count++}`);
    cpSync('openrpc', dir, { recursive: true });
    return dir;
  };
  const edit = (dir: string, file: string, change: (text: string) => string) =>
    writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
  const lines = (found: SpecProblem[]) =>
    found.map((p) => `${p.file.replace(/^.*?\/project-\d+\//, '')}#${p.pointer}: ${p.message}`);

  it('one wrong character in an example txID: one line, the format', () => {
    const dir = project();
    edit(dir, 'methods/avm/getTx.json', (text) => {
      const id = /"txID":\s*"([1-9A-HJ-NP-Za-km-z]{45,52})"/.exec(text.slice(text.indexOf('"examples"')))![1]!;
      return text.replaceAll(id, `${id.slice(0, -1)}${id.endsWith('a') ? 'b' : 'a'}`);
    });
    expect(lines(problems(dir))).toEqual([
      expect.stringMatching(/^methods\/avm\/getTx\.json#\/examples\/\d+\/.*txID: must match format "avax-cb58"$/),
    ]);
  });

  it('invalid JSON in a shared components file: reported once, with line and column', () => {
    const dir = project();
    edit(dir, 'components/common.json', (text) => text.replace('"schemas": {', '"schemas": {,'));
    expect(lines(problems(dir))).toEqual([
      expect.stringMatching(/^components\/common\.json#: invalid JSON \(line \d+, column \d+\): unexpected ","$/),
    ]);
  });

  it('an unknown type: one line, with what was meant', () => {
    const dir = project();
    edit(dir, 'methods/platform/getBalance.json', (text) => text.replace('"type": "object"', '"type": "obejct"'));
    expect(lines(problems(dir))).toEqual([
      expect.stringMatching(
        /^methods\/platform\/getBalance\.json#\/.+\/type: unknown type "obejct": did you mean "object"\?$/,
      ),
    ]);
  });

  it('a value that fails a oneOf: the closest branch only', () => {
    const dir = folder({
      'api.json': doc([
        method(
          'put',
          {
            oneOf: [
              { type: 'string' },
              {
                type: 'object',
                required: ['id', 'size'],
                properties: { id: { type: 'string' }, size: { type: 'integer' } },
              },
            ],
          },
          {
            examples: [
              {
                name: 'bad',
                params: [{ name: 'p', value: { id: 'a', size: 'big' } }],
                result: { name: 'r', value: 'ok' },
              },
            ],
          },
        ),
      ]),
    });
    // A foreign document's example is advice: the fault is reported, generation goes on without the example.
    const model = loadModel(dir);
    expect(lines(model.advice ?? []).map((line) => line.replace(/^.*api\.json/, 'api.json'))).toEqual([
      'api.json#/methods/0/examples/0/params/0/value/size: must be integer',
    ]);
    expect(model.endpoints[0]!.methods[0]!.examples).toEqual([]);
    // Under the avalanche profile the same example stops generation.
    writeFileSync(join(dir, 'openrpc.config.json'), JSON.stringify({ profile: 'avalanche' }));
    expect(lines(problems(dir))).toContainEqual(
      expect.stringMatching(/api\.json#\/methods\/0\/examples\/0\/params\/0\/value\/size: must be integer$/),
    );
  });
});
