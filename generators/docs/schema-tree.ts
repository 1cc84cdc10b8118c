/**
 * The fields under a schema as a tree: object properties, the fields of array items and map values, `oneOf`/`anyOf`
 * object variants as branches (the kinds of validator), and `if`/`then`/`else` told as plain rules. A named type is
 * written out at the first level only (a param's or result's type, or the type's own entry on the types page): past
 * it, its name links to its entry, so the pages grow with the document however deep the types nest.
 */
import type { JsonSchema, NodeVersions } from '../model/types.ts';
import { describeRange, rangeOf } from '../model/versions.ts';
import { type Html, html, joinHtml, releaseAttrs } from './html.ts';
import {
  type Schema,
  type SchemaContext,
  asSchema,
  asSchemas,
  constraints,
  describe,
  type RefTrail,
  followRef,
  typeExpression,
} from './schema-view.ts';

/** One row of a schema tree; the templates render it recursively. */
export interface SchemaNode {
  name: string;
  type: Html;
  /** Only object fields are required or optional. */
  isField: boolean;
  required: boolean;
  description: Html | null;
  rules: Html[];
  /** The schema's `default`, as JSON. */
  defaultValue: string | null;
  fields: SchemaNode[];
  /** Alternatives with fields of their own, e.g. the kinds of validator. */
  variants: SchemaNode[];
  variantsLabel: string;
  /** The fields of a named type start folded: its entry on the types page lists them too. */
  open: boolean;
  fieldsLabel: string;
  /** The releases that have it, as data attributes for the release selector. */
  releaseAttrs: Html;
}

interface Structure {
  fields: SchemaNode[];
  variants: SchemaNode[];
  rules: Html[];
  /** The named type the fields come from, if any. */
  named: string | undefined;
  /** Whether the fields or variants are those of a named type not written out again here (its name links to them). */
  linked?: boolean;
}

const NONE: Structure = { fields: [], variants: [], rules: [], named: undefined };

// Whether each named type has fields or variants, per context: worked out once however often the type is linked to.
const structured = new WeakMap<SchemaContext, Map<string, boolean>>();

function isStructured(context: SchemaContext, name: string, schema: JsonSchema): boolean {
  let known = structured.get(context);
  if (!known) structured.set(context, (known = new Map()));
  const found = known.get(name);
  if (found !== undefined) return found;
  // Within its own cycle a type counts as plain until its structure is known.
  known.set(name, false);
  const structure = structureOf(schema, context, { name, parent: undefined });
  const result = structure.fields.length > 0 || structure.variants.length > 0;
  known.set(name, result);
  return result;
}

export function schemaNode(
  name: string,
  schema: Schema,
  context: SchemaContext,
  options: {
    isField?: boolean;
    required?: boolean;
    description?: unknown;
    trail?: RefTrail;
    versions?: NodeVersions;
  } = {},
): SchemaNode {
  const structure = structureOf(schema, context, options.trail);
  const target = followRef(schema, context)?.target ?? (typeof schema === 'object' ? schema : {});
  const ownDescription =
    typeof schema === 'object' && typeof schema.description === 'string' ? schema.description : undefined;
  return {
    name,
    type: typeExpression(schema, context),
    isField: options.isField ?? false,
    required: options.required ?? false,
    description: describe(options.description ?? ownDescription ?? target.description, context),
    rules: [...history(schema, options.versions), ...constraints(schema), ...structure.rules],
    defaultValue: typeof schema === 'object' && schema.default !== undefined ? JSON.stringify(schema.default) : null,
    fields: structure.fields,
    variants: structure.variants,
    // One structured alternative among plain ones (hex or a JSON object) is a form, not a choice of kinds.
    variantsLabel: structure.variants.length === 1 ? 'The object form:' : `One of ${structure.variants.length} kinds:`,
    open: structure.named === undefined,
    fieldsLabel: structure.named ? `Fields of ${structure.named}` : 'Fields',
    releaseAttrs: releaseAttrs(
      options.versions && Object.keys(options.versions).length > 0
        ? options.versions
        : typeof schema === 'object'
          ? rangeOf(schema)
          : undefined,
    ),
  };
}

/** The releases that have this field, param or alternative, and those of its enum values (`x-node-versions`). */
function history(schema: Schema, versions: NodeVersions | undefined): Html[] {
  if (typeof schema !== 'object') return [];
  const range = versions && Object.keys(versions).length > 0 ? versions : rangeOf(schema);
  const out = range ? [html`Releases: ${describeRange(range)}.`] : [];
  const values = schema['x-enum-versions'];
  if (values && typeof values === 'object' && !Array.isArray(values)) {
    for (const [value, valueRange] of Object.entries(values))
      out.push(html`Value <code>${JSON.stringify(value)}</code>: ${describeRange(valueRange as NodeVersions)}.`);
  }
  return out;
}

function structureOf(schema: Schema, context: SchemaContext, trail: RefTrail): Structure {
  if (typeof schema === 'boolean') return NONE;
  const ref = followRef(schema, context, trail);
  if (ref) {
    if (!ref.end) return NONE;
    if (trail !== undefined)
      return { ...NONE, named: ref.name, linked: isStructured(context, ref.trail!.name, ref.end) };
    const inner = structureOf(ref.end, context, ref.trail);
    return { ...inner, named: inner.named ?? ref.name };
  }
  const parts: Structure[] = [];
  const items = asSchema(schema.items);
  if (items !== undefined) parts.push(structureOf(items, context, trail));
  const values = asSchema(schema.additionalProperties);
  if (typeof values === 'object' && !schema.properties) parts.push(structureOf(values, context, trail));
  if (schema.properties && typeof schema.properties === 'object' && !Array.isArray(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const fields = Object.entries(schema.properties).flatMap(([key, value]) => {
      const property = asSchema(value);
      return property === undefined
        ? []
        : [schemaNode(key, property, context, { isField: true, required: required.includes(key), trail })];
    });
    parts.push({ ...NONE, fields });
  }
  for (const member of asSchemas(schema.allOf)) parts.push(structureOf(member, context, trail));
  const alternatives = asSchemas(schema.oneOf ?? schema.anyOf);
  const variants = alternatives
    .map((member) => ({ member, structure: structureOf(member, context, trail) }))
    .filter(({ structure }) => structure.fields.length > 0 || structure.variants.length > 0 || structure.linked)
    .map(({ member }) => schemaNode('', member, context, { trail }));
  const rules = conditionalRule(schema, context);
  if (variants.length > 0 || rules) parts.push({ ...NONE, variants, rules: rules ? [rules] : [] });
  // A single part keeps its origin, so an array of a named type folds that type's fields.
  if (parts.length === 1) return parts[0]!;
  return {
    fields: parts.flatMap((p) => p.fields),
    variants: parts.flatMap((p) => p.variants),
    rules: parts.flatMap((p) => p.rules),
    named: undefined,
  };
}

/** `if`/`then`/`else` in words: "When `status` is "Dropped": `reason` is required. Otherwise: `reason` is absent." */
function conditionalRule(schema: JsonSchema, context: SchemaContext): Html | undefined {
  const condition = asSchema(schema.if);
  if (typeof condition !== 'object') return undefined;
  const when = conditionWords(condition);
  const then = effectWords(asSchema(schema.then), context);
  const otherwise = effectWords(asSchema(schema.else), context);
  return html`When ${when}: ${then ?? 'no further rule'}.${otherwise ? html` Otherwise: ${otherwise}.` : ''}`;
}

function conditionWords(condition: JsonSchema): Html {
  const properties = (condition.properties ?? {}) as Record<string, Schema>;
  const words = Object.entries(properties).map(([key, value]) => {
    if (typeof value === 'object' && value.const !== undefined)
      return html`<code>${key}</code> is <code>${JSON.stringify(value.const)}</code>`;
    if (typeof value === 'object' && Array.isArray(value.enum)) {
      return html`<code>${key}</code> is one of ${joinHtml(
        value.enum.map((v) => html`<code>${JSON.stringify(v)}</code>`),
        ', ',
      )}`;
    }
    return html`<code>${key}</code> matches its condition`;
  });
  const required = Array.isArray(condition.required)
    ? condition.required.map((key) => html`<code>${String(key)}</code> is present`)
    : [];
  const all = [...words, ...required];
  return all.length > 0 ? joinHtml(all, ' and ') : html`the value matches the condition in the OpenRPC document`;
}

function effectWords(effect: Schema | undefined, context: SchemaContext): Html | undefined {
  if (effect === undefined || typeof effect === 'boolean') return undefined;
  const required = Array.isArray(effect.required) ? effect.required.map(String) : [];
  const properties = (effect.properties ?? {}) as Record<string, Schema>;
  const words = Object.entries(properties).map(([key, value]) => {
    if (value === false) return html`<code>${key}</code> is absent`;
    const isRequired = required.includes(key);
    return html`<code>${key}</code> is ${typeExpression(value, context)}${isRequired ? ' (required)' : ''}`;
  });
  const onlyRequired = required
    .filter((key) => !Object.hasOwn(properties, key))
    .map((key) => html`<code>${key}</code> is required`);
  const all = [...words, ...onlyRequired];
  return all.length > 0 ? joinHtml(all, '; ') : undefined;
}
