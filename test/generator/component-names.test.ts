/**
 * Shared schemas whose names the naming rule makes one (Filecoin Forest's `Int64` and `int64`): the model names each
 * once, knowing all of them, and every artifact keeps the two apart. The fixture is test/fixtures/component-names.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTypeNames } from '../../generators/model/names.ts';
import { generate, loadModel } from '../../generators/pipeline.ts';
import { strictDiagnostics } from './strict-diagnostics.ts';

const FIXTURE = 'test/fixtures/component-names';
const temp = mkdtempSync(join(tmpdir(), 'component-names-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const out = join(temp, 'out');
// The server's runtime imports its dependencies (`re2js`, `@scure/base`), found from the packages' folder upwards.
symlinkSync(resolve(import.meta.dirname, '../../node_modules'), join(temp, 'node_modules'));
const read = (path: string) => readFileSync(join(out, path), 'utf8');

describe('shared schemas the naming rule would merge', () => {
  beforeAll(() => generate({ spec: FIXTURE, out }));

  it('the schema written as its type name keeps it, wherever it stands; the other is numbered', () => {
    expect(loadModel(FIXTURE).schemaTypeNames).toEqual({ Int64: 'Int64', TipSet: 'TipSet', int64: 'Int64_2' });
    // The fixture lists `int64` first: reversed, the names stay.
    const document = JSON.parse(readFileSync(join(FIXTURE, 'forest.json'), 'utf8'));
    document.components.schemas = Object.fromEntries(Object.entries(document.components.schemas).reverse());
    const reversed = join(temp, 'reversed');
    cpSync(FIXTURE, reversed, { recursive: true });
    writeFileSync(join(reversed, 'forest.json'), JSON.stringify(document));
    expect(loadModel(reversed).schemaTypeNames).toEqual({ Int64: 'Int64', TipSet: 'TipSet', int64: 'Int64_2' });
  });

  it('numbers in document order, past every name a schema, the generated code or a method holds', () => {
    // `BlockHash3` held elsewhere (a method's type, a runtime export).
    expect(
      componentTypeNames(['block-hash', 'block_hash', 'BlockHash2', 'blockHash'], new Set(['BlockHash3'])),
    ).toEqual(
      new Map([
        ['block-hash', 'BlockHash'],
        ['block_hash', 'BlockHash4'],
        ['BlockHash2', 'BlockHash2'],
        ['blockHash', 'BlockHash5'],
      ]),
    );
    // A name the generated code needs for itself takes `Schema` first (names.ts), then the number.
    expect(componentTypeNames(['BigInt', 'BigIntSchema'], new Set())).toEqual(
      new Map([
        ['BigInt', 'BigIntSchema2'],
        ['BigIntSchema', 'BigIntSchema'],
      ]),
    );
  });

  it('client and server types hold both, each where its schema is used', () => {
    for (const pkg of ['client', 'server']) {
      const types = read(`${pkg}/src/types.ts`);
      expect(types).toContain('export type Int64 = string;');
      expect(types).toContain('export type Int64_2 = number;');
      expect(types).toMatch(/export interface TipSet \{\n(.*\n)*? {2}height: Int64_2;\n(.*\n)*? {2}epoch: Int64;\n/);
      expect(types).toMatch(/export interface FilecoinChainHeadParams \{\n(.*\n)*? {2}height\?: Int64;\n/);
    }
  });

  it('the client and the server type-check as a strict consumer compiles them', () => {
    const { count, text } = strictDiagnostics([join(out, 'client/src/index.ts'), join(out, 'server/src/index.ts')]);
    expect(text).toBe('');
    expect(count).toBe(0);
  });

  it('the docs list both under their own names, and link each use to its own entry', () => {
    const types = read('docs/types.html');
    expect(types).toContain('id="Int64"');
    expect(types).toContain('id="int64"');
    const page = read('docs/forest.html');
    expect(page).toContain('href="types.html#int64" title="">int64<');
    expect(page).toContain('href="types.html#Int64" title="">Int64<');
  });
});

// urbit/roller-rpc-client's `src/openrpc.json` (08895b51) has method `spawn` taking a param `data` of the shared schema
// `SpawnParams`: the method's own params type is `SpawnParams` too, which once refused the whole document.
describe('a shared schema named like a method params type (urbit roller: spawn and SpawnParams)', () => {
  const dir = join(temp, 'roller');
  const document = {
    openrpc: '1.2.6',
    info: { title: 'Roller', version: '1.0.0' },
    methods: [
      {
        name: 'spawn',
        paramStructure: 'by-name',
        params: [{ name: 'data', required: true, schema: { $ref: '#/components/schemas/SpawnParams' } }],
        result: { name: 'ok', schema: { $ref: '#/components/schemas/SpawnResult' } },
      },
    ],
    components: {
      schemas: {
        SpawnParams: { title: 'SpawnParams', type: 'object', properties: { ship: { type: 'string' } } },
        // Named as the method's result type and its result: one thing, which keeps its name.
        SpawnResult: { type: 'boolean' },
      },
    },
  };
  beforeAll(() => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'roller.json'), JSON.stringify(document));
  });

  it('numbers the schema, keeps the method its params type, and a result schema named as the result type is it', () => {
    expect(loadModel(dir).schemaTypeNames).toEqual({ SpawnParams: 'SpawnParams2', SpawnResult: 'SpawnResult' });
  });

  it('generates a client and server that type-check under strict', async () => {
    const target = join(temp, 'roller-out');
    await generate({ spec: dir, out: target });
    const types = readFileSync(join(target, 'client/src/types.ts'), 'utf8');
    expect(types).toMatch(/export interface SpawnParams \{\n(.*\n)*? {2}data: SpawnParams2;\n/);
    const { text } = strictDiagnostics([join(target, 'client/src/index.ts'), join(target, 'server/src/index.ts')]);
    expect(text).toBe('');
  });
});
