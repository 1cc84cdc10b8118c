/**
 * Where the spec marks values secret (`x-sensitive: true`: passwords, exported users), as paths below a method's
 * params or result. The proxy's redactor and the generated client's error excerpts both hide what these name.
 */
import { componentName } from './schema-walk.ts';
import type { EndpointModel, JsonSchema } from './types.ts';
import { isObject } from '../common/json.ts';

/** A path below params or result: property names as the spec writes them, and `*` for every item of an array. */
export type Path = string[];

/**
 * Keys case folded for the client's error excerpts, so `PASSWORD` and `paſſword` (long s) name the password too. An
 * approximation of Go's folding, erring towards more matches (`paßword` too); conform/go-fold.ts matches as Go does.
 */
export const fold = (key: string) => key.toLowerCase().toUpperCase();

/**
 * Where `schema` marks values sensitive, following `$ref`s into the shared schemas (each once per path: `seen` holds
 * the names on the current path, and is as it was when this returns).
 */
export function sensitivePaths(
  schema: JsonSchema,
  shared: Record<string, JsonSchema>,
  prefix: Path,
  seen: Set<string>,
): Path[] {
  if (schema['x-sensitive'] === true) return [prefix];
  const out: Path[] = [];
  const name = componentName(schema.$ref);
  if (name && Object.hasOwn(shared, name) && !seen.has(name)) {
    // The names on this path: added for the way down, taken off on the way back, never copied.
    seen.add(name);
    out.push(...sensitivePaths(shared[name]!, shared, prefix, seen));
    seen.delete(name);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const branch of list)
        if (isObject(branch)) out.push(...sensitivePaths(branch as JsonSchema, shared, prefix, seen));
  }
  for (const key of ['then', 'else'])
    if (isObject(schema[key])) out.push(...sensitivePaths(schema[key] as JsonSchema, shared, prefix, seen));
  if (isObject(schema.properties)) {
    for (const [property, child] of Object.entries(schema.properties)) {
      if (isObject(child)) out.push(...sensitivePaths(child as JsonSchema, shared, [...prefix, property], seen));
    }
  }
  if (isObject(schema.items)) out.push(...sensitivePaths(schema.items as JsonSchema, shared, [...prefix, '*'], seen));
  return out;
}

/** The folded names of the keys that hold secrets in any method of the endpoint (params or result), sorted. */
export function sensitiveKeys(endpoint: EndpointModel, shared: Record<string, JsonSchema>): string[] {
  const names = new Set<string>();
  for (const method of endpoint.methods) {
    const paths = method.params.flatMap((param) => sensitivePaths(param.schema, shared, [param.name], new Set()));
    if (method.result) paths.push(...sensitivePaths(method.result.schema, shared, [], new Set()));
    for (const path of paths) if (path.length > 0 && path.at(-1) !== '*') names.add(fold(path.at(-1)!));
  }
  return [...names].sort();
}
