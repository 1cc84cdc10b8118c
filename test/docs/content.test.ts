/**
 * What each method section tells: types as the wire carries them, result trees with their variants, errors,
 * versions and deprecations, and the notes where the prose docs differ from the node.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaNode } from '../../generators/docs/schema-tree.ts';
import { typeExpression } from '../../generators/docs/schema-view.ts';
import { schemaContext } from '../../generators/docs/site-view.ts';
import { avalancheFormats } from '../../generators/formats.ts';
import type { JsonSchema, MethodModel } from '../../generators/model/types.ts';
import { type BuiltSite, SPECS, attributeValues, buildSite, methodSection, textOf } from './site.ts';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const schemas: Record<string, JsonSchema> = {
  Uint64: { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'A decimal string.' },
  Uint64Param: {
    anyOf: [
      { type: 'string', pattern: '^[0-9]{1,20}$' },
      { type: 'integer', minimum: 0 },
    ],
  },
  ID: { type: 'string', format: 'avax-cb58', description: 'A cb58 ID.' },
  NodeID: { type: 'string', format: 'avax-node-id' },
  HexNoChecksum: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' },
  NullableHex: { oneOf: [ref('HexNoChecksum'), { type: 'null' }] },
  UnixTime: { ...ref('Uint64'), description: 'Unix seconds.' },
  Owner: { type: 'object', properties: { threshold: ref('Uint64') }, required: ['threshold'] },
  Loop: { type: 'object', properties: { next: ref('Loop') } },
  Kind: { oneOf: [{ title: 'A', type: 'object', properties: { a: { type: 'boolean' } } }, ref('Owner')] },
};
const context = { schemas, typeHref: (name: string) => `types.html#${name}`, linker: () => undefined };
const typeText = (schema: JsonSchema) => textOf(typeExpression(schema, context).toHTML());

describe('types as the wire carries them', () => {
  it.each([
    [ref('Uint64'), 'Uint64 (decimal string)'],
    [ref('UnixTime'), 'UnixTime (decimal string)'],
    [ref('ID'), 'ID (cb58)'],
    [ref('Uint64Param'), 'Uint64Param (decimal string or number)'],
    [ref('NullableHex'), 'NullableHex (0x hex or null)'],
    [{ type: 'array', items: ref('NodeID') }, 'array of NodeID (NodeID- + cb58)'],
    [{ type: ['array', 'null'], items: ref('ID') }, 'array of ID (cb58) or null'],
    [
      { type: 'object', propertyNames: ref('NodeID'), additionalProperties: ref('Uint64') },
      'map of NodeID (NodeID- + cb58) → Uint64 (decimal string)',
    ],
    [
      { type: 'object', additionalProperties: { title: 'Entry', type: 'object', properties: {} } },
      'map of string → Entry',
    ],
    [{ type: 'string', enum: ['hex', 'json'] }, '"hex" | "json"'],
    [{ const: 'Dropped' }, '"Dropped"'],
    [{ anyOf: [ref('HexNoChecksum'), ref('Owner')] }, 'HexNoChecksum (0x hex) or Owner'],
    [{ type: 'integer', minimum: 0 }, 'integer'],
    [{ type: 'string', pattern: '^0x[0-9a-f]{96}$' }, 'string (0x hex)'],
    [{}, 'any JSON'],
  ] as Array<[JsonSchema, string]>)('%j reads "%s"', (schema, expected) => {
    expect(typeText(schema)).toBe(expected);
  });

  it.each(Object.keys(avalancheFormats))(
    'tells how a string of format %s looks on the wire, not just its format name',
    (format) => {
      expect(typeText({ type: 'string', format })).not.toBe(`string (${format})`);
    },
  );

  it('links a named type to its entry on the types page, with its description as a tooltip', () => {
    const html = typeExpression(ref('ID'), context).toHTML();
    expect(html).toContain('href="types.html#ID"');
    expect(html).toContain('title="A cb58 ID."');
  });

  it('builds a tree: object fields, fields of a named type folded, variants as branches, and no endless loop', () => {
    const node = schemaNode(
      'result',
      {
        type: 'object',
        required: ['owner'],
        properties: { owner: ref('Owner'), kind: ref('Kind'), loop: ref('Loop') },
      },
      context,
    );
    const [owner, kind, loop] = node.fields;
    expect(owner).toMatchObject({ name: 'owner', required: true, open: false, fieldsLabel: 'Fields of Owner' });
    expect(owner!.fields.map((f) => [f.name, textOf(f.type.toHTML()), f.required])).toEqual([
      ['threshold', 'Uint64 (decimal string)', true],
    ]);
    expect(kind!.variants.map((v) => textOf(v.type.toHTML()))).toEqual(['A', 'Owner']);
    expect(loop!.fields[0]!.name).toBe('next');
    expect(loop!.fields[0]!.fields).toEqual([]);
  });

  it('tells if/then/else as a rule', () => {
    const node = schemaNode(
      'r',
      {
        type: 'object',
        properties: { status: { type: 'string' }, reason: { type: 'string' } },
        if: { properties: { status: { const: 'Dropped' } } },
        then: { required: ['reason'] },
        else: { properties: { reason: false } },
      },
      context,
    );
    expect(node.rules.map((rule) => textOf(rule.toHTML()))).toEqual([
      'When status is "Dropped": reason is required. Otherwise: reason is absent.',
    ]);
  });
});

describe('method sections of the real spec', () => {
  let site: BuiltSite;
  let methods: Array<{ endpoint: string; method: MethodModel }>;
  beforeAll(async () => {
    site = await buildSite(SPECS.real);
    methods = site.model.endpoints.flatMap((endpoint) =>
      endpoint.methods.map((method) => ({ endpoint: endpoint.name, method })),
    );
  });
  const section = (endpoint: string, name: string) => methodSection(site.page(`${endpoint}.html`), name);

  it('shows the history of each field, param, enum value and result shape', () => {
    const text = (endpoint: string, name: string) => textOf(section(endpoint, name)).replace(/\s+/g, ' ');
    expect(text('p-chain', 'platform.getL1Validator')).toMatch(/validationID.*Releases: since v1\.12\.2\./);
    expect(text('p-chain', 'platform.getStake')).toMatch(/validatorsOnly.*Releases: since v1\.10\.1\./);
    expect(text('p-chain', 'platform.getValidatorsAt')).toContain(
      'Earlier shape (removed in v1.10.6): The shape before v1.10.6',
    );
    expect(text('x-chain', 'avm.getTxStatus')).toContain('Value "Rejected": removed in v1.9.12.');
    expect(textOf(site.page('types.html')).replace(/\s+/g, ' ')).toMatch(
      /stakeAmount.*Releases: deprecated since v1\.9\.8; removed in v1\.12\.2\./,
    );
  });

  it('shows params with name, required and description, errors with codes and messages, and the result', () => {
    const siteContext = schemaContext(site.model);
    for (const { endpoint, method } of methods) {
      const html = section(endpoint, method.name);
      const text = textOf(html);
      // The params table: one row per param, its name in the row header and "required" or "optional" in its cell.
      const table = /<table class="params">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
      const rows = [
        ...table.matchAll(
          /<th scope="row"><code>([^<]*)<\/code><\/th>[\s\S]*?<td data-label="Required">([\s\S]*?)<\/td>/g,
        ),
      ];
      expect(
        rows.map((row) => [textOf(row[1]!), textOf(row[2]!)]),
        method.name,
      ).toEqual(method.params.map((param) => [param.name, param.required ? 'required' : 'optional']));
      for (const param of method.params)
        expect(text).toContain(textOf(param.description.split('\n')[0]!.replace(/`/g, '')).slice(0, 20));
      for (const error of method.errors) expect(text).toContain(`${error.code}${error.message}`);
      const result = textOf(html.slice(html.indexOf('<h3>Result</h3>'), html.indexOf('<h3>Errors</h3>')));
      if (method.result)
        expect(result, method.name).toContain(
          `${method.result.name} ${textOf(typeExpression(method.result.schema, siteContext).toHTML())}`,
        );
      else expect(result, method.name).toContain('This method sends no result.');
    }
  });

  it('notes every discrepancy with the prose docs, and every change', () => {
    for (const { endpoint, method } of methods) {
      const text = textOf(section(endpoint, method.name)).replace(/\s+/g, ' ');
      expect(text.includes('The prose docs say otherwise')).toBe(method.discrepancies.length > 0);
      for (const sentence of [...method.discrepancies, ...method.changes.map((c) => c.description)]) {
        expect(text).toContain(sentence.replace(/`|\*\*/g, '').replace(/\s+/g, ' '));
      }
    }
  });

  it('badges deprecations and node versions, and names the replacement', () => {
    for (const { endpoint, method } of methods) {
      const html = section(endpoint, method.name);
      const badges = [...html.matchAll(/<span class="badge badge-(\w+)">([^<]*)<\/span>/g)].map(
        (m) => `${m[1]}: ${m[2]}`,
      );
      const { since, deprecatedSince, removedIn } = method.versions;
      expect(badges.some((b) => b.startsWith('deprecated'))).toBe(method.deprecated);
      if (deprecatedSince) expect(badges).toContain(`deprecated: deprecated since ${deprecatedSince}`);
      if (since) expect(badges).toContain(`since: since ${since}`);
      if (removedIn) expect(badges).toContain(`removed: removed in ${removedIn}`);
      if (method.replacement) expect(textOf(html)).toContain(`Use instead: ${method.replacement.replace(/`/g, '')}`);
    }
    expect(section('p-chain', 'platform.getBalance')).toContain(
      'Use instead: <a href="p-chain.html#platform.getUTXOs">platform.getUTXOs</a>',
    );
  });

  it('draws the validator kinds of getCurrentValidators as branches of the result tree', () => {
    const html = section('p-chain', 'platform.getCurrentValidators');
    const variants = [
      ...html.matchAll(
        /<li class="variant"(?: data-[a-z-]+="v[\d.]+")*><div class="node-head"><span class="type"><a class="type-name" href="types.html#(\w+)"/g,
      ),
    ].map((m) => m[1]);
    expect(variants).toEqual([
      'PlatformPrimaryNetworkValidator',
      'PlatformSubnetPermissionlessValidator',
      'PlatformPermissionedValidator',
      'PlatformL1Validator',
    ]);
    expect(textOf(html)).toContain('One of 4 kinds');
  });

  it('shows maps and conditional fields in words', () => {
    expect(textOf(section('p-chain', 'platform.getValidatorsAt'))).toMatch(
      /map of NodeID \([^)]*\) → PlatformValidatorAtHeight/,
    );
    expect(textOf(section('p-chain', 'platform.getTxStatus'))).toContain(
      'When status is "Dropped": reason is string (required). Otherwise: reason is absent.',
    );
  });

  it('gives every shared type an entry on the types page, with the methods and types that name it', () => {
    const types = site.page('types.html');
    const ids = attributeValues(types, 'id');
    for (const name of Object.keys(site.model.schemas)) expect(ids).toContain(name);
    const entry = (name: string) =>
      types.slice(types.indexOf(`id="${name}"`), types.indexOf('</section>', types.indexOf(`id="${name}"`)));
    // avm.getHeight's result names Uint64; platform.getHeight's names PlatformHeight, whose field is a Uint64.
    expect(entry('Uint64')).toContain('href="x-chain.html#avm.getHeight"');
    expect(entry('Uint64')).toContain('href="types.html#PlatformHeight"');
    expect(entry('Uint64')).not.toContain('href="p-chain.html#platform.getHeight"');
    expect(entry('PlatformHeight')).toContain('href="p-chain.html#platform.getHeight"');
  });
});
