/**
 * The kinds of JSON value each decoded field admits (runtime/server/params.ts PropertyShape.types), worked out from the
 * schemas at generation, for ./shapes.ts.
 */
import { componentName, isSchema } from '../model/schema-walk.ts';
import type { Json, SpecModel } from '../model/types.ts';

/** The kinds of JSON value the reader tells apart (null is left out: Go leaves a field as it was for null). */
const KINDS = ['array', 'boolean', 'number', 'object', 'string'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The kinds of value a schema admits, written as the runtime's `types` (runtime/server/params.ts): its `type`, `enum`
 * or `const`, and its unions (any of the branches) and intersections (all of them), through `$ref`s. Undefined where
 * every kind may be admitted, or where it cannot be told (a `$ref` within its own cycle, a keyword it does not know):
 * then the reader checks nothing, and the validators alone judge the value, as before.
 */
export class Kinds {
  private readonly model: SpecModel;
  private readonly components = new Map<string, Set<Kind> | undefined | 'pending'>();
  constructor(model: SpecModel) {
    this.model = model;
  }

  typesOf(schema: Json): string | undefined {
    const kinds = this.of(schema);
    return kinds === undefined || kinds.size === KINDS.length ? undefined : [...kinds].sort().join(' ');
  }

  private of(schema: Json): Set<Kind> | undefined {
    if (!isSchema(schema)) return undefined;
    if (typeof schema.$ref === 'string') {
      const name = componentName(schema.$ref);
      if (name === undefined || !Object.hasOwn(this.model.schemas, name)) return undefined;
      const known = this.components.get(name);
      if (known === 'pending') return undefined;
      if (known !== undefined || this.components.has(name)) return known;
      this.components.set(name, 'pending');
      const kinds = this.of(this.model.schemas[name]!);
      this.components.set(name, kinds);
      return kinds;
    }
    // Each keyword that limits the kinds narrows them; none leaves every kind.
    const limits: Array<Set<Kind> | undefined> = [typeKinds(schema.type)];
    if (Array.isArray(schema.enum)) limits.push(new Set(schema.enum.map(kindOf).filter((kind) => kind !== undefined)));
    if ('const' in schema) limits.push(new Set([kindOf(schema.const)].filter((kind) => kind !== undefined)));
    for (const key of ['anyOf', 'oneOf']) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      const union = new Set<Kind>();
      let known = true;
      for (const branch of branches) {
        const kinds = this.of(branch);
        if (kinds === undefined) known = false;
        else for (const kind of kinds) union.add(kind);
      }
      limits.push(known ? union : undefined);
    }
    if (Array.isArray(schema.allOf)) limits.push(...schema.allOf.map((branch) => this.of(branch)));
    let kinds: Set<Kind> | undefined;
    for (const limit of limits) {
      if (limit === undefined) continue;
      kinds = kinds === undefined ? limit : new Set([...kinds].filter((kind) => limit.has(kind)));
    }
    return kinds;
  }
}

/** The kinds a `type` keyword admits; undefined when absent or naming a type this does not know. */
function typeKinds(type: Json | undefined): Set<Kind> | undefined {
  if (type === undefined) return undefined;
  const names = Array.isArray(type) ? type : [type];
  const kinds = new Set<Kind>();
  for (const name of names) {
    if (name === 'null') continue;
    if (name === 'integer') kinds.add('number');
    else if (typeof name === 'string' && (KINDS as readonly string[]).includes(name)) kinds.add(name as Kind);
    else return undefined;
  }
  return kinds;
}

function kindOf(value: Json): Kind | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object' ? type : undefined;
}
