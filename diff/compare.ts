/**
 * The spec diff: every difference between two spec revisions (or two releases of this spec), each classified twice,
 * for clients (code calling a node) and for node implementers (a node, mock or server stub answering calls), as
 * breaking, possibly breaking or compatible. A change is judged by which way its data flows: a request narrowed
 * refuses what clients sent, a response widened sends clients what they never saw.
 */
import { pointerOf } from '../generators/common/problems.ts';
import { indexMethods } from '../generators/model/build.ts';
import type { JsonSchema, MethodModel, SpecModel } from '../generators/model/types.ts';
import { compareVersions, inRange, notServedReason, servedBy } from '../generators/model/versions.ts';
import { compareErrors } from './errors.ts';
import { type SchemaChange, compareSchemas, newWalk } from './schema.ts';
import type { Side } from './side.ts';
import { B, C, type Level, P, type Verdict, classify } from './verdicts.ts';

export interface Change {
  /** A stable name of the kind of change, e.g. `param-added-required`, `response-property-removed`. */
  rule: string;
  method: string;
  endpoint: string;
  /**
   * JSON pointer into the endpoint's bundled document (the new one; the old one for what was removed): into the
   * method, or into the named component the change is in (`/components/schemas/<Name>/...`).
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

export function diffSpecs(older: Revision, newer: Revision): Change[] {
  const changes: Change[] = [];
  const oldMethods = indexMethods(older.model);
  const newMethods = indexMethods(newer.model);
  const sides = { old: side(older), new: side(newer) };
  const componentChanges = componentDiffer(sides);
  const names = [...new Set([...oldMethods.keys(), ...newMethods.keys()])].sort();
  for (const name of names) {
    const a = oldMethods.get(name);
    const b = newMethods.get(name);
    const aServed = a && servedBy(a.method, older.version);
    const bServed = b && servedBy(b.method, newer.version);
    const push = (which: typeof a, rule: string, tokens: string[], text: string, [clients, implementers]: Verdict) =>
      changes.push({
        rule,
        method: name,
        endpoint: which!.endpoint.name,
        // A change inside a shared component is reported at the component (tokens from `components`).
        pointer: pointerOf(tokens[0] === 'components' ? tokens : ['methods', which!.method.index, ...tokens]),
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

    const structure = structureChange(a!.method.paramStructure, b!.method.paramStructure);
    if (structure) push(b, structure.rule, ['paramStructure'], structure.text, structure.verdict);

    const paramsA = new Map(a!.method.params.filter((p) => readBy(p.versions, older.version)).map((p) => [p.name, p]));
    const paramsB = b!.method.params.filter((p) => readBy(p.versions, newer.version));
    const paramComponents = new Set<string>();
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
      // Positions on the wire: among the params each release reads.
      const [was, now] = [[...paramsA.values()].indexOf(old), paramsB.indexOf(param)];
      if (was !== now && positional(a!.method) && positional(b!.method))
        push(b, 'param-moved', tokens, `param "${param.name}" moved from position ${was} to ${now}`, [B, B]);
      if (!old.required && param.required)
        push(b, 'param-became-required', [...tokens, 'required'], `param "${param.name}" is now required`, [B, C]);
      if (old.required && !param.required)
        push(b, 'param-became-optional', [...tokens, 'required'], `param "${param.name}" is now optional`, [C, P]);
      const walk = newWalk();
      const changes = compareSchemas(old.schema, param.schema, sides, [...tokens, 'schema'], walk);
      // A component two params share is reported once, under the first.
      for (const change of [...changes, ...componentChanges(walk.reached, paramComponents)]) {
        push(
          b,
          `param-${change.rule}`,
          change.tokens,
          `param "${param.name}": ${change.text}`,
          classify(change, 'request'),
        );
      }
    }

    for (const change of compareErrors(a!.method, b!.method))
      push(change.side === 'old' ? a : b, change.rule, ['errors', String(change.index)], change.text, change.verdict);

    const resultA = resultOf(a!.method, older.version);
    const resultB = resultOf(b!.method, newer.version);
    if (resultA && !resultB) push(a, 'result-removed', ['result'], 'the method no longer answers a result', [B, C]);
    if (!resultA && resultB) push(b, 'result-added', ['result'], 'the method now answers a result', [C, B]);
    if (resultA && resultB) {
      const walk = newWalk();
      const changes = compareSchemas(resultA.schema, resultB.schema, sides, resultB.tokens, walk);
      for (const change of [...changes, ...componentChanges(walk.reached, new Set())]) {
        push(b, `result-${change.rule}`, change.tokens, `result: ${change.text}`, classify(change, 'response'));
      }
    }
  }
  return changes;
}

/**
 * The changes inside the components a method reaches (`reached`, and the components they reach in turn), each
 * component compared once per diff however many paths lead to it; `done` holds those already reported for the method.
 */
function componentDiffer(sides: { old: Side; new: Side }) {
  const memo = new Map<string, { changes: SchemaChange[]; reached: Set<string> }>();
  const compared = (name: string) => {
    let entry = memo.get(name);
    if (!entry) {
      const walk = newWalk();
      const at = ['components', 'schemas', name];
      const changes = compareSchemas(sides.old.schemas[name], sides.new.schemas[name], sides, at, walk);
      entry = { changes, reached: walk.reached };
      memo.set(name, entry);
    }
    return entry;
  };
  return (reached: Set<string>, done: Set<string>): SchemaChange[] => {
    const out: SchemaChange[] = [];
    const queue = [...reached].filter((name) => !done.has(name));
    for (const name of queue) done.add(name);
    while (queue.length > 0) {
      const entry = compared(queue.shift()!);
      out.push(...entry.changes);
      for (const next of entry.reached)
        if (!done.has(next)) {
          done.add(next);
          queue.push(next);
        }
    }
    return out;
  };
}

/**
 * How a method takes its params (OpenRPC `paramStructure`, `either` when unsaid): a client sends one form, so a method
 * that stops taking it refuses that client's every call; one that starts taking both breaks implementers reading one.
 */
function structureChange(
  a: MethodModel['paramStructure'],
  b: MethodModel['paramStructure'],
): { rule: string; text: string; verdict: Verdict } | undefined {
  if (a === b) return undefined;
  const text = `params now ${b} (were ${a})`;
  if (a === 'either') return { rule: 'param-structure-narrowed', text, verdict: [B, C] };
  if (b === 'either') return { rule: 'param-structure-widened', text, verdict: [C, B] };
  return { rule: 'param-structure-changed', text, verdict: [B, B] };
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

/** Whether clients may send the params as an array, where a param is its position. */
const positional = (method: MethodModel) => method.paramStructure !== 'by-name';

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
