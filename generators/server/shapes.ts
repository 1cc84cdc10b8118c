/**
 * Decoding shapes for the server runtime's node profile (runtime/server/params.ts `Shape`): for each
 * object a schema declares, its property names by Go's folded spelling, so params are matched case-insensitively at
 * every level, as Go's encoding/json fills a struct. Computed here once, from the schemas, and embedded as data.
 */
import { componentName } from '../model/schema-walk.ts';
import type { Json, JsonSchema, MethodModel, SpecModel } from '../model/types.ts';
import { type PropertyShape, type Shape, foldKey } from '../../runtime/server/params.ts';
import { isSchema } from '../model/schema-walk.ts';

export type { Shape };
export { foldKey };

/**
 * The schema a `$ref` chain ends at, and the components on the way added to `seen` (the components already entered
 * on the path from the root): a recursive schema's shape stops where it would enter itself again, and is left as sent
 * below that. A boolean schema (`true`: any value, `false`: none) is returned as it is.
 */
function resolve(model: SpecModel, schema: Json, seen: Set<string>): JsonSchema | boolean | undefined {
  let current = schema;
  while (isSchema(current) && typeof current.$ref === 'string') {
    const name = componentName(current.$ref);
    if (!name || seen.has(name) || model.schemas[name] === undefined) return undefined;
    seen.add(name);
    current = model.schemas[name];
  }
  return isSchema(current) || typeof current === 'boolean' ? current : undefined;
}

/** Whether JSON null is a value of the schema (then a null param is passed on, not treated as absent). */
export function acceptsNull(model: SpecModel, schema: Json, path: Set<string> = new Set()): boolean {
  const seen = new Set(path);
  const resolved = resolve(model, schema, seen);
  if (!isSchema(resolved)) return resolved === true;
  const type = resolved.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(resolved.enum) && resolved.enum.includes(null)) return true;
  if ('const' in resolved && resolved.const === null) return true;
  return ['anyOf', 'oneOf'].some((key) => {
    const branches = resolved[key];
    return Array.isArray(branches) && branches.some((branch) => isSchema(branch) && acceptsNull(model, branch, seen));
  });
}

function shapeOf(model: SpecModel, schema: Json, path: Set<string>): Shape | undefined {
  const seen = new Set(path);
  const resolved = resolve(model, schema, seen);
  if (!isSchema(resolved)) return undefined;
  const shape: Shape = {};
  if (isSchema(resolved.properties)) {
    shape.properties = {};
    for (const [name, child] of Object.entries(resolved.properties))
      if (isSchema(child)) shape.properties[foldKey(name)] = propertyShape(model, name, child, seen);
  }
  if (isSchema(resolved.additionalProperties)) shape.values = shapeOf(model, resolved.additionalProperties, seen) ?? {};
  if (isSchema(resolved.items)) {
    const items = shapeOf(model, resolved.items, seen);
    if (items) shape.items = items;
  }
  if (shape.properties || shape.values || shape.items) return shape;
  // A union decodes like its one structured branch (`X` or null); with several, the value is left as sent.
  const branches = ['anyOf', 'oneOf', 'allOf']
    .flatMap((key) => (Array.isArray(resolved[key]) ? (resolved[key] as Json[]) : []))
    .filter(isSchema)
    .map((branch) => shapeOf(model, branch, seen))
    .filter((branch): branch is Shape => branch !== undefined);
  return branches.length === 1 ? branches[0]! : undefined;
}

function propertyShape(model: SpecModel, name: string, schema: Json, path: Set<string>): PropertyShape {
  const shape = shapeOf(model, schema, path);
  return { name, ...(shape ? { shape } : {}), ...(acceptsNull(model, schema) ? { nullable: true } : {}) };
}

/** The shape of a method's params object: its params by folded name. */
export function paramsShape(model: SpecModel, method: MethodModel): Shape {
  const properties: NonNullable<Shape['properties']> = {};
  for (const param of method.params)
    properties[foldKey(param.name)] = propertyShape(model, param.name, param.schema, new Set());
  return { properties };
}
