/**
 * From the model to the list of named types, each with the JSON Schema json-schema-to-typescript compiles into it.
 * Names come from the model (shared schemas') and generators/model/names.ts; the build step has already failed on any
 * collision. Passes, in order:
 * `$ref` to a shared schema becomes a reference by name (`tsType`), a titled inline schema is hoisted into a type of
 * its own, `deprecated` becomes a `@deprecated` tag, and object properties take one canonical order (the `required`
 * list first, in the author's order, then the rest by name), so key order in the input never changes the output.
 */
import { wrappedText } from '../shared/comments.ts';
import { resultIsComponent, titleTypeName } from '../model/names.ts';
import { componentName, mapSubschemas } from '../model/schema-walk.ts';
import type { Json, JsonSchema, MethodModel, SpecModel } from '../model/types.ts';
import { isSchema } from '../model/schema-walk.ts';

export interface NamedType {
  name: string;
  /** Schema for json-schema-to-typescript: no `$ref`, no `title`; other named types are referenced by `tsType`. */
  schema: JsonSchema;
}

/**
 * Conditionals and negations have no TypeScript form; leaving them out keeps their titled subschemas from becoming
 * types.
 */
const NOT_TYPED = new Set([
  'if',
  'then',
  'else',
  'not',
  'title',
  'examples',
  '$comment',
  '$id',
  '$schema',
  'tsEnumNames',
]);

/**
 * JSON Schema's own keywords. An object under any other key is not a schema (`"items": {"schema": {...}}` in a public
 * spec): JSON Schema ignores it, and so do the types, instead of following the references inside it.
 */
const KEYWORDS = new Set(
  [
    'type properties required additionalProperties patternProperties propertyNames items additionalItems',
    'contains allOf anyOf oneOf enum const default definitions $defs dependencies format pattern minimum',
    'maximum minLength maxLength minItems maxItems uniqueItems description tsType tsEnumNames',
  ].flatMap((line) => line.split(' ')),
);

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/**
 * All named types of the model, in output order: per endpoint its methods' Params and Result, then the shared schemas.
 */
export function namedTypes(model: SpecModel): NamedType[] {
  const out = new Map<string, JsonSchema>();
  // Titles name types only in Avalanche's documents (SpecModel.profile).
  const hoister = new Hoister(model.profile === 'avalanche', model.schemaTypeNames);
  const emit = (name: string, build: () => JsonSchema) => {
    if (out.has(name)) return;
    out.set(name, {}); // holds the type's place ahead of the titled types its schema brings along
    out.set(name, build());
    for (const hoisted of hoister.take()) if (!out.has(hoisted.name)) out.set(hoisted.name, hoisted.schema);
  };
  for (const endpoint of model.endpoints) {
    for (const method of endpoint.methods) {
      if (method.params.length > 0) emit(method.typeNames.params, () => paramsSchema(method, hoister));
      if (method.result && !resultIsComponent(method, model.schemaTypeNames))
        emit(method.typeNames.result, () => resultSchema(method, hoister));
    }
  }
  for (const [name, schema] of Object.entries(model.schemas).sort(([a], [b]) => compareNames(a, b))) {
    emit(model.schemaTypeNames[name]!, () => hoister.prepare(schema, true));
  }
  return [...out].map(([name, schema]) => ({ name, schema }));
}

function paramsSchema(method: MethodModel, hoister: Hoister): JsonSchema {
  const properties = method.params.map((param) => {
    const prepared = hoister.prepare(param.schema, false);
    return [param.name, withDoc(prepared, param.description || prepared.description, param.deprecated)] as const;
  });
  return {
    type: 'object',
    description: `The params of \`${method.name}\`.`,
    additionalProperties: false,
    required: method.params.filter((p) => p.required).map((p) => p.name),
    properties: Object.fromEntries(properties),
  };
}

function resultSchema(method: MethodModel, hoister: Hoister): JsonSchema {
  const result = method.result!;
  const prepared = hoister.prepare(result.schema, typeof result.schema.title !== 'string');
  return withDoc(prepared, prepared.description || result.description || `The result of \`${method.name}\`.`, false);
}

/** The schema with this description, and a `@deprecated` tag when deprecated (the description's last paragraph). */
function withDoc(schema: JsonSchema, description: Json | undefined, deprecated: boolean): JsonSchema {
  const text = typeof description === 'string' ? description : '';
  const doc = deprecated && !text.includes('@deprecated') ? (text ? `${text}\n\n@deprecated` : '@deprecated') : text;
  const { description: _old, ...rest } = schema;
  return sortKeys(doc ? { ...rest, description: wrappedText(doc) } : rest);
}

/** Prepares schemas for compilation; titled subschemas become named types, collected until `take()`. */
class Hoister {
  private pending: NamedType[] = [];
  private readonly seen = new Set<string>();

  /** `titled`: a `title` names a type (the project's rule); in a foreign document a title is only a label. */
  private readonly titled: boolean;
  private readonly typeNames: SpecModel['schemaTypeNames'];
  constructor(titled: boolean, typeNames: SpecModel['schemaTypeNames']) {
    this.titled = titled;
    this.typeNames = typeNames;
  }

  take(): NamedType[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  prepare(schema: JsonSchema, isRoot: boolean): JsonSchema {
    if (this.titled && !isRoot && typeof schema.title === 'string') {
      const name = titleTypeName(schema.title);
      if (!this.seen.has(name)) {
        this.seen.add(name);
        const slot = { name, schema: {} as JsonSchema };
        this.pending.push(slot);
        slot.schema = this.prepare(schema, true);
      }
      return { tsType: name };
    }
    if (typeof schema.$ref === 'string') {
      const component = componentName(schema.$ref);
      if (!component)
        throw new Error(
          `cannot name the type of $ref "${schema.$ref}": only #/components/schemas/<Name> references are supported`,
        );
      return withDoc({ tsType: this.typeNames[component]! }, schema.description, schema.deprecated === true);
    }
    // Canonical order first: titled subschemas become types in the order they are met.
    const ordered = isSchema(schema.properties) ? { ...schema, properties: orderProperties(schema) } : schema;
    for (const key of ['patternProperties', 'definitions', '$defs', 'dependencies']) {
      if (isSchema(ordered[key])) ordered[key] = sortKeys(ordered[key]);
    }
    const walked = mapSubschemas(ordered, (child) => this.prepare(child, false));
    const kept = Object.fromEntries(
      Object.entries(walked).filter(
        ([key, value]) => !NOT_TYPED.has(key) && key !== 'deprecated' && (KEYWORDS.has(key) || !isSchema(value)),
      ),
    ) as JsonSchema;
    return withDoc(kept, kept.description, schema.deprecated === true);
  }
}

function orderProperties(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, Json>;
  const required = Array.isArray(schema.required)
    ? (schema.required as Json[]).filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r))
    : [];
  const rest = Object.keys(properties)
    .filter((key) => !required.includes(key))
    .sort(compareNames);
  return Object.fromEntries([...new Set(required), ...rest].map((key) => [key, properties[key]!])) as JsonSchema;
}

/** Keywords in one order at this level (property order is decided by `orderProperties`). */
function sortKeys(schema: { [key: string]: Json }): JsonSchema {
  return Object.fromEntries(Object.entries(schema).sort(([a], [b]) => compareNames(a, b))) as JsonSchema;
}
