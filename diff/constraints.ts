/**
 * Keywords the diff compares by what they allow rather than as schemas: constraints that only take values away,
 * numeric bounds in either draft's form, and an array's items as positions.
 */
import { isSchema } from '../generators/model/schema-walk.ts';
import type { JsonSchema } from '../generators/model/types.ts';

/**
 * Keywords that only ever take values away when they appear (draft-07 sections 6.2.1, 6.4.5, 6.4.6, 6.5.5, 6.5.6,
 * 6.7.4): one that appears narrows, one that goes away widens. A schema-valued one present on both sides is compared
 * as a schema, except `not`, whose narrowing widens what it constrains.
 */
export const CONSTRAINTS = ['multipleOf', 'uniqueItems', 'contains', 'propertyNames', 'additionalProperties', 'not'];

/**
 * A constraint keyword's value, undefined where it constrains nothing: `uniqueItems: false`, and a schema that admits
 * everything (`true`, `{}`) as `additionalProperties`, `propertyNames` or `contains`.
 */
export function constraint(schema: JsonSchema, keyword: string): unknown {
  const value = schema[keyword];
  if (keyword === 'uniqueItems' && value !== true) return undefined;
  if (keyword !== 'uniqueItems' && keyword !== 'multipleOf' && keyword !== 'not' && admitsAll(value)) return undefined;
  return value;
}

const admitsAll = (value: unknown) => value === true || (isSchema(value) && Object.keys(value).length === 0);

/** A keyword's value in a change's text: a schema by its kind, not its whole text. */
export const shown = (value: unknown) =>
  value === undefined ? 'none' : isSchema(value) ? 'a schema' : JSON.stringify(value);

export const noProperties = (schema: JsonSchema) =>
  !isSchema(schema.properties) || Object.keys(schema.properties).length === 0;

/** A numeric bound: draft-06+'s `exclusiveMaximum: n`, or draft-04's `maximum` with `exclusiveMaximum: true`. */
export type Bound = { value: number; exclusive: boolean };

export function bound(schema: JsonSchema, upper: boolean): Bound | undefined {
  const [inclusive, exclusive] = upper ? ['maximum', 'exclusiveMaximum'] : ['minimum', 'exclusiveMinimum'];
  const candidates: Bound[] = [];
  if (typeof schema[inclusive] === 'number')
    candidates.push({ value: schema[inclusive] as number, exclusive: schema[exclusive] === true });
  if (typeof schema[exclusive] === 'number') candidates.push({ value: schema[exclusive] as number, exclusive: true });
  return candidates.reduce<Bound | undefined>(
    (tightest, c) => (!tightest || tighter(tightest, c, upper) ? c : tightest),
    undefined,
  );
}

/** Whether `q` admits fewer values than `p` on its side. */
export const tighter = (p: Bound, q: Bound, upper: boolean) =>
  (upper ? q.value < p.value : q.value > p.value) || (q.value === p.value && q.exclusive && !p.exclusive);

export const showBound = (b: Bound | undefined, upper: boolean) =>
  b ? `${upper ? (b.exclusive ? '<' : '<=') : b.exclusive ? '>' : '>='} ${b.value}` : 'none';

/**
 * An array's items as positions: a tuple's (draft-07 `items: [...]` with `additionalItems`, 2020-12's `prefixItems`
 * with `items`) and then the rest, each undefined where anything goes.
 */
export function itemsOf(schema: JsonSchema): { tuple: unknown[]; rest: unknown } {
  if (Array.isArray(schema.prefixItems)) return { tuple: schema.prefixItems, rest: schema.items };
  if (Array.isArray(schema.items)) return { tuple: schema.items, rest: schema.additionalItems };
  return { tuple: [], rest: schema.items };
}
