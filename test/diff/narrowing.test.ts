/**
 * Changes between two plain OpenRPC documents that change what a method accepts or answers, each of which the diff
 * must report. The diff's own rule (diff/README.md): "a request that accepts less breaks clients, one that accepts
 * more breaks implementers; a response that may hold more ... breaks or may break clients".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../diff/compare.ts';
import { loadRevision } from '../../diff/load.ts';

const temp = mkdtempSync(join(tmpdir(), 'adv9-diff-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let written = 0;
function diff(older: object, newer: object) {
  const paths = [older, newer].map((doc) => {
    const path = join(temp, `${written++}.json`);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  });
  return diffSpecs({ model: loadRevision(paths[0]!) }, { model: loadRevision(paths[1]!) }).map(
    ({ rule, clients, implementers }) => ({ rule, clients, implementers }),
  );
}

const string = { type: 'string' };
/** One method `m`, taking `params` and answering `result` (none: a notification). */
const document = (params: object[], result?: object, paramStructure = 'either') => ({
  openrpc: '1.3.2',
  info: { title: 'T', version: '1.0.0' },
  methods: [{ name: 'm', paramStructure, params, ...(result ? { result: { name: 'r', schema: result } } : {}) }],
});
/** `m` taking one required param `a` of `schema`, answering a string. */
const takes = (schema: object) => document([{ name: 'a', required: true, schema }], string);

describe('the diff on changes it does not report', () => {
  // Bug: a by-position method's params are its positions (JSON-RPC 2.0 section 4.2, OpenRPC 1.3.2 paramStructure):
  // swapping `a` and `b` makes every call a client sends as [a, b] arrive as [b, a], and every server written for
  // the old order read the new calls wrongly. The diff pairs params by name only and reports nothing.
  // Correct: a change that breaks both sides (e.g. `param-moved`). Suspected: diff/compare.ts (params indexed by name).
  it('reports by-position params that swap places as breaking both sides', () => {
    const a = { name: 'a', required: true, schema: string };
    const b = { name: 'b', required: true, schema: { type: 'integer' } };
    const changes = diff(document([a, b], string, 'by-position'), document([b, a], string, 'by-position'));
    expect(changes).toContainEqual(expect.objectContaining({ clients: 'breaking', implementers: 'breaking' }));
  });

  // Bug: `maximum: 10` (x <= 10) replaced by `exclusiveMaximum: 10` (x < 10, draft-07 section 6.2.3) accepts less:
  // 10 is refused now, which breaks clients sending it. The diff reports the opposite, `param-limit-widened`
  // (clients compatible, implementers breaking): it sees `maximum` go and not that `exclusiveMaximum` bounds the same
  // side more tightly. Suspected: diff/schema.ts, the comparison of numeric limits, keyword by keyword.
  it('reports maximum 10 becoming exclusiveMaximum 10 on a param as breaking clients', () => {
    const changes = diff(takes({ type: 'integer', maximum: 10 }), takes({ type: 'integer', exclusiveMaximum: 10 }));
    expect(changes).toContainEqual(expect.objectContaining({ clients: 'breaking' }));
    expect(changes).not.toContainEqual(expect.objectContaining({ rule: 'param-limit-widened' }));
  });

  // Bug: a method whose result goes away becomes a notification (OpenRPC 1.3.2 Method Object `result`: "If undefined,
  // the method MUST only be used as a notification"): clients reading its result get nothing. The diff reports no
  // change. Correct: `result-removed`, breaking clients. Suspected: diff/compare.ts (`if (resultA && resultB)`: results are
  // compared only when both sides have one).
  it('reports a method that loses its result as breaking clients', () => {
    const param = { name: 'a', required: true, schema: string };
    expect(diff(document([param], string), document([param]))).toContainEqual(
      expect.objectContaining({ clients: 'breaking' }),
    );
  });

  // Bug: each keyword below, added to a param's schema, makes it accept less (draft-07 sections 6.2.1, 6.4.5, 6.4.6,
  // 6.5.2, 6.5.5, 6.5.6, 6.5.8, 6.7.4), so a client sending what was valid before may be refused: breaking clients. The
  // diff reports nothing for any of them (it does report `maxLength`, `minimum`, `pattern`, `dependencies` and
  // `if`). Suspected: diff/schema.ts, which compares a fixed list of keywords and ignores the others.
  const narrowing: Array<[string, object, object]> = [
    ['additionalProperties: false', { type: 'object' }, { type: 'object', additionalProperties: false }],
    ['multipleOf', { type: 'integer' }, { type: 'integer', multipleOf: 2 }],
    ['uniqueItems', { type: 'array' }, { type: 'array', uniqueItems: true }],
    ['contains', { type: 'array' }, { type: 'array', contains: { const: 1 } }],
    ['maxProperties', { type: 'object' }, { type: 'object', maxProperties: 1 }],
    ['propertyNames', { type: 'object' }, { type: 'object', propertyNames: { pattern: '^a' } }],
    ['patternProperties', { type: 'object' }, { type: 'object', patternProperties: { '^x': { type: 'integer' } } }],
    ['not', string, { type: 'string', not: { const: 'x' } }],
  ];
  for (const [keyword, before, after] of narrowing)
    it(`reports ${keyword} added to a param as breaking clients`, () => {
      expect(diff(takes(before), takes(after))).toContainEqual(expect.objectContaining({ clients: 'breaking' }));
    });

  // Bug: a result's `items: S` becoming the tuple `items: [S]` (draft-07 6.4.1: without `additionalItems` any further
  // item is allowed) lets the answer hold items of any type after the first: clients break. The diff reports nothing.
  // Suspected: diff/schema.ts, which compares `items` as one schema on both sides.
  it('reports a result array whose items became a one-item tuple as breaking clients', () => {
    const changes = diff(
      document([], { type: 'array', items: string }),
      document([], { type: 'array', items: [string] }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ clients: 'breaking' }));
  });
});
