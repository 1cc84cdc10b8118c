/**
 * Compares two JSON Schemas of one place in the API and says for each difference whether it narrows or widens what the
 * place allows; a `$ref` both sides make to one component stops the walk there (compare.ts compares the component).
 * Who a difference breaks depends on which way the data flows (verdicts.ts, SCHEMA_RULES).
 */
import { componentName, isSchema } from '../generators/model/schema-walk.ts';
import { canonicalJson } from '../generators/common/json.ts';
import type { JsonSchema } from '../generators/model/types.ts';
import { alternativesOf, describe, matchAlternatives } from './alternatives.ts';
import { type Side, byType, resolve, typesOf } from './side.ts';
import { CONSTRAINTS, bound, constraint, itemsOf, noProperties, showBound, shown, tighter } from './constraints.ts';

export type Flow = 'request' | 'response';

/** What changed at one place, before classification. */
export interface SchemaChange {
  rule: string;
  /** JSON pointer tokens below the compared schema, following `$ref`s. */
  tokens: string[];
  text: string;
  /** Whether the field was required on the side that had it (for added/removed properties). */
  required?: boolean;
  /** Whether the object is closed on the new side (an implementer's extra field then fails). */
  closed?: boolean;
}

/**
 * One comparison's bookkeeping. A `$ref` to a component both sides name is compared there, once (compare.ts), not
 * through every path that reaches it: schemas that refer to each other many levels deep reach a component along
 * exponentially many paths. `reached` collects those components; `pairs`, the differently named components already
 * compared against each other, so a recursive pair is walked once.
 */
export interface Walk {
  reached: Set<string>;
  pairs: Set<string>;
}

export const newWalk = (): Walk => ({ reached: new Set(), pairs: new Set() });

export function compareSchemas(
  oldRaw: unknown,
  newRaw: unknown,
  sides: { old: Side; new: Side },
  tokens: string[] = [],
  walk: Walk = newWalk(),
): SchemaChange[] {
  const refA = isSchema(oldRaw) ? componentName(oldRaw.$ref) : undefined;
  const refB = isSchema(newRaw) ? componentName(newRaw.$ref) : undefined;
  if (refA && refA === refB && sides.old.schemas[refA] && sides.new.schemas[refB]) {
    walk.reached.add(refA);
    // Keywords beside the `$ref` belong to this place; the component's own are compared at the component.
    const { $ref: _a, ...siblingsA } = oldRaw as JsonSchema;
    const { $ref: _b, ...siblingsB } = newRaw as JsonSchema;
    return compareSchemas(siblingsA, siblingsB, sides, tokens, walk);
  }
  if (refA && refB) {
    if (walk.pairs.has(`${refA}|${refB}`)) return [];
    walk.pairs.add(`${refA}|${refB}`);
  }
  const a = resolve(oldRaw, sides.old);
  const b = resolve(newRaw, sides.new);
  const out: SchemaChange[] = [];
  const add = (change: Omit<SchemaChange, 'tokens'>, at = tokens) => out.push({ ...change, tokens: at });

  const altsA = alternativesOf(a);
  const altsB = alternativesOf(b);
  if (altsA || altsB) {
    const listA = altsA ?? [a];
    const listB = altsB ?? [b];
    const kind = Array.isArray(b.anyOf) ? 'anyOf' : 'oneOf';
    const pairs = matchAlternatives(listA, listB, sides);
    for (const [i, j] of pairs) {
      const at = altsB ? [...tokens, kind, String(j)] : tokens;
      if (i === undefined)
        add({ rule: 'alternative-added', text: `a new alternative ${describe(listB[j!], sides.new)} is allowed` }, at);
      else if (j === undefined)
        add(
          {
            rule: 'alternative-removed',
            text: `the alternative ${describe(listA[i], sides.old)} is no longer allowed`,
          },
          altsA ? [...tokens, Array.isArray(a.anyOf) ? 'anyOf' : 'oneOf', String(i)] : tokens,
        );
      else out.push(...compareSchemas(listA[i], listB[j], sides, at, walk));
    }
    return out;
  }

  const typesA = typesOf(a);
  const typesB = typesOf(b);
  if (typesA && typesB) {
    const removed = [...typesA].filter((t) => !typesB.has(t));
    const added = [...typesB].filter((t) => !typesA.has(t));
    if (removed.length > 0 && added.length > 0 && removed.length === typesA.size) {
      add({ rule: 'type-changed', text: `the type changed from ${[...typesA].join('|')} to ${[...typesB].join('|')}` });
      return out;
    }
    if (removed.length > 0) add({ rule: 'type-narrowed', text: `no longer allows ${removed.sort(byType).join(', ')}` });
    if (added.length > 0) add({ rule: 'type-widened', text: `now also allows ${added.sort(byType).join(', ')}` });
  } else if (typesA && !typesB) add({ rule: 'type-widened', text: 'no longer constrains the type' });
  else if (!typesA && typesB) add({ rule: 'type-narrowed', text: `now must be ${[...typesB].join('|')}` });

  const valuesA = a.const !== undefined ? [a.const] : a.enum;
  const valuesB = b.const !== undefined ? [b.const] : b.enum;
  if (Array.isArray(valuesA) && Array.isArray(valuesB)) {
    const inB = new Set(valuesB.map((v) => canonicalJson(v as JsonSchema)));
    const inA = new Set(valuesA.map((v) => canonicalJson(v as JsonSchema)));
    for (const v of valuesA)
      if (!inB.has(canonicalJson(v as JsonSchema)))
        add({ rule: 'value-removed', text: `the value ${JSON.stringify(v)} is no longer allowed` });
    for (const v of valuesB)
      if (!inA.has(canonicalJson(v as JsonSchema)))
        add({ rule: 'value-added', text: `the value ${JSON.stringify(v)} is now allowed` });
  } else if (Array.isArray(valuesA) && !valuesB)
    add({ rule: 'value-widened', text: 'no longer limited to a list of values' });
  else if (!valuesA && Array.isArray(valuesB))
    add({ rule: 'value-narrowed', text: `now limited to ${valuesB.map((v) => JSON.stringify(v)).join(', ')}` });

  for (const keyword of ['pattern', 'format']) {
    if (a[keyword] !== b[keyword] && (a[keyword] !== undefined || b[keyword] !== undefined)) {
      add({
        rule: `${keyword}-changed`,
        text: `${keyword} changed from ${JSON.stringify(a[keyword] ?? null)} to ${JSON.stringify(b[keyword] ?? null)}`,
      });
    }
  }
  for (const [keyword, narrowsWhenLower] of [
    ['maxLength', true],
    ['maxItems', true],
    ['maxProperties', true],
    ['minLength', false],
    ['minItems', false],
    ['minProperties', false],
  ] as const) {
    const x = a[keyword] as number | undefined;
    const y = b[keyword] as number | undefined;
    if (x === y) continue;
    const narrowed = x === undefined ? true : y === undefined ? false : narrowsWhenLower ? y < x : y > x;
    add({
      rule: narrowed ? 'limit-narrowed' : 'limit-widened',
      text: `${keyword} changed from ${x ?? 'none'} to ${y ?? 'none'}`,
    });
  }
  for (const upper of [true, false]) {
    const x = bound(a, upper);
    const y = bound(b, upper);
    if (x?.value === y?.value && x?.exclusive === y?.exclusive) continue;
    const narrowed = !x || (y !== undefined && tighter(x, y, upper));
    add({
      rule: narrowed ? 'limit-narrowed' : 'limit-widened',
      text: `the ${upper ? 'upper' : 'lower'} bound changed from ${showBound(x, upper)} to ${showBound(y, upper)}`,
    });
  }
  for (const keyword of CONSTRAINTS) {
    const [x, y] = [constraint(a, keyword), constraint(b, keyword)];
    if (canonicalJson(x as JsonSchema) === canonicalJson(y as JsonSchema)) continue;
    const text = `${keyword} changed from ${shown(x)} to ${shown(y)}`;
    if (x === undefined) {
      // A closed object's keys were already only its properties, whose changes are reported one by one.
      if (!(keyword === 'propertyNames' && a.additionalProperties === false)) add({ rule: 'constraint-added', text });
    } else if (y === undefined)
      add({ rule: keyword === 'additionalProperties' && noProperties(b) ? 'map-opened' : 'constraint-removed', text });
    else if (keyword === 'additionalProperties' && x === false && y !== false)
      add({ rule: noProperties(b) ? 'map-opened' : 'constraint-removed', text });
    else if (keyword === 'additionalProperties' && y === false) add({ rule: 'constraint-added', text });
    else if (isSchema(x) && isSchema(y) && keyword !== 'not')
      out.push(...compareSchemas(x, y, sides, [...tokens, keyword], walk));
    else if (canonicalJson(x as JsonSchema) !== canonicalJson(y as JsonSchema))
      add({ rule: 'constraint-changed', text });
  }
  out.push(...compareItems(a, b, sides, tokens, walk));

  const propsA = (isSchema(a.properties) ? a.properties : {}) as Record<string, JsonSchema>;
  const propsB = (isSchema(b.properties) ? b.properties : {}) as Record<string, JsonSchema>;
  const reqA = new Set((Array.isArray(a.required) ? a.required : []) as string[]);
  const reqB = new Set((Array.isArray(b.required) ? b.required : []) as string[]);
  // Whether an object that still carries a removed field fails the new schema (result objects are closed).
  const closed =
    (b.additionalProperties !== undefined && b.additionalProperties !== true) || b.propertyNames !== undefined;
  for (const name of Object.keys(propsA)) {
    if (!(name in propsB))
      add({ rule: 'property-removed', text: `field "${name}" removed`, required: reqA.has(name), closed }, [
        ...tokens,
        'properties',
        name,
      ]);
  }
  for (const name of Object.keys(propsB)) {
    const at = [...tokens, 'properties', name];
    if (!(name in propsA)) {
      add(
        {
          rule: 'property-added',
          text: `field "${name}" added${reqB.has(name) ? ' (required)' : ''}`,
          required: reqB.has(name),
        },
        at,
      );
      continue;
    }
    if (!reqA.has(name) && reqB.has(name))
      add({ rule: 'property-became-required', text: `field "${name}" is now required` }, at);
    if (reqA.has(name) && !reqB.has(name))
      add({ rule: 'property-became-optional', text: `field "${name}" is now optional` }, at);
    out.push(...compareSchemas(propsA[name], propsB[name], sides, at, walk));
  }
  const patternsA = (isSchema(a.patternProperties) ? a.patternProperties : {}) as Record<string, unknown>;
  const patternsB = (isSchema(b.patternProperties) ? b.patternProperties : {}) as Record<string, unknown>;
  // A pattern constrains the keys it matches where other keys are open; where they are closed it lets them in.
  const closedBoth = a.additionalProperties === false && b.additionalProperties === false;
  const openBoth =
    constraint(a, 'additionalProperties') === undefined && constraint(b, 'additionalProperties') === undefined;
  const [patternAdded, patternRemoved] = closedBoth
    ? ['constraint-removed', 'constraint-added']
    : openBoth
      ? ['constraint-added', 'constraint-removed']
      : ['constraint-changed', 'constraint-changed'];
  for (const key of Object.keys(patternsB)) {
    const at = [...tokens, 'patternProperties', key];
    if (!(key in patternsA)) add({ rule: patternAdded, text: `fields matching ${JSON.stringify(key)} added` }, at);
    else out.push(...compareSchemas(patternsA[key], patternsB[key], sides, at, walk));
  }
  for (const key of Object.keys(patternsA))
    if (!(key in patternsB)) add({ rule: patternRemoved, text: `fields matching ${JSON.stringify(key)} removed` });
  out.push(...compareConditionals(a, b, sides, tokens, walk));
  return out;
}

/**
 * `if`/`then`/`else` and `dependentSchemas` (draft-07's schema-valued `dependencies` too): a condition that appears
 * adds constraints (narrows), one that goes away lifts them (widens), a changed `if` moves which values get which
 * constraints (either way), and inside an unchanged condition `then` and `else` compare as any schema.
 */
function compareConditionals(
  a: JsonSchema,
  b: JsonSchema,
  sides: { old: Side; new: Side },
  tokens: string[],
  walk: Walk,
): SchemaChange[] {
  const out: SchemaChange[] = [];
  const has = (s: JsonSchema) => s.if !== undefined;
  if (!has(a) && has(b))
    out.push({ rule: 'conditional-added', tokens: [...tokens, 'if'], text: 'a new if/then/else constrains it' });
  else if (has(a) && !has(b))
    out.push({ rule: 'conditional-removed', tokens, text: 'the if/then/else constraining it was removed' });
  else if (has(a) && has(b)) {
    if (canonicalJson(resolve(a.if, sides.old)) !== canonicalJson(resolve(b.if, sides.new)))
      out.push({ rule: 'conditional-changed', tokens: [...tokens, 'if'], text: 'the if condition changed' });
    for (const branch of ['then', 'else']) {
      const at = [...tokens, branch];
      if (a[branch] === undefined && b[branch] !== undefined)
        out.push({ rule: 'conditional-added', tokens: at, text: `a "${branch}" branch was added` });
      else if (a[branch] !== undefined && b[branch] === undefined)
        out.push({ rule: 'conditional-removed', tokens: at, text: `the "${branch}" branch was removed` });
      else if (a[branch] !== undefined) out.push(...compareSchemas(a[branch], b[branch], sides, at, walk));
    }
  }
  for (const keyword of ['dependentSchemas', 'dependencies']) {
    const depsA = (isSchema(a[keyword]) ? a[keyword] : {}) as Record<string, unknown>;
    const depsB = (isSchema(b[keyword]) ? b[keyword] : {}) as Record<string, unknown>;
    for (const name of new Set([...Object.keys(depsA), ...Object.keys(depsB)])) {
      const at = [...tokens, keyword, name];
      // A list value is dependentRequired's form: the named fields become required together.
      const form = (v: unknown) => (Array.isArray(v) ? { required: v } : v);
      if (!(name in depsA))
        out.push({ rule: 'dependency-added', tokens: at, text: `with "${name}" present, new constraints apply` });
      else if (!(name in depsB))
        out.push({
          rule: 'dependency-removed',
          tokens: at,
          text: `the constraints that applied with "${name}" were removed`,
        });
      else out.push(...compareSchemas(form(depsA[name]), form(depsB[name]), sides, at, walk));
    }
  }
  return out;
}

/** Items compared position by position: a position that becomes free widens, one that becomes constrained narrows. */
function compareItems(
  a: JsonSchema,
  b: JsonSchema,
  sides: { old: Side; new: Side },
  tokens: string[],
  walk: Walk,
): SchemaChange[] {
  const [x, y] = [itemsOf(a), itemsOf(b)];
  const out: SchemaChange[] = [];
  const free = (s: unknown) => s === undefined || s === true || (isSchema(s) && Object.keys(s).length === 0);
  const keyword = (side: JsonSchema) => (Array.isArray(side.prefixItems) ? 'prefixItems' : 'items');
  const at = (i: number | undefined) =>
    i === undefined || i >= y.tuple.length
      ? [...tokens, Array.isArray(b.prefixItems) ? 'items' : Array.isArray(b.items) ? 'additionalItems' : 'items']
      : [...tokens, keyword(b), String(i)];
  const pair = (p: unknown, q: unknown, i: number | undefined) => {
    if (free(p) && free(q)) return;
    const where = at(i);
    const position = i === undefined ? 'items past the tuple' : `item ${i}`;
    if (free(p)) out.push({ rule: 'items-narrowed', tokens: where, text: `${position} now constrained` });
    else if (free(q)) out.push({ rule: 'items-widened', tokens: where, text: `${position} may now be anything` });
    else if (p === false || q === false) {
      if (p !== q)
        out.push({
          rule: q === false ? 'items-narrowed' : 'items-widened',
          tokens: where,
          text: `${position} ${q === false ? 'no longer allowed' : 'now allowed'}`,
        });
    } else out.push(...compareSchemas(p, q, sides, where, walk));
  };
  const positions = Math.max(x.tuple.length, y.tuple.length);
  for (let i = 0; i < positions; i++) pair(x.tuple[i] ?? x.rest, y.tuple[i] ?? y.rest, i);
  pair(x.rest, y.rest, undefined);
  return out;
}
