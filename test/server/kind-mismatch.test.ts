/**
 * A declared param sent a value of a kind its Go field cannot take (an object for a string): encoding/json skips the
 * value, fails the decoding (`json: cannot unmarshal object into Go struct field ...`) and the node's codec answers its
 * invalid argument (utils/json/codec.go ReadRequest). The shapes carry each field's kinds (generators/server/kinds.ts),
 * so the reader stops at such a value unread: what it built is counted, whatever the machine's speed. The refusal holds
 * for every writing of the key, as Go's decoder keeps the first error while the last duplicate fills the field.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_ARGUMENT, createInfoEndpoint, infoMethods } from '../../generated/server/dist/index.js';
import { loadModel } from '../../generators/pipeline.ts';
import { endpointShapes } from '../../generators/server/shapes.ts';
import { RawValue, parseRequest } from '../../runtime/server/json.ts';
import type { Shape } from '../../runtime/server/params.ts';
import { listen, send } from '../support/rpc.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const request = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":${params}}`;
const keys = (count: number) => Array.from({ length: count }, (_, i) => `"k${i}":[${i}]`).join(',');
const ALIAS = infoMethods.find((method) => method.name === 'info.getBlockchainID')!.shape;

function read(params: string, shape: Shape = ALIAS) {
  const parsed = parseRequest(bytes(request(params)));
  const raw = parsed.members.find((member) => member.key === 'params')!.value;
  expect(raw).toBeInstanceOf(RawValue);
  return (raw as RawValue).read(shape);
}

describe('a value of a kind its field cannot take', () => {
  it('is the generated shape of info.getBlockchainID: alias takes strings only', () => {
    expect(ALIAS).toEqual({ properties: { ALIAS: { name: 'alias', types: 'string' } } });
  });

  it('is refused unbuilt: an object of 1,000,000 keys or an array of 1,000,000 items for a string', () => {
    // Before the shapes knew kinds, each was built whole (1,000,001 values) and then refused by the validator.
    expect(read(`{"alias":{${keys(1_000_000)}}}`)).toEqual({ value: undefined, built: 0 });
    expect(read(`{"alias":[${Array(1_000_000).fill('"x"').join(',')}]}`)).toEqual({ value: undefined, built: 0 });
    expect(read(`[{"alias":{${keys(1000)}}}]`)).toEqual({ value: undefined, built: 0 });
    // An unknown key holding the same is skipped (Go ignores it) and the declared one decodes.
    expect(read(`{"other":{${keys(1000)}},"alias":"X"}`)).toEqual({ value: { alias: 'X' }, built: 1 });
  });

  it('is refused inside arrays and maps by the kinds of their items and values', () => {
    const shape: Shape = {
      properties: {
        LIST: { name: 'list', shape: { itemTypes: 'string' }, types: 'array' },
        MAP: { name: 'map', shape: { values: {}, valueTypes: 'number' }, types: 'object' },
      },
    };
    expect(read('{"list":["a",{"huge":[1,2,3]},"b"]}', shape)).toEqual({ value: undefined, built: 1 });
    expect(read('{"map":{"a":1,"b":[1,2]}}', shape)).toEqual({ value: undefined, built: 1 });
    expect(read('{"list":{"0":"a"}}', shape).value).toBeUndefined();
    expect(read('{"list":["a",null],"map":{"a":1,"b":null}}', shape).value).toEqual({
      list: ['a', null],
      map: { a: 1, b: null },
    });
  });

  it('fails the decoding in any writing of the key, as Go keeps the first error; null fills nothing', () => {
    expect(read('{"alias":1,"alias":"X"}').value).toBeUndefined();
    expect(read('{"alias":{"a":1},"ALIAS":"X"}').value).toBeUndefined();
    expect(read('{"alias":"X","aliaſ":true}').value).toBeUndefined();
    expect(read('{"alias":null,"alias":"X"}').value).toEqual({ alias: 'X' });
    expect(read('{"alias":"X","alias":null}').value).toEqual({ alias: 'X' });
  });
});

describe('the node profile over HTTP', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let ignoring: Awaited<ReturnType<typeof listen>>;
  const seen: unknown[] = [];
  const handlers = {
    getBlockchainID: (params: unknown) => {
      seen.push(params);
      return { blockchainID: '11111111111111111111111111111111LpoYY' };
    },
  };
  beforeAll(async () => {
    server = await listen(createInfoEndpoint(handlers).node as never);
    // A release that does not read `alias`: its decoder skips the key, whatever its value.
    const ignoredParams = new Map([['info.getBlockchainID', ['alias']]]);
    ignoring = await listen(createInfoEndpoint(handlers, { ignoredParams }).node as never);
  });
  afterAll(async () => {
    await server.close();
    await ignoring.close();
  });

  const message = JSON.stringify(INVALID_ARGUMENT);
  const refusal = `{"jsonrpc":"2.0","error":{"code":-32000,"message":${message},"data":null},"id":1}\n`;

  it("answers the node's invalid argument to a huge object or a duplicate of another kind, unhandled", async () => {
    for (const params of [`{"alias":{${keys(200_000)}}}`, '{"alias":1,"alias":"X"}', '{"alias":["X"],"alias":"X"}']) {
      const answer = await send(server.port, { body: request(params) });
      expect(answer.text).toBe(refusal);
    }
    expect(seen).toEqual([]);
    const answer = await send(server.port, { body: request('{"alias":null,"alias":"X"}') });
    expect(JSON.parse(answer.text).result).toBeDefined();
    expect(seen).toEqual([{ alias: 'X' }]);
  });

  it('skips a param the release does not read, whatever its kind', async () => {
    seen.length = 0;
    const answer = await send(ignoring.port, { body: request(`{"alias":{${keys(1000)}},"ALIAS":1}`) });
    expect(JSON.parse(answer.text).result).toBeDefined();
    expect(seen).toEqual([{}]);
  });
});

describe('the kinds the generator writes', () => {
  const temp = mkdtempSync(join(tmpdir(), 'kind-mismatch-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it('follows $refs, unions, intersections, enums and consts, and leaves out what it cannot tell', () => {
    const params = {
      text: { type: 'string' },
      alias: ref('Alias'),
      union: { anyOf: [ref('Obj'), { type: 'string' }, { type: 'null' }] },
      both: { allOf: [{ type: ['string', 'integer'] }, { type: ['integer', 'boolean'] }] },
      picked: { enum: ['a', 1, null] },
      fixed: { const: true },
      any: {},
      open: { anyOf: [{ type: 'string' }, {}] },
      cycle: ref('Loop'),
      list: { type: 'array', items: ref('Alias') },
      map: { type: 'object', additionalProperties: { type: 'boolean' } },
    };
    const dir = join(temp, 'spec');
    mkdirSync(dir);
    const document = {
      openrpc: '1.3.2',
      info: { title: 'Kinds', version: '1.0.0' },
      servers: [{ name: 'kinds', url: 'http://127.0.0.1:9650/ext/kinds' }],
      methods: [
        {
          name: 'kinds.get',
          params: Object.entries(params).map(([name, schema]) => ({ name, schema })),
          result: { name: 'ok', schema: { type: 'boolean' } },
        },
      ],
      components: {
        schemas: {
          Alias: ref('Text'),
          Text: { type: 'string', pattern: '^[a-z]+$' },
          Obj: { type: 'object', properties: { a: { type: 'integer' } } },
          Loop: { anyOf: [ref('Loop'), { type: 'string' }] },
        },
      },
    };
    writeFileSync(join(dir, 'kinds.json'), JSON.stringify(document));
    const model = loadModel(dir);
    const properties = endpointShapes(model, model.endpoints[0]!).methods[0]!.properties as Record<
      string,
      Record<string, unknown>
    >;
    const types = Object.fromEntries(Object.values(properties).map((p) => [p.name, p.types]));
    expect(types).toEqual({
      text: 'string',
      alias: 'string',
      union: 'object string',
      both: 'number',
      picked: 'number string',
      fixed: 'boolean',
      any: undefined,
      open: undefined,
      cycle: undefined,
      list: 'array',
      map: 'object',
    });
    expect(properties.LIST!.shape).toEqual({ itemTypes: 'string' });
    expect(properties.MAP!.shape).toEqual({ values: {}, valueTypes: 'boolean' });
  });
});
