/**
 * Where the spec marks values secret (`x-sensitive: true`: passwords, exported users, private keys). The generated
 * client's error excerpts hide the keys that hold them; the proxy's redactor walks each value beside its schema.
 * Nothing here writes a `$ref` out: each schema is visited once, so a document whose components double at each level
 * (`S1: {a: S0, b: S0}`, `S2: {a: S1, b: S1}`, ...: billions of schemas written out) costs what its file does.
 */
import { componentName } from './schema-walk.ts';
import type { EndpointModel, JsonSchema } from './types.ts';
import { isObject } from '../common/json.ts';

/**
 * Keys case folded for the client's error excerpts, so `PASSWORD` and `paſſword` (long s) name the password too. An
 * approximation of Go's folding, erring towards more matches (`paßword` too); conform/go-fold.ts matches as Go does.
 */
const fold = (key: string) => key.toLowerCase().toUpperCase();

/** What one value's schemas say of its secrets, `$ref`s and `allOf`/`anyOf`/`oneOf`/`then`/`else` followed. */
export interface SecretShape {
  /** The value itself is secret. */
  secret: boolean;
  /** The properties with a secret at or below them, by the name the spec gives them (a name may repeat). */
  properties: Array<[string, JsonSchema]>;
  /** The schemas of the items with a secret at or below them. */
  items: JsonSchema[];
}

/** A param or result: the schemas secrets are looked for from, a param by its name. */
export interface SecretRoot {
  name?: string;
  schema: JsonSchema;
}

/** One step from a schema: to another schema of the same value, to a property's, or to the items'. */
interface Step {
  schema: JsonSchema;
  property?: string;
  item?: true;
}

export class SecretSchemas {
  /** Schemas with a secret at or below them. */
  private readonly holding: Set<JsonSchema>;
  private readonly shapes = new Map<JsonSchema, SecretShape>();
  /** The keys (params and properties) whose values are secrets, or arrays of them, as the spec names them. */
  readonly keys: string[];

  private readonly shared: Record<string, JsonSchema>;

  constructor(roots: SecretRoot[], shared: Record<string, JsonSchema>) {
    this.shared = shared;
    // Every schema the roots reach, once each, with the steps into it: the secrets are then found backwards.
    const into = new Map<JsonSchema, Array<{ from: JsonSchema; step: Step }>>();
    const secrets: JsonSchema[] = [];
    const seen = new Set<JsonSchema>();
    const pending = roots.map((root) => root.schema);
    while (pending.length > 0) {
      const schema = pending.pop()!;
      if (seen.has(schema)) continue;
      seen.add(schema);
      // A secret is hidden whole: what it holds is never looked at.
      if (schema['x-sensitive'] === true) secrets.push(schema);
      else
        for (const step of this.steps(schema)) {
          const steps = into.get(step.schema) ?? [];
          if (steps.length === 0) into.set(step.schema, steps);
          steps.push({ from: schema, step });
          pending.push(step.schema);
        }
    }
    this.holding = backwards(secrets, into, () => true);
    // A key holds a secret when its value is one, or an array (of arrays) of them.
    const held = backwards(secrets, into, (step) => step.property === undefined);
    const keys = new Set<string>();
    for (const root of roots) if (root.name !== undefined && held.has(root.schema)) keys.add(root.name);
    for (const [schema, steps] of into)
      if (held.has(schema)) for (const { step } of steps) if (step.property !== undefined) keys.add(step.property);
    this.keys = [...keys];
  }

  /** Whether `schema` has a secret at or below it. */
  holds(schema: JsonSchema): boolean {
    return this.holding.has(schema);
  }

  /** The secrets of a value that `schemas` all describe (each a schema `holds` accepts). */
  shapeOf(schemas: JsonSchema[]): SecretShape {
    if (schemas.length === 1) return this.shape(schemas[0]!);
    const shapes = [...new Set(schemas)].map((schema) => this.shape(schema));
    return {
      secret: shapes.some((shape) => shape.secret),
      properties: shapes.flatMap((shape) => shape.properties),
      items: [...new Set(shapes.flatMap((shape) => shape.items))],
    };
  }

  /** The schemas of one value that `schema` leads to (itself included), gathered once each, kept. */
  private shape(schema: JsonSchema): SecretShape {
    const kept = this.shapes.get(schema);
    if (kept) return kept;
    const shape: SecretShape = { secret: false, properties: [], items: [] };
    const seen = new Set<JsonSchema>();
    const pending = [schema];
    while (pending.length > 0) {
      const next = pending.pop()!;
      if (seen.has(next) || !this.holding.has(next)) continue;
      seen.add(next);
      if (next['x-sensitive'] === true) shape.secret = true;
      else
        for (const step of this.steps(next)) {
          if (!this.holding.has(step.schema)) continue;
          if (step.property !== undefined) shape.properties.push([step.property, step.schema]);
          else if (step.item) shape.items.push(step.schema);
          else pending.push(step.schema);
        }
    }
    this.shapes.set(schema, shape);
    return shape;
  }

  /** Where a value's secrets may be written below `schema`: the keywords that place values, not those that test them. */
  private steps(schema: JsonSchema): Step[] {
    const steps: Step[] = [];
    const name = componentName(schema.$ref);
    if (name !== undefined && Object.hasOwn(this.shared, name)) steps.push({ schema: this.shared[name]! });
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[key];
      if (Array.isArray(list))
        for (const branch of list) if (isObject(branch)) steps.push({ schema: branch as JsonSchema });
    }
    for (const key of ['then', 'else']) if (isObject(schema[key])) steps.push({ schema: schema[key] as JsonSchema });
    if (isObject(schema.properties))
      for (const [property, child] of Object.entries(schema.properties))
        if (isObject(child)) steps.push({ schema: child as JsonSchema, property });
    if (isObject(schema.items)) steps.push({ schema: schema.items as JsonSchema, item: true });
    return steps;
  }
}

/** The schemas from which one of `secrets` is reached by steps `follows` accepts, secrets included. */
function backwards(
  secrets: JsonSchema[],
  into: Map<JsonSchema, Array<{ from: JsonSchema; step: Step }>>,
  follows: (step: Step) => boolean,
): Set<JsonSchema> {
  const found = new Set(secrets);
  const pending = [...secrets];
  while (pending.length > 0)
    for (const { from, step } of into.get(pending.pop()!) ?? [])
      if (follows(step) && !found.has(from)) {
        found.add(from);
        pending.push(from);
      }
  return found;
}

/** The params and results of `methods`, where their secrets are looked for from. */
export function secretRoots(methods: EndpointModel['methods']): SecretRoot[] {
  return methods.flatMap((method) => [
    ...method.params.map((param) => ({ name: param.name, schema: param.schema })),
    ...(method.result ? [{ schema: method.result.schema }] : []),
  ]);
}

/** The folded names of the keys that hold secrets in any method of the endpoint (params or result), sorted. */
export function sensitiveKeys(endpoint: EndpointModel, shared: Record<string, JsonSchema>): string[] {
  return [...new Set(new SecretSchemas(secretRoots(endpoint.methods), shared).keys.map(fold))].sort();
}
