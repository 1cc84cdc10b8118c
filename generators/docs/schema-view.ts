/**
 * A schema's type on one line, "as the wire carries it": `Uint64 (decimal string)`, `array of ID (cb58)`,
 * `map of NodeID → PlatformValidatorAtHeight`, `NullableHexNoChecksum (0x hex or null)`. Named types link to their
 * entries on the types page; the fields underneath are schema-tree.ts's job.
 */
import type { avalancheFormats } from '../formats.ts';
import { componentName } from '../model/schema-walk.ts';
import type { Json, JsonSchema, NodeVersions } from '../model/types.ts';
import { type Html, html, joinHtml, releaseAttrs } from './html.ts';
import { type MethodLinker, renderMarkdown } from './markdown.ts';
import { isSchema } from '../model/schema-walk.ts';

export interface SchemaContext {
  schemas: Record<string, JsonSchema>;
  typeHref: (name: string) => string;
  linker: MethodLinker;
}

type Schema = JsonSchema | boolean;

// Keyed by the format names formats.ts checks: a format without a hint fails tsc.
const FORMAT_HINTS: Record<keyof typeof avalancheFormats | 'date-time', string> = {
  'avax-cb58': 'cb58',
  'avax-short-id': 'cb58 short ID',
  'avax-node-id': 'NodeID- + cb58',
  'avax-address': 'chain-prefixed bech32',
  'avax-bech32': 'bech32',
  'avax-hex': '0x hex + checksum',
  'date-time': 'RFC 3339 time',
};

const asSchema = (value: Json | undefined): Schema | undefined =>
  typeof value === 'boolean' || isSchema(value) ? value : undefined;
const asSchemas = (value: Json | undefined): Schema[] =>
  Array.isArray(value) ? value.map(asSchema).filter((s) => s !== undefined) : [];

export function refName(schema: Schema): string | undefined {
  return typeof schema === 'object' ? componentName(schema.$ref) : undefined;
}

/** The named types followed on the way to a schema, newest first: shared by every path that extends it, never copied. */
export type RefTrail = { name: string; parent: RefTrail } | undefined;

function onTrail(trail: RefTrail, name: string): boolean {
  for (let at = trail; at; at = at.parent) if (at.name === name) return true;
  return false;
}

// Where each chain of references ends, per context: a chain is walked once however often it is followed.
const chainEnds = new WeakMap<SchemaContext, Map<string, string | null>>();

/**
 * The name of the schema a chain of `$ref`s from `name` ends at (the first that is not itself a reference, as a schema
 * with a `$ref` is read as that reference here), or undefined when the chain reaches a missing type or loops.
 */
function chainEnd(context: SchemaContext, name: string): string | undefined {
  let ends = chainEnds.get(context);
  if (!ends) chainEnds.set(context, (ends = new Map()));
  const walked: string[] = [];
  const onChain = new Set<string>();
  let end: string | null | undefined;
  for (let at: string | undefined = name; end === undefined; ) {
    if (ends.has(at)) end = ends.get(at);
    else if (!Object.hasOwn(context.schemas, at) || onChain.has(at)) end = null;
    else {
      walked.push(at);
      onChain.add(at);
      const next = refName(context.schemas[at]!);
      if (next === undefined) end = at;
      else at = next;
    }
  }
  for (const at of walked) ends.set(at, end);
  return end ?? undefined;
}

/**
 * The named type a `$ref` points to, or undefined when the schema is not a `$ref`. `target` is that type's schema
 * (undefined when missing); `end` is where the chain of references from it ends, undefined when a type is missing, the
 * chain loops, or it ends at a type already on `trail` (the types followed on the way here), so a recursive type
 * cannot loop.
 */
export function followRef(
  schema: Schema,
  context: SchemaContext,
  trail: RefTrail = undefined,
): { name: string; target: JsonSchema | undefined; end: JsonSchema | undefined; trail: RefTrail } | undefined {
  const name = refName(schema);
  if (name === undefined) return undefined;
  const target = Object.hasOwn(context.schemas, name) ? context.schemas[name] : undefined;
  const end = chainEnd(context, name);
  if (end === undefined || onTrail(trail, end)) return { name, target, end: undefined, trail };
  return { name, target, end: context.schemas[end], trail: { name: end, parent: trail } };
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

const isDecimalPattern = (pattern: string) => pattern.replace(/\[[0-9-]+\]|\\\.|[0-9^$()|*+?{},]/g, '') === '';

// The hint of each named type, per context. `anyOf: [S, S]` at every level reaches a type along exponentially many
// paths; its hint is the same along each, as the trail only cuts a loop, and a cut makes every hint around it undefined.
const namedHints = new WeakMap<SchemaContext, Map<string, string | undefined>>();

/** A few words on how a value looks on the wire, or undefined when its type says it all (objects). */
function wireHint(schema: Schema, context: SchemaContext, trail?: RefTrail): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  const ref = followRef(schema, context, trail);
  if (ref) {
    if (!ref.end) return undefined;
    let hints = namedHints.get(context);
    if (!hints) namedHints.set(context, (hints = new Map()));
    const end = ref.trail!.name;
    if (!hints.has(end)) hints.set(end, wireHint(ref.end, context, ref.trail));
    return hints.get(end);
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const members = asSchemas(schema.oneOf ?? schema.anyOf);
  if (members.length > 0) {
    // Objects have no wire hint: a union of them is told by its variants, not by a list of their names.
    const hints = members.map((member) => wireHint(member, context, trail));
    return hints.includes(undefined) ? undefined : [...new Set(hints)].join(' or ');
  }
  const hints = typesOf(schema).map((type) => {
    if (type === 'string') {
      const format =
        typeof schema.format === 'string'
          ? ((FORMAT_HINTS as Partial<Record<string, string>>)[schema.format] ?? schema.format)
          : undefined;
      const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
      if (format) return format;
      if (pattern.startsWith('^0x')) return '0x hex';
      if (pattern && isDecimalPattern(pattern)) return 'decimal string';
      return 'string';
    }
    if (type === 'integer' || type === 'number') return 'number';
    if (type === 'object') return isSchema(schema.additionalProperties) && !schema.properties ? 'map' : undefined;
    return type;
  });
  return hints.includes(undefined) ? undefined : [...new Set(hints)].join(' or ');
}

/** The inline type of a schema, with named types linked to their entries on the types page. */
export function typeExpression(schema: Schema, context: SchemaContext): Html {
  if (schema === false) return html`<span class="type-word">absent</span>`;
  if (schema === true || Object.keys(schema).filter((k) => k !== 'description').length === 0)
    return html`<span class="type-word">any JSON</span>`;
  const ref = followRef(schema, context);
  if (ref) {
    const hint = wireHint(schema, context);
    const title = typeof ref.target?.description === 'string' ? ref.target.description : '';
    const hinted = hint ? html` <span class="hint">(${hint})</span>` : '';
    return html`<a class="type-name" href="${context.typeHref(ref.name)}" title="${title}">${ref.name}</a>${hinted}`;
  }
  if (schema.const !== undefined) return html`<code>${JSON.stringify(schema.const)}</code>`;
  if (Array.isArray(schema.enum)) {
    const ranges = schema['x-enum-versions'];
    if (ranges && typeof ranges === 'object' && !Array.isArray(ranges))
      // Each value in its own element, so the release selector can leave out those a release could not send.
      return joinHtml(
        schema.enum.map(
          (value, i) =>
            html`<span class="enum-value"${releaseAttrs((ranges as Record<string, NodeVersions>)[String(value)])}>${i > 0 ? ' | ' : ''}<code>${JSON.stringify(value)}</code></span>`,
        ),
      );
    return joinHtml(
      schema.enum.map((value) => html`<code>${JSON.stringify(value)}</code>`),
      ' | ',
    );
  }
  const members = asSchemas(schema.oneOf ?? schema.anyOf);
  if (members.length > 0)
    return joinHtml(
      members.map((member) => typeExpression(member, context)),
      html` <span class="type-word">or</span> `,
    );
  const allOf = asSchemas(schema.allOf);
  if (allOf.length > 0)
    return joinHtml(
      allOf.map((member) => typeExpression(member, context)),
      html` <span class="type-word">and</span> `,
    );
  const types = typesOf(schema);
  if (types.length === 0) return html`<span class="type-word">any JSON</span>`;
  return joinHtml(
    types.map((type) => baseType(type, schema, context)),
    html` <span class="type-word">or</span> `,
  );
}

function baseType(type: string, schema: JsonSchema, context: SchemaContext): Html {
  const title = typeof schema.title === 'string' ? schema.title : undefined;
  if (type === 'array') {
    const items = asSchema(schema.items);
    return items === undefined
      ? html`<span class="type-word">array</span>`
      : html`<span class="type-word">array of</span> ${typeExpression(items, context)}`;
  }
  if (type === 'object') {
    const values = asSchema(schema.additionalProperties);
    if (!schema.properties && typeof values === 'object') {
      const keys = asSchema(schema.propertyNames);
      const keyType = keys === undefined ? html`<span class="type-word">string</span>` : typeExpression(keys, context);
      const valueType = title ? html`<span class="type-title">${title}</span>` : typeExpression(values, context);
      return html`<span class="type-word">map of</span> ${keyType} → ${valueType}`;
    }
    return html`<span class="type-title">${title ?? 'object'}</span>`;
  }
  if (type === 'string' || type === 'integer' || type === 'number') {
    const hint = wireHint({ ...schema, type }, context);
    const showHint = hint && hint !== 'string' && hint !== 'number';
    return html`<span class="type-word">${type}</span>${showHint ? html` <span class="hint">(${hint})</span>` : ''}`;
  }
  return html`<span class="type-word">${type}</span>`;
}

/** Constraints that the type line does not already say: patterns, bounds, lengths. */
export function constraints(schema: Schema): Html[] {
  if (typeof schema === 'boolean' || refName(schema)) return [];
  const rules: Html[] = [];
  const number = (key: string) => (typeof schema[key] === 'number' ? String(schema[key]) : undefined);
  if (typeof schema.pattern === 'string') rules.push(html`pattern <code>${schema.pattern}</code>`);
  const range = (min: string | undefined, max: string | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) rules.push(html`${unit} ${min} to ${max}`);
    else if (min !== undefined) rules.push(html`${unit} at least ${min}`);
    else if (max !== undefined) rules.push(html`${unit} at most ${max}`);
  };
  range(number('minimum'), number('maximum'), 'value');
  range(number('minLength'), number('maxLength'), 'length');
  range(number('minItems'), number('maxItems'), 'items');
  return rules;
}

/** A description in Markdown, or null when there is none (so templates can leave the place out). */
export function describe(text: unknown, context: SchemaContext): Html | null {
  return typeof text === 'string' && text.trim() ? renderMarkdown(text, context.linker) : null;
}

export { asSchema, asSchemas, type Schema };
