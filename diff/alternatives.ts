/** A schema's alternatives (`anyOf`/`oneOf`): paired old with new, and named in a change's text. */
import { componentName, isSchema } from '../generators/model/schema-walk.ts';
import { canonicalJson } from '../generators/common/json.ts';
import type { JsonSchema } from '../generators/model/types.ts';
import { type Side, resolve, typesOf } from './side.ts';

export const alternativesOf = (schema: JsonSchema): unknown[] | undefined =>
  Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;

/** How a change's text names an alternative: by its component, its const, its title or its types. */
export function describe(schema: unknown, side: Side): string {
  if (isSchema(schema) && componentName(schema.$ref)) return componentName(schema.$ref)!;
  const resolved = resolve(schema, side);
  if (resolved.const !== undefined) return JSON.stringify(resolved.const);
  if (typeof resolved.title === 'string') return resolved.title;
  const types = typesOf(resolved);
  return types ? [...types].join('|') : 'schema';
}

/** Pairs old and new alternatives: by shared schema name, then by equal content, then by position. */
export function matchAlternatives(
  a: unknown[],
  b: unknown[],
  sides: { old: Side; new: Side },
): Array<[number | undefined, number | undefined]> {
  const pairs: Array<[number | undefined, number | undefined]> = [];
  const freeB = new Set(b.map((_, j) => j));
  const freeA: number[] = [];
  const name = (s: unknown) => (isSchema(s) ? componentName(s.$ref) : undefined);
  const content = (s: unknown, side: Side) => canonicalJson(resolve(s, side));
  a.forEach((alt, i) => {
    const j = [...freeB].find(
      (k) => (name(alt) && name(alt) === name(b[k])) || content(alt, sides.old) === content(b[k], sides.new),
    );
    if (j === undefined) return freeA.push(i);
    freeB.delete(j);
    pairs.push([i, j]);
  });
  const restB = [...freeB];
  if (freeA.length === restB.length) freeA.forEach((i, k) => pairs.push([i, restB[k]]));
  else {
    for (const i of freeA) pairs.push([i, undefined]);
    for (const j of restB) pairs.push([undefined, j]);
  }
  return pairs.sort(([i1, j1], [i2, j2]) => (j1 ?? i1 ?? 0) - (j2 ?? i2 ?? 0));
}
