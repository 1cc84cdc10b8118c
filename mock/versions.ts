/**
 * The mock as one release answered: a layer between any handler and the wire, derived from the spec's ranges alone
 * (no code per method). Params the release did not know never reach it: the endpoint drops them before validation
 * (`ignoredParams`, set in ./node.ts, as Go's decoder ignores unknown keys); values the release could not decode (an
 * alternative it lacked, as `height: "proposed"` before v1.11.13) get
 * its decode error. The handler's answer is cut to the release: fields it did not send are removed, enum values it
 * could not send become one it could, and where the result had another shape (`x-result-history`) the answer is
 * recast to that shape when its data fits it (a map of weights for a map of validators), else cut to it.
 */
import { INVALID_ARGUMENT, RawJson } from '../generated/server/dist/index.js';
import { type SchemaCompiler, compilerOf } from '../conform/release.ts';
import { canonicalJson } from '../generators/common/json.ts';
import { componentName } from '../generators/model/schema-walk.ts';
import type { Json, JsonSchema, MethodModel, SpecModel } from '../generators/model/types.ts';
import { inRange, levelAt, rangeOf, schemaAt } from '../generators/model/versions.ts';

type Answer = (params: Record<string, unknown>) => unknown;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The params as Go's decoder hands them to the handler: a missing key the spec marks `x-zero-when-absent` holds its
 * zero value (the zero ID, 0, "", []), so every handler sees what the node's does. Identity when none is marked.
 */
export function zeroFilled(method: MethodModel): (params: Record<string, unknown>) => Record<string, unknown> {
  const zeros = method.params.filter((p) => 'zeroWhenAbsent' in p);
  if (zeros.length === 0) return (params) => params;
  return (params) => {
    const missing = zeros.filter(({ name }) => params[name] === undefined || params[name] === null);
    if (missing.length === 0) return params;
    return { ...params, ...Object.fromEntries(missing.map((p) => [p.name, structuredClone(p.zeroWhenAbsent)])) };
  };
}

/** `answer` as release `version` gives it; `answer` itself when nothing of the method differs in that release. */
export function atRelease(model: SpecModel, method: MethodModel, version: string | undefined, answer: Answer): Answer {
  if (!version) return answer;
  // Worked out on the method's first call: a node serves some 150 methods, and a test calls a handful of them.
  let atVersion: Answer | undefined;
  return (sent) => (atVersion ??= wrapAtRelease(model, method, version, answer))(sent);
}

/**
 * Works out ahead what `atRelease`'s first call of `method` would (a walk of its params' and result's schemas, a few
 * ms for some methods), for a node to do while idle (./when-idle.ts).
 */
export function prepareRelease(model: SpecModel, method: MethodModel, version: string): void {
  releaseView(model, method, version);
}

function wrapAtRelease(model: SpecModel, method: MethodModel, version: string, answer: Answer): Answer {
  const { narrowed, earlier, resultSchema, reshape } = releaseView(model, method, version);
  if (narrowed.length === 0 && !reshape) return answer;
  // Compiled on the first call that needs it: most nodes never answer as an older release's schemas, and ajv's load
  // and compilation would be most of their start-up.
  let compiler: SchemaCompiler | undefined;
  const spec = { check: (schema: JsonSchema, value: unknown) => (compiler ??= compilerOf(model)).check(schema, value) };

  const shape = (result: unknown): unknown => {
    if (!resultSchema) return result;
    if (earlier) {
      // Another shape of the same data: the world's answer recast when the data fits it, so it agrees with other reads;
      // otherwise cut to the earlier shape below.
      const current = result instanceof RawJson ? (JSON.parse(result.json) as Json) : (result as Json);
      const recast = recastTo(current, resultSchema, model.schemas, spec);
      if (recast !== undefined) return recast;
    }
    const value = result instanceof RawJson ? (JSON.parse(result.json) as Json) : (result as Json);
    return fit(value, earlier?.schema ?? method.result!.schema, version, model.schemas, spec);
  };

  return (sent) => {
    for (const param of narrowed) {
      if (param.name in sent && !spec.check(param.schema, sent[param.name])) throw new Error(INVALID_ARGUMENT);
    }
    const result = answer(sent);
    if (!reshape) return result;
    return result instanceof Promise ? result.then((settled) => shape(settled)) : shape(result);
  };
}

interface ReleaseView {
  /** Params whose schema differs in the release, with the release's schema. */
  narrowed: Array<{ name: string; schema: JsonSchema }>;
  earlier: MethodModel['resultHistory'][number] | undefined;
  resultSchema: JsonSchema | undefined;
  reshape: boolean;
}

/** What of a method differs in a release: the same for every node of the process, so worked out once. */
const views = new WeakMap<MethodModel, Map<string, ReleaseView>>();

function releaseView(model: SpecModel, method: MethodModel, version: string): ReleaseView {
  let byVersion = views.get(method);
  if (!byVersion) views.set(method, (byVersion = new Map()));
  let view = byVersion.get(version);
  if (!view) {
    const narrowed = method.params
      .filter((p) => inRange(p.versions, version))
      .map((p) => ({ name: p.name, schema: schemaAt(p.schema, version, model.schemas), original: p.schema }))
      .filter((p) => p.schema !== p.original);
    const earlier = method.resultHistory.find((entry) => inRange(entry.versions, version));
    const resultSchema = method.result
      ? schemaAt(earlier?.schema ?? method.result.schema, version, model.schemas)
      : undefined;
    const reshape =
      resultSchema !== undefined &&
      (earlier !== undefined ||
        resultSchema !== method.result!.schema ||
        hasHistoricFields(method.result!.schema, version, model.schemas));
    view = { narrowed, earlier, resultSchema, reshape };
    byVersion.set(version, view);
  }
  return view;
}

/**
 * `value` cut to `schema` as release `version` has it: closed objects lose fields it lacks, enums keep to its values.
 */
function fit(
  value: Json,
  schema: JsonSchema,
  version: string,
  schemas: Record<string, JsonSchema>,
  spec: Pick<SchemaCompiler, 'check'>,
  depth = 0,
): Json {
  if (depth > 64) return value;
  let raw = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref = componentName(raw.$ref);
    if (!ref || !schemas[ref]) break;
    const { $ref: _, ...siblings } = raw;
    raw = { ...schemas[ref], ...siblings };
  }
  const level = levelAt(raw, version);
  const alternatives = (
    Array.isArray(level.oneOf) ? level.oneOf : Array.isArray(level.anyOf) ? level.anyOf : undefined
  ) as JsonSchema[] | undefined;
  if (alternatives && alternatives.length > 0) {
    const matching = alternatives.find((alt) => spec.check(alt, value)) ?? closest(alternatives, value, schemas);
    return fit(value, matching, version, schemas, spec, depth + 1);
  }
  if (
    Array.isArray(level.enum) &&
    level.enum.length > 0 &&
    !level.enum.some((v) => canonicalJson(v) === canonicalJson(value))
  ) {
    // A value the release could not send: its last listed value stands in (the spec lists `Unknown`-like values last).
    return level.enum.at(-1) as Json;
  }
  if (Array.isArray(value) && isObject(level.items)) {
    const items = level.items as JsonSchema;
    const gone = droppedAlternatives(items, version, schemas);
    // An item of a kind the release did not have (an L1 validator before v1.12.2) is one the node did not list.
    const kept =
      gone.length === 0
        ? value
        : value.filter(
            (item) => !gone.some((alt) => spec.check(alt, item)) || spec.check(schemaAt(items, version, schemas), item),
          );
    return kept.map((item) => fit(item, items, version, schemas, spec, depth + 1));
  }
  if (!isObject(value)) return value;
  const properties = isObject(level.properties) ? (level.properties as Record<string, JsonSchema>) : undefined;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema =
      properties?.[key] ??
      (isObject(level.additionalProperties) ? (level.additionalProperties as JsonSchema) : undefined);
    // A field of the spec outside the release is left out even where the object is open (a JSON transaction).
    if (!childSchema && (level.additionalProperties === false || (isObject(raw.properties) && key in raw.properties)))
      continue;
    out[key] = childSchema ? fit(child as Json, childSchema, version, schemas, spec, depth + 1) : (child as Json);
  }
  let filled = false;
  for (const [key, property] of Object.entries(properties ?? {})) {
    // A field the release sent that today's node does not: the world has its value under the name it copied.
    // One with no such source, that the release always sent, has its `default`.
    if (key in out || !isHistoric(property)) continue;
    const source = property['x-copy-of'];
    if (typeof source === 'string' && source in value)
      out[key] = fit(structuredClone(value[source] as Json), property, version, schemas, spec, depth + 1);
    else if ('default' in property && typeof source !== 'string') out[key] = structuredClone(property.default as Json);
    else continue;
    filled = true;
  }
  if (!filled) return out;
  // In the spec's order, which is the node's struct order: the filled field where that release wrote it.
  const order = Object.keys(properties!);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => rank(a) - rank(b)));
}

/** A field the node stopped sending, whose value the spec says how to fill: from a sibling, or its `default`. */
function isHistoric(property: JsonSchema): boolean {
  const range = rangeOf(property);
  return (
    range !== undefined &&
    (range.removedIn !== undefined || range.lastVersion !== undefined) &&
    (typeof property['x-copy-of'] === 'string' || 'default' in property)
  );
}

/** Whether release `version` has a field that today's node no longer sends (through `$ref`s to shared schemas). */
function hasHistoricFields(
  schema: JsonSchema,
  version: string,
  schemas: Record<string, JsonSchema>,
  seen = new Set<string>(),
): boolean {
  const text = JSON.stringify(schema);
  if (!text.includes('"x-node-versions"') && !text.includes('"$ref"')) return false;
  let found = false;
  JSON.parse(text, (key, node) => {
    if (key === 'properties' && isObject(node))
      for (const property of Object.values(node))
        if (isObject(property) && isHistoric(property as JsonSchema) && inRange(rangeOf(property), version))
          found = true;
    if (key === '$ref' && typeof node === 'string') {
      const name = componentName(node);
      if (name && schemas[name] && !seen.has(name)) {
        seen.add(name);
        if (hasHistoricFields(schemas[name], version, schemas, seen)) found = true;
      }
    }
    return node;
  });
  return found;
}

/** The alternative whose properties share the most names with the value's. */
function closest(alternatives: JsonSchema[], value: Json, schemas: Record<string, JsonSchema>): JsonSchema {
  const keys = isObject(value) ? Object.keys(value) : [];
  const score = (alt: JsonSchema) => {
    const ref = componentName(alt.$ref);
    const resolved = ref ? (schemas[ref] ?? alt) : alt;
    const properties = isObject(resolved.properties) ? Object.keys(resolved.properties) : [];
    return keys.filter((k) => properties.includes(k)).length;
  };
  return alternatives.reduce((best, alt) => (score(alt) > score(best) ? alt : best), alternatives[0]!);
}

/** The `anyOf`/`oneOf` alternatives of `schema` (through `$ref`s) that release `version` did not have. */
function droppedAlternatives(schema: JsonSchema, version: string, schemas: Record<string, JsonSchema>): JsonSchema[] {
  let level = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref = componentName(level.$ref);
    if (!ref || !schemas[ref]) break;
    level = schemas[ref];
  }
  const alternatives = (
    Array.isArray(level.oneOf) ? level.oneOf : Array.isArray(level.anyOf) ? level.anyOf : []
  ) as JsonSchema[];
  return alternatives.filter((alt) => !inRange(rangeOf(alt), version));
}

/**
 * `value` recast to an earlier shape of the same data, by structure alone: a map whose entries recast, an object
 * wrapped in the one property the shape requires, a decimal string as the bare number the shape wants, and an object
 * where a scalar stands by the one field that recasts to it. `undefined` when the data does not fit the shape.
 */
function recastTo(
  value: Json,
  schema: JsonSchema,
  schemas: Record<string, JsonSchema>,
  spec: Pick<SchemaCompiler, 'check'>,
  depth = 0,
): Json | undefined {
  if (depth > 16) return undefined;
  if (spec.check(schema, value)) return value;
  let level = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref = componentName(level.$ref);
    if (!ref || !schemas[ref]) break;
    level = schemas[ref];
  }
  const type = level.type;
  if (
    (type === 'integer' || type === 'number') &&
    typeof value === 'string' &&
    /^\d+$/.test(value) &&
    Number.isSafeInteger(Number(value))
  ) {
    return recastTo(Number(value), schema, schemas, spec, depth + 1);
  }
  if (!isObject(value)) return undefined;
  if (type !== 'object') {
    const fits = Object.values(value)
      .map((field) => recastTo(field, schema, schemas, spec, depth + 1))
      .filter((v) => v !== undefined);
    return fits.length === 1 ? fits[0] : undefined;
  }
  const required = Array.isArray(level.required) ? (level.required as string[]) : [];
  const properties = isObject(level.properties) ? (level.properties as Record<string, JsonSchema>) : {};
  if (required.length === 1 && !(required[0]! in value) && properties[required[0]!]) {
    const inner = recastTo(value, properties[required[0]!]!, schemas, spec, depth + 1);
    return inner === undefined ? undefined : { [required[0]!]: inner };
  }
  if (isObject(level.additionalProperties) && Object.keys(properties).length === 0) {
    const out: Record<string, Json> = {};
    for (const [key, entry] of Object.entries(value)) {
      const recast = recastTo(entry as Json, level.additionalProperties as JsonSchema, schemas, spec, depth + 1);
      if (recast === undefined) return undefined;
      out[key] = recast;
    }
    return spec.check(schema, out) ? out : undefined;
  }
  return undefined;
}
