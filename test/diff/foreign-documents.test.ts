/**
 * The spec diff on plain OpenRPC documents (no avalanche profile): recursive schemas, and how a method takes its params.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../diff/compare.ts';
import { loadRevision } from '../../diff/load.ts';

const temp = mkdtempSync(join(tmpdir(), 'diff-foreign-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The parts of the document the tests change; the rest as written. */
interface Doc {
  methods: Array<{ [key: string]: unknown; paramStructure?: string }>;
  components: {
    schemas: {
      [name: string]: object;
      B: { [key: string]: unknown; properties: Record<string, object>; required: string[] };
    };
  };
  [key: string]: unknown;
}

/** A and B refer to each other; method m takes A and returns B. */
function mutual(change: (doc: Doc) => void = () => {}): Doc {
  const doc: Doc = {
    openrpc: '1.3.2',
    info: { title: 'T', version: '1.0.0' },
    methods: [
      {
        name: 'm',
        params: [{ name: 'a', schema: { $ref: '#/components/schemas/A' } }],
        result: { name: 'r', schema: { $ref: '#/components/schemas/B' } },
      },
    ],
    components: {
      schemas: {
        A: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/B' }] },
        B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } }, required: ['a'] },
      },
    },
  };
  change(doc);
  return doc;
}

let written = 0;
function diff(older: object, newer: object) {
  const paths = [older, newer].map((doc) => {
    const path = join(temp, `${written++}.json`);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  });
  return diffSpecs({ model: loadRevision(paths[0]!) }, { model: loadRevision(paths[1]!) });
}

/** `<prefix>0` is `leaf`; each `<prefix>n` holds two `<prefix>(n-1)`: 2^63 paths from the top to `<prefix>0`. */
function doubling(prefix: string, leaf: object) {
  const schemas: Record<string, object> = { [`${prefix}0`]: leaf };
  for (let n = 1; n < 64; n++) {
    const below = { $ref: `#/components/schemas/${prefix}${n - 1}` };
    schemas[`${prefix}${n}`] = { type: 'object', properties: { a: below, b: below } };
  }
  const top = { $ref: `#/components/schemas/${prefix}63` };
  return {
    openrpc: '1.3.2',
    info: { title: 'T', version: '1.0.0' },
    methods: [{ name: 'm', params: [{ name: 'p', schema: top }], result: { name: 'r', schema: top } }],
    components: { schemas },
  };
}

describe('spec diff on plain OpenRPC documents', () => {
  it('compares mutually recursive schemas and finds a required field added inside the cycle, on both sides', () => {
    const changes = diff(
      mutual(),
      mutual((doc) => {
        doc.components.schemas.B.properties.z = { type: 'string' };
        doc.components.schemas.B.required.push('z');
      }),
    );
    expect(changes.map((c) => c.rule).sort()).toEqual(['param-property-added', 'result-property-added']);
  });

  // S(n) holds S(n-1) twice, so S63 reaches S0 along 2^63 paths: each component is compared once, at the component.
  it('finds a change 64 levels of doubling deep, once per flow, at the component', () => {
    const changes = diff(doubling('S', { type: 'string' }), doubling('S', { type: 'string', maxLength: 10 }));
    expect(
      changes.map(({ rule, pointer, clients, implementers }) => ({ rule, pointer, clients, implementers })),
    ).toEqual([
      {
        rule: 'param-limit-narrowed',
        pointer: '/components/schemas/S0',
        clients: 'breaking',
        implementers: 'compatible',
      },
      {
        rule: 'result-limit-narrowed',
        pointer: '/components/schemas/S0',
        clients: 'compatible',
        implementers: 'breaking',
      },
    ]);
  });

  // Renamed components are compared through their $refs, each pair of names once per walk.
  it('finds the same change when every component of the doubling document is renamed', () => {
    const changes = diff(doubling('S', { type: 'string' }), doubling('T', { type: 'string', maxLength: 10 }));
    expect(
      changes.map(({ rule, pointer }) => ({ rule, pointer: pointer.replace(/(\/properties\/a)+$/, '/...') })),
    ).toEqual([
      { rule: 'param-limit-narrowed', pointer: '/methods/0/params/0/schema/...' },
      { rule: 'result-limit-narrowed', pointer: '/methods/0/result/schema/...' },
    ]);
  });

  // A method that took its params in either form (OpenRPC's default when `paramStructure` is unsaid) and now takes
  // them by name refuses every call a client sends as an array.
  it('reports a method that moved from either form to by-name params as breaking clients', () => {
    const changes = diff(
      mutual(),
      mutual((doc) => {
        doc.methods[0]!.paramStructure = 'by-name';
      }),
    );
    expect(changes.map(({ rule, pointer, clients }) => ({ rule, pointer, clients }))).toEqual([
      { rule: 'param-structure-narrowed', pointer: '/methods/0/paramStructure', clients: 'breaking' },
    ]);
  });

  it('reports a method that moved from by-position to by-name params as breaking both sides', () => {
    const byPosition = (doc: Doc) => {
      doc.methods[0]!.paramStructure = 'by-position';
    };
    const changes = diff(
      mutual(byPosition),
      mutual((doc) => {
        doc.methods[0]!.paramStructure = 'by-name';
      }),
    );
    expect(changes.map(({ rule, clients, implementers }) => ({ rule, clients, implementers }))).toEqual([
      { rule: 'param-structure-changed', clients: 'breaking', implementers: 'breaking' },
    ]);
  });
});
