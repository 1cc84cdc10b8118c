/** One side of a schema comparison, and a schema as that side has it at one level. */
import { componentName, isSchema } from '../generators/model/schema-walk.ts';
import { levelAt } from '../generators/model/versions.ts';
import type { JsonSchema } from '../generators/model/types.ts';

/** One side of the comparison: its shared schemas and, for a release of this spec, the release. */
export interface Side {
  schemas: Record<string, JsonSchema>;
  version?: string;
}

/** The schema at this level as the side has it: `$ref`s followed (siblings kept), then cut to the side's release. */
export function resolve(schema: unknown, side: Side, depth = 0): JsonSchema {
  if (!isSchema(schema)) return {};
  let out = schema;
  const ref = componentName(out.$ref);
  if (ref && side.schemas[ref] && depth < 32) {
    const { $ref: _, ...siblings } = out;
    out = { ...resolve(side.schemas[ref], side, depth + 1), ...siblings };
  }
  return side.version ? levelAt(out, side.version) : out;
}

const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'];

/** The JSON types a schema admits at its own level (`integer` counts as `number`); undefined when unconstrained. */
export function typesOf(schema: JsonSchema): Set<string> | undefined {
  if (schema.const !== undefined) return new Set([jsonType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
  const type = schema.type;
  if (type === undefined) return undefined;
  return new Set((Array.isArray(type) ? type : [type]).map((t) => (t === 'integer' ? 'number' : String(t))));
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
}

/** JSON types in one fixed order, for messages. */
export const byType = (x: string, y: string) => TYPES.indexOf(x) - TYPES.indexOf(y);
