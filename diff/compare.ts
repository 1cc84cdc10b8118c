/**
 * The spec diff: every difference between two spec revisions (or two releases of this spec), each classified twice,
 * for clients (code calling a node) and for node implementers (a node, mock or server stub answering calls), as
 * breaking, possibly breaking or compatible. A change is judged by which way its data flows: a request narrowed
 * refuses what clients sent, a response widened sends clients what they never saw.
 */
import { indexMethods } from '../generators/model/build.ts';
import type { JsonSchema, MethodModel, SpecModel } from '../generators/model/types.ts';
import { compareVersions, inRange, notServedReason } from '../generators/model/versions.ts';
import { type Flow, type SchemaChange, type Side, compareSchemas } from './schema.ts';

export type Level = 'breaking' | 'possibly-breaking' | 'compatible';

export interface Change {
  /** A stable name of the kind of change, e.g. `param-added-required`, `response-property-removed`. */
  rule: string;
  method: string;
  endpoint: string;
  /**
   * JSON pointer into the endpoint's bundled document (the new one; the old one for what was removed), through `$ref`s.
   */
  pointer: string;
  text: string;
  clients: Level;
  implementers: Level;
}

/** One revision: a model, and for a release of this spec, the release (methods, params and fields are cut to it). */
export interface Revision {
  model: SpecModel;
  version?: string;
}

type Verdict = [clients: Level, implementers: Level];
const B = 'breaking';
const P = 'possibly-breaking';
const C = 'compatible';

/** Schema differences by direction: [clients, implementers] for a request and for a response. */
const SCHEMA_RULES: Record<string, { request: Verdict; response: Verdict }> = {
  'type-changed': { request: [B, B], response: [B, B] },
  'type-narrowed': { request: [B, C], response: [C, B] },
  'type-widened': { request: [C, B], response: [B, C] },
  'value-removed': { request: [B, C], response: [C, B] },
  'value-added': { request: [C, B], response: [P, C] },
  'value-narrowed': { request: [B, C], response: [C, B] },
  'value-widened': { request: [C, B], response: [P, C] },
  'alternative-removed': { request: [B, C], response: [C, B] },
  'alternative-added': { request: [C, B], response: [B, C] },
  'pattern-changed': { request: [P, P], response: [P, P] },
  'format-changed': { request: [P, P], response: [P, P] },
  'limit-narrowed': { request: [B, C], response: [C, B] },
  'limit-widened': { request: [C, B], response: [P, C] },
  'property-became-required': { request: [B, C], response: [C, B] },
  'property-became-optional': { request: [C, P], response: [B, C] },
  'map-opened': { request: [C, B], response: [B, C] },
};

function classify(change: SchemaChange, flow: Flow): Verdict {
  if (change.rule === 'property-added') {
    if (flow === 'request') return change.required ? [B, P] : [C, P];
    return change.required ? [C, B] : [C, C];
  }
  if (change.rule === 'property-removed') {
    if (flow === 'request') return [P, C];
    return [change.required ? B : P, change.closed ? B : C];
  }
  return SCHEMA_RULES[change.rule]?.[flow] ?? [P, P];
}

export function diffSpecs(older: Revision, newer: Revision): Change[] {
  const changes: Change[] = [];
  const oldMethods = indexMethods(older.model);
  const newMethods = indexMethods(newer.model);
  const served = (revision: Revision, method: MethodModel) =>
    revision.version === undefined || notServedReason(method, revision.version) === undefined;
  const sides = { old: side(older), new: side(newer) };
  const names = [...new Set([...oldMethods.keys(), ...newMethods.keys()])].sort();
  for (const name of names) {
    const a = oldMethods.get(name);
    const b = newMethods.get(name);
    const aServed = a && served(older, a.method);
    const bServed = b && served(newer, b.method);
    const at = (which: typeof a, tokens: string[] = []) =>
      `/methods/${which!.method.index}${tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;
    const push = (which: typeof a, rule: string, tokens: string[], text: string, [clients, implementers]: Verdict) =>
      changes.push({
        rule,
        method: name,
        endpoint: which!.endpoint.name,
        pointer: at(which, tokens),
        text,
        clients,
        implementers,
      });
    if (!aServed && !bServed) continue;
    if (!bServed) {
      push(
        a,
        'method-removed',
        [],
        `method removed${newer.version && b ? ` (${notServedReason(b.method, newer.version)})` : ''}`,
        [B, C],
      );
      continue;
    }
    if (!aServed) {
      push(b, 'method-added', [], 'method added', [C, B]);
      continue;
    }
    const endpointKept = newer.model.endpoints.some((e) => e.name === a!.endpoint.name);
    if (endpointKept && a!.endpoint.name !== b!.endpoint.name)
      push(b, 'method-moved', [], `method moved from endpoint ${a!.endpoint.name} to ${b!.endpoint.name}`, [B, B]);
    if (!deprecatedAt(a!.method, older.version) && deprecatedAt(b!.method, newer.version))
      push(
        b,
        'method-deprecated',
        ['deprecated'],
        `method deprecated${b!.method.replacement ? `; use ${b!.method.replacement}` : ''}`,
        [C, C],
      );

    const paramsA = new Map(a!.method.params.filter((p) => readBy(p.versions, older.version)).map((p) => [p.name, p]));
    const paramsB = b!.method.params.filter((p) => readBy(p.versions, newer.version));
    for (const [pName, param] of paramsA) {
      if (!paramsB.some((p) => p.name === pName))
        push(
          a,
          'param-removed',
          ['params', String(a!.method.params.indexOf(param))],
          `param "${pName}" removed: the node ignores it now`,
          [P, C],
        );
    }
    for (const param of paramsB) {
      const tokens = ['params', String(b!.method.params.indexOf(param))];
      const old = paramsA.get(param.name);
      if (!old) {
        push(
          b,
          param.required ? 'param-added-required' : 'param-added',
          tokens,
          `param "${param.name}" added${param.required ? ' (required)' : ''}`,
          param.required ? [B, P] : [C, P],
        );
        continue;
      }
      if (!old.required && param.required)
        push(b, 'param-became-required', [...tokens, 'required'], `param "${param.name}" is now required`, [B, C]);
      if (old.required && !param.required)
        push(b, 'param-became-optional', [...tokens, 'required'], `param "${param.name}" is now optional`, [C, P]);
      for (const change of compareSchemas(old.schema, param.schema, sides, [...tokens, 'schema'])) {
        push(
          b,
          `param-${change.rule}`,
          change.tokens,
          `param "${param.name}": ${change.text}`,
          classify(change, 'request'),
        );
      }
    }

    const resultA = resultOf(a!.method, older.version);
    const resultB = resultOf(b!.method, newer.version);
    if (resultA && resultB) {
      for (const change of compareSchemas(resultA.schema, resultB.schema, sides, resultB.tokens)) {
        push(b, `result-${change.rule}`, change.tokens, `result: ${change.text}`, classify(change, 'response'));
      }
    }
  }
  return changes;
}

/** The result schema of a release and where it sits in the method: `result` or an `x-result-history` entry. */
function resultOf(
  method: MethodModel,
  version: string | undefined,
): { schema: JsonSchema; tokens: string[] } | undefined {
  if (!method.result) return undefined;
  const index =
    version === undefined ? -1 : method.resultHistory.findIndex((entry) => inRange(entry.versions, version));
  return index >= 0
    ? { schema: method.resultHistory[index]!.schema, tokens: ['x-result-history', String(index), 'schema'] }
    : { schema: method.result.schema, tokens: ['result', 'schema'] };
}

const readBy = (range: MethodModel['versions'], version: string | undefined) =>
  version === undefined || inRange(range, version);
const deprecatedAt = (method: MethodModel, version: string | undefined) =>
  method.deprecated &&
  (version === undefined ||
    !method.versions.deprecatedSince ||
    compareVersions(version, method.versions.deprecatedSince) >= 0);

function side(revision: Revision): Side {
  return { schemas: revision.model.schemas, ...(revision.version ? { version: revision.version } : {}) };
}

/** Whether any change is breaking for the audience (`any`: either). */
export function hasBreaking(changes: Change[], audience: 'clients' | 'implementers' | 'any'): boolean {
  return changes.some(
    (c) => (audience !== 'implementers' && c.clients === B) || (audience !== 'clients' && c.implementers === B),
  );
}
