/** Where a draft-07 schema holds other schemas: the one definition every pass over nested schemas uses. */
import { localPointer, parsePointer } from '../common/problems.ts';
import type { JsonSchema } from './types.ts';

const SINGLE = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
];
const LIST = ['allOf', 'anyOf', 'items', 'oneOf'];
const MAP = ['$defs', 'definitions', 'dependencies', 'patternProperties', 'properties'];

const COMPONENT_PREFIX = '/components/schemas/';

/**
 * The component a `$ref` names (`#/components/schemas/<Name>`, the one form the bundled spec uses, its name escaped as
 * a JSON pointer token: `a~1b` is "a/b"), or undefined.
 */
export function componentName(ref: unknown): string | undefined {
  const pointer = typeof ref === 'string' ? localPointer(ref) : undefined;
  if (pointer === undefined || !pointer.startsWith(COMPONENT_PREFIX)) return undefined;
  const [name, ...deeper] = parsePointer(pointer.slice(COMPONENT_PREFIX.length - 1));
  return name && deeper.length === 0 ? name : undefined;
}

export const isSchema = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface Subschema {
  /** JSON pointer tokens from the parent, e.g. `['properties', 'height']`. */
  tokens: string[];
  schema: JsonSchema;
}

/** The direct subschemas of `schema`, in a fixed keyword order. */
export function subschemas(schema: JsonSchema): Subschema[] {
  const out: Subschema[] = [];
  for (const key of SINGLE) if (isSchema(schema[key])) out.push({ tokens: [key], schema: schema[key] });
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list))
      list.forEach((item, i) => isSchema(item) && out.push({ tokens: [key, String(i)], schema: item }));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isSchema(map))
      for (const [name, item] of Object.entries(map))
        if (isSchema(item)) out.push({ tokens: [key, name], schema: item });
  }
  return out;
}

/** A copy of `schema` whose direct subschemas are replaced by `map(subschema)`; other keywords are kept as they are. */
export function mapSubschemas(
  schema: JsonSchema,
  map: (child: JsonSchema, tokens: string[]) => JsonSchema,
): JsonSchema {
  const copy: JsonSchema = { ...schema };
  for (const key of SINGLE) if (isSchema(schema[key])) copy[key] = map(schema[key], [key]);
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) copy[key] = list.map((item, i) => (isSchema(item) ? map(item, [key, String(i)]) : item));
  }
  for (const key of MAP) {
    const entries = schema[key];
    if (isSchema(entries))
      copy[key] = Object.fromEntries(
        Object.entries(entries).map(([name, item]) => [name, isSchema(item) ? map(item, [key, name]) : item]),
      );
  }
  return copy;
}
