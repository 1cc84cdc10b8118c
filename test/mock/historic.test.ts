/**
 * Fields the node stopped sending (a result property whose range ends), listed from the spec: the mock sends each at
 * the last release that had it, filled as the spec says (`x-copy-of` a sibling, or its `default`), and never after.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { indexMethods } from '../../generators/model/build.ts';
import { componentName } from '../../generators/model/schema-walk.ts';
import type { Json, JsonSchema, MethodModel } from '../../generators/model/types.ts';
import { compareVersions, rangeOf } from '../../generators/model/versions.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const model = loadSpecModel();
const validator = new SpecValidator(model);
const methods = indexMethods(model);
const nodes = new Map<string, Promise<RunningMockNode>>();
const node = (version: string) => {
  if (!nodes.has(version)) nodes.set(version, startMockNode({ port: 0, nodeVersion: version }));
  return nodes.get(version)!;
};
afterAll(async () => {
  for (const running of nodes.values()) await (await running).close();
});

interface Historic {
  field: string;
  holder: JsonSchema;
  property: JsonSchema;
  /** The last release that sent it, and the first that did not. */
  last: string;
  gone: string;
}

/** Every object schema reachable from `schema` (through `$ref`s, each component once). */
function objects(schema: Json, seen = new Set<string>(), out: JsonSchema[] = []): JsonSchema[] {
  if (schema === null || typeof schema !== 'object') return out;
  if (Array.isArray(schema)) {
    for (const item of schema) objects(item, seen, out);
    return out;
  }
  const name = componentName(schema.$ref);
  if (name && model.schemas[name] && !seen.has(name)) {
    seen.add(name);
    objects(model.schemas[name], seen, out);
  }
  if (schema.properties && typeof schema.properties === 'object') out.push(schema);
  for (const child of Object.values(schema)) objects(child as Json, seen, out);
  return out;
}

/** The release just before `version` among those the spec names (every range starts or ends at one of them). */
const releases = [...new Set(JSON.stringify(model).match(/v\d+\.\d+\.\d+/g)!)].sort(compareVersions);
const before = (version: string) => releases.filter((v) => compareVersions(v, version) < 0).at(-1)!;

const historicOf = (method: MethodModel): Historic[] =>
  method.result
    ? objects(method.result.schema).flatMap((holder) =>
        Object.entries(holder.properties as Record<string, JsonSchema>).flatMap(([field, property]) => {
          const range = rangeOf(property);
          const gone = range?.removedIn;
          return gone ? [{ field, holder, property, gone, last: range.lastVersion ?? before(gone) }] : [];
        }),
      )
    : [];

const cases = [...methods.values()]
  .map(({ method, endpoint }) => ({ method, endpoint, historic: historicOf(method) }))
  .filter((c) => c.historic.length > 0);

async function answers(version: string, method: MethodModel, path: string): Promise<Json[]> {
  const running = await node(version);
  const out: Json[] = [];
  for (const params of [{}, ...method.examples.map((e) => e.params)]) {
    const body = await callRpc<Json>(`${running.url}${path}`, method.name, params);
    expect(validator.atRelease(version).checkResponse(method.name, { jsonrpc: '2.0', id: 1, ...body }, 1)).toEqual([]);
    if (body.result !== undefined) out.push(body.result);
  }
  return out;
}

/** Every object in `value` that has `field`. */
function holding(value: Json, field: string, out: Array<Record<string, Json>> = []): Array<Record<string, Json>> {
  if (value === null || typeof value !== 'object') return out;
  if (!Array.isArray(value) && Object.hasOwn(value, field)) out.push(value);
  for (const child of Object.values(value)) holding(child, field, out);
  return out;
}

describe('historic result fields', () => {
  it('are the ones the wire notes name, each with how the mock fills it', () => {
    const fields = new Set(cases.flatMap((c) => c.historic.map((h) => h.field)));
    expect([...fields].sort()).toEqual(['fUpgradeTime', 'observedSubnetUptimes', 'rewardOwner', 'stakeAmount']);
    for (const { historic } of cases)
      for (const { field, property } of historic)
        expect('x-copy-of' in property || 'default' in property, `${field} says how it is filled`).toBe(true);
  });

  it.each(cases.map((c) => [c.method.name, c] as const))('%s: sent up to its last release, not after', async (_, c) => {
    for (const { field, property, last, gone } of c.historic) {
      const then = (await answers(last, c.method, c.endpoint.defaultPath)).flatMap((a) => holding(a, field));
      expect(then.length, `${c.method.name} at ${last} sends ${field}`).toBeGreaterThan(0);
      const source = property['x-copy-of'];
      for (const object of then)
        if (typeof source === 'string') expect(object[field]).toEqual(object[source] ?? expect.anything());
        else expect(object[field]).toEqual(property.default);
      const after = (await answers(gone, c.method, c.endpoint.defaultPath)).flatMap((a) => holding(a, field));
      // A field of the same name may live on elsewhere (a delegator's `rewardOwner`): only there may it still appear.
      expect(after.filter((o) => !holdsCurrent(c.method, field, o))).toEqual([]);
    }
  });
});

/** Whether `object` is one whose schema still has `field` today (not a historic holder). */
function holdsCurrent(method: MethodModel, field: string, object: Record<string, Json>): boolean {
  return objects(method.result!.schema).some((schema) => {
    const properties = schema.properties as Record<string, JsonSchema>;
    const property = properties[field];
    return property !== undefined && !rangeOf(property)?.removedIn && Object.keys(object).every((k) => k in properties);
  });
}
