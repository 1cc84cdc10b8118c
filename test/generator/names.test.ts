/**
 * Every generated name is decided once, from the spec; a name that would stand for two things stops generation naming
 * both sides, and a method named like a member the client needs for itself is renamed. Table-driven over small variations of one fixture.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import {
  RESERVED_METHOD_NAMES,
  RESERVED_TYPE_NAMES,
  clientClassName,
  clientErrorsName,
  clientMethodName,
  clientOptionsName,
  methodTypeNames,
  namespaceNames,
  schemaTypeName,
  serverNames,
} from '../../generators/model/names.ts';
import { loadModel } from '../../generators/pipeline.ts';
import { JsonRpcClient } from '../../generated/client/dist/runtime.js';

const FIXTURE = 'test/fixtures/golden/by-name-params';
const temp = mkdtempSync(join(tmpdir(), 'names-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

type Document = { methods: Array<Record<string, unknown>> } & Record<string, unknown>;

/** The fixture, changed by `edit`, saved as `<file>.json`; returns the build error's text, or '' when it builds. */
function buildError(name: string, file: string, edit: (document: Document) => void): string {
  const dir = join(temp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  const document = JSON.parse(readFileSync(join(FIXTURE, 'ledger.json'), 'utf8')) as Document;
  edit(document);
  rmSync(join(dir, 'ledger.json'));
  writeFileSync(join(dir, `${file}.json`), JSON.stringify(document));
  try {
    loadModel(dir);
    return '';
  } catch (error) {
    if (error instanceof SpecError) return error.message;
    throw error;
  }
}

const method = (document: Document) => document.methods[0]!;
const resultProperties = (document: Document) =>
  (method(document).result as { schema: { properties: Record<string, unknown> } }).schema.properties;

describe('names', () => {
  it.each([
    [
      'a titled schema named like a server module export',
      'ledger',
      (d: Document) => void (resultProperties(d).balance = { title: 'Ledger handlers', type: 'string' }),
      'the name "LedgerHandlers" would stand for both the server handlers of',
    ],
    [
      'a titled schema named like a method type',
      'ledger',
      (d: Document) => void (resultProperties(d).balance = { title: 'LedgerGetBalanceParams', type: 'string' }),
      'the name "LedgerGetBalanceParams" would stand for both the params of ledger.getBalance and the schema titled',
    ],
    [
      'a method renamed for a reserved member, beside a method of that name',
      'ledger',
      (d: Document) => d.methods.push({ ...method(d), name: 'ledger.then' }, { ...method(d), name: 'ledger.callThen' }),
      'the client method LedgerClient.callThen would stand for both ledger.then and ledger.callThen',
    ],
    [
      'an endpoint named like a package file',
      'runtime',
      () => undefined,
      'the endpoint name "runtime" (the document\'s file name) is taken by a file of the generated packages',
    ],
  ])('%s fails loudly', (_label, file, edit, message) => {
    const error = buildError(_label.replace(/\W+/g, '-'), file, edit);
    expect(error).toContain(message);
    expect(error).toMatch(/\.json#/);
  });

  it('names where a titled schema stands by a JSON pointer, its property name escaped as pointers escape it', () => {
    const error = buildError('escaped-pointer', 'ledger', (d) => {
      resultProperties(d)['a/b~c d'] = { title: 'Ledger handlers', type: 'string' };
    });
    expect(error).toContain('the schema titled "Ledger handlers" at ');
    expect(error).toContain('/properties/a~1b~0c d');
  });

  // Filecoin's `BigInt`, a document's `Error` or `Response`: names the field uses, that the generated code needs too.
  it('a schema named like a global type or a runtime export takes Schema after its name', () => {
    expect(['BigInt', 'Error', 'TimeoutError', 'Endpoint', 'Pet'].map(schemaTypeName)).toEqual([
      'BigIntSchema',
      'ErrorSchema',
      'TimeoutErrorSchema',
      'EndpointSchema',
      'Pet',
    ]);
    const error = buildError('reserved-and-renamed', 'ledger', (d) => {
      resultProperties(d).balance = { title: 'Promise', type: 'string' };
      resultProperties(d).other = { title: 'Promise schema', type: 'integer' };
    });
    expect(error).toContain('the name "PromiseSchema" would stand for both the schema titled "Promise"');
  });

  // The one rule of names.ts: any name a document holds becomes an identifier, the same on every run.
  it.each([
    ['platform.getHeight', 'getHeight', 'PlatformGetHeightParams', 'PlatformGetHeight'],
    ['eth_getBalance', 'ethGetBalance', 'EthGetBalanceParams', 'EthGetBalance'],
    ['получить', 'получить', 'ПолучитьParams', 'Получить'],
    ['😀', 'u1F600', 'U1F600Params', 'U1F600'],
    ['-', 'u2D', 'U2DParams', 'U2D'],
    ['x.😀', 'u1F600', 'XU1F600Params', 'XU1F600'],
    ['42', '_42', '_42Params', '_42'],
    ['hasOwnProperty', 'callHasOwnProperty', 'HasOwnPropertyParams', 'HasOwnProperty'],
    ['to_json', 'toJson', 'ToJsonParams', 'ToJson'],
    ['x.toJSON', 'callToJSON', 'XToJSONParams', 'XToJSON'],
    ['ledger.url', 'callUrl', 'LedgerUrlParams', 'LedgerUrl'],
    ['__proto__', 'proto', 'ProtoParams', 'Proto'],
    ['', '_', '_Params', '_'],
  ])('%j: client method %s, params type %s, schema type %s', (wire, client, params, schema) => {
    expect(clientMethodName(wire)).toBe(client);
    expect(methodTypeNames(wire).params).toBe(params);
    expect(schemaTypeName(wire)).toBe(schema);
  });

  // A namespace is an object on the client that JSON.stringify walks and `await` may touch: its members, too.
  it('a namespace or its member named like a reserved member takes call before it', () => {
    expect(namespaceNames('fraud.toJSON')).toEqual({ property: 'fraud', member: 'callToJSON' });
    expect(namespaceNames('then.get')).toEqual({ property: 'callThen', member: 'get' });
    expect(clientMethodName('fraud.toJSON', true)).toBe('fraudToJSON');
  });

  it('a title that is no identifier by itself still names a type', () => {
    expect(
      buildError('title-42', 'ledger', (d) => void (resultProperties(d).balance = { title: '42', type: 'string' })),
    ).toBe('');
  });

  it('the same titled schema written twice is one type, not two', () => {
    const summary = { title: 'Balance summary', type: 'object', properties: { total: { type: 'string' } } };
    expect(
      buildError('same-title-twice', 'ledger', (d) =>
        Object.assign(resultProperties(d), { now: summary, before: structuredClone(summary) }),
      ),
    ).toBe('');
  });

  it("reserves every name a package exports besides the spec's names", () => {
    const model = loadModel('openrpc');
    const fromSpec = new Set(
      model.endpoints.flatMap((e) => [
        clientClassName(e.typeName),
        clientOptionsName(e.typeName),
        clientErrorsName(e.typeName),
        ...Object.values(serverNames(e.typeName)),
      ]),
    );
    for (const index of ['generated/client/src/index.ts', 'generated/server/src/index.ts']) {
      const exported = [...readFileSync(index, 'utf8').matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) =>
        m[1]!
          .split(',')
          // `RpcError as AvalancheRpcError` exports the name after `as`.
          .map(
            (name) =>
              name
                .trim()
                .replace(/^type /, '')
                .split(/\s+as\s+/)
                .pop()!,
          )
          .filter(Boolean),
      );
      expect(exported.length, index).toBeGreaterThan(0);
      for (const name of exported)
        expect(
          name in RESERVED_TYPE_NAMES || fromSpec.has(name),
          `${index} exports ${name}, which RESERVED_TYPE_NAMES does not reserve`,
        ).toBe(true);
    }
  });

  it('reserves every member of the client runtime class as a method name', () => {
    const client = new JsonRpcClient(
      { fetch: async () => ({ status: 200, text: async () => '' }) },
      'http://127.0.0.1:9650',
      '/ext/x',
    );
    const members = [...Object.keys(client), ...Object.getOwnPropertyNames(JsonRpcClient.prototype)];
    expect(members).toContain('url');
    for (const member of members) expect(RESERVED_METHOD_NAMES, member).toContain(member);
  });
});
