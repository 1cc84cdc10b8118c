/** Which node releases serve a method, from its `x-node-versions`: one answer for the mock, conformance and docs. */
import { VERSION_KEYS, VERSION_PATTERN, compareVersions } from '../common/versions.ts';
import { componentName, mapSubschemas } from './schema-walk.ts';

export { VERSION_PATTERN, compareVersions };
import type { JsonSchema, MethodModel, NodeVersions, SpecModel } from './types.ts';

/** The newest release the spec describes: endpoints carry it as `info.version` (`v0.0.0` when none is a release). */
export function newestSpecVersion(model: SpecModel): string {
  const versions = model.endpoints.map((e) => `v${e.version}`).filter((v) => VERSION_PATTERN.test(v));
  return versions.sort(compareVersions).at(-1) ?? 'v0.0.0';
}

const RANGE_KEYS = new Set<string>(VERSION_KEYS);

/**
 * Every release the spec names (method, param, field and value ranges, changes), with the newest it describes
 * (`info.version`), oldest first; empty when it names none. A release named only in a range (`v1.15.0-fuji`, ahead of
 * `info.version`) is described too: docs list it, diff compares it.
 */
export function namedReleases(model: SpecModel): string[] {
  const named = new Set(model.endpoints.flatMap((endpoint) => endpoint.releases));
  // The newest release the spec describes (its `info.version`) begins the last range.
  const newest = newestSpecVersion(model);
  if (named.size > 0 && newest !== 'v0.0.0') named.add(newest);
  return [...named].sort(compareVersions);
}

/**
 * The oldest release the spec describes, or undefined when it names none: the start of the line of the oldest it names
 * (a method served before that carries no `since`: our spec names v1.9.8 first and describes v1.9.0 on).
 */
export function oldestDescribedRelease(model: SpecModel): string | undefined {
  return namedReleases(model)[0]?.replace(/\.\d+$/, '.0');
}

/** The releases one endpoint document names in a range or a change (`EndpointModel.releases`), oldest first. */
export function releasesNamedIn(document: JsonSchema): string[] {
  const named = new Set<string>();
  // Only the range keys and the changes' versions: examples carry tags of other things (a database's `v1.4.5`).
  const visit = (value: unknown, inChanges: boolean): void => {
    if (Array.isArray(value)) for (const item of value) visit(item, inChanges);
    else if (value !== null && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        if (
          typeof child === 'string' &&
          VERSION_PATTERN.test(child) &&
          (RANGE_KEYS.has(key) || (inChanges && key === 'version'))
        )
          named.add(child);
        else if (key !== 'examples') visit(child, inChanges || key === 'x-changes');
      }
  };
  visit(document, false);
  return [...named].sort(compareVersions);
}

/** Undefined when release `version` (e.g. `v1.12.1`) serves the method, else why it does not. */
export function notServedReason(method: MethodModel, version: string): string | undefined {
  const { since, lastVersion, removedIn } = method.versions;
  if (since && compareVersions(version, since) < 0) return `not served by ${version} (served since ${since})`;
  if (removedIn && compareVersions(version, removedIn) >= 0)
    return `not served by ${version} (removed in ${removedIn})`;
  if (lastVersion && compareVersions(version, lastVersion) > 0)
    return `not served by ${version} (last served by ${lastVersion})`;
  return undefined;
}

/** Whether `version` serves the method; without a version, every method is served. */
export function servedBy(method: MethodModel, version: string | undefined): boolean {
  return version === undefined || notServedReason(method, version) === undefined;
}

/**
 * The method's life in node releases, as one sentence for every medium (client comments, server comments, docs):
 * "Served since AvalancheGo v1.2.0; deprecated since v1.7.0; last served by v1.9.0; removed in v1.9.1." With
 * `deprecation: false` the deprecation is left to a `@deprecated` tag. Empty when the spec records nothing.
 */
export function lifecycle(method: MethodModel, { deprecation = false } = {}): string {
  const { since, deprecatedSince, lastVersion, removedIn } = method.versions;
  const parts = [
    since ? `served since AvalancheGo ${since}` : '',
    deprecation && method.deprecated ? (deprecatedSince ? `deprecated since ${deprecatedSince}` : 'deprecated') : '',
    lastVersion ? `last served by ${lastVersion}` : '',
    removedIn ? `removed in ${removedIn}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const sentence = parts.join('; ');
  return `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
}

/** The releases that have a method, param, field, schema alternative or enum value (`x-node-versions`). */
export function inRange(range: NodeVersions | undefined, version: string): boolean {
  if (!range) return true;
  const { since, lastVersion, removedIn } = range;
  if (since && compareVersions(version, since) < 0) return false;
  if (removedIn && compareVersions(version, removedIn) >= 0) return false;
  return !(lastVersion && compareVersions(version, lastVersion) > 0);
}

/** The range of a schema, param or history entry, when it carries one. */
export function rangeOf(node: unknown): NodeVersions | undefined {
  const value =
    node !== null && typeof node === 'object' ? (node as Record<string, unknown>)['x-node-versions'] : undefined;
  return value !== null && typeof value === 'object' ? (value as NodeVersions) : undefined;
}

/** A range in words, e.g. "since v1.10.1", "up to v1.12.1; deprecated since v1.9.8" (empty for no range). */
export function describeRange(range: NodeVersions | undefined): string {
  if (!range) return '';
  return [
    range.since ? `since ${range.since}` : '',
    range.deprecatedSince ? `deprecated since ${range.deprecatedSince}` : '',
    range.lastVersion ? `up to ${range.lastVersion}` : '',
    range.removedIn ? `removed in ${range.removedIn}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

const ENUM_VERSIONS = 'x-enum-versions';

/**
 * `schema` as release `version` has it: properties, `anyOf`/`oneOf` alternatives and enum values outside their ranges
 * dropped (a dropped property leaves `required` too), through `$ref`s to shared schemas that carry ranges (those are
 * inlined as pruned copies; others stay references). Unchanged schemas are returned as they are.
 */
export function schemaAt(schema: JsonSchema, version: string, schemas: Record<string, JsonSchema>): JsonSchema {
  return prune(schema, version, schemas, new Map());
}

function prune(
  schema: JsonSchema,
  version: string,
  schemas: Record<string, JsonSchema>,
  seen: Map<string, JsonSchema | null>,
): JsonSchema {
  const ref = componentName(schema.$ref);
  if (ref && schemas[ref]) {
    if (!seen.has(ref)) {
      seen.set(ref, null);
      const pruned = prune(schemas[ref], version, schemas, seen);
      seen.set(ref, pruned === schemas[ref] ? null : pruned);
    }
    const pruned = seen.get(ref);
    if (pruned) {
      const { $ref: _, ...siblings } = schema;
      return { ...pruned, ...siblings };
    }
  }
  let changed = false;
  const copy = mapSubschemas(schema, (child) => {
    const out = prune(child, version, schemas, seen);
    if (out !== child) changed = true;
    return out;
  });
  const own = levelAt(copy, version);
  return own !== copy ? own : changed ? copy : schema;
}

/**
 * One level of `schema` as release `version` has it: its properties (and `required`), `anyOf`/`oneOf` alternatives
 * and enum values outside their ranges dropped; nested schemas and `$ref`s are left as they are.
 */
export function levelAt(schema: JsonSchema, version: string): JsonSchema {
  let copy = schema;
  const edit = () => (copy === schema ? (copy = { ...schema }) : copy);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    const dropped = Object.keys(properties).filter((name) => !inRange(rangeOf(properties[name]), version));
    if (dropped.length > 0) {
      edit().properties = Object.fromEntries(Object.entries(properties).filter(([name]) => !dropped.includes(name)));
      if (Array.isArray(schema.required))
        copy.required = schema.required.filter((name) => !dropped.includes(name as string));
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key] as JsonSchema[] | undefined;
    if (Array.isArray(list) && list.some((alt) => !inRange(rangeOf(alt), version))) {
      const kept = list.filter((alt) => inRange(rangeOf(alt), version));
      delete edit()[key];
      // One alternative left is the schema itself (its own keywords win over the alternative's).
      if (kept.length === 1) copy = { ...kept[0], ...copy };
      else copy[key] = kept;
    }
  }
  const enumVersions = schema[ENUM_VERSIONS] as Record<string, NodeVersions> | undefined;
  if (Array.isArray(schema.enum) && enumVersions) {
    const kept = schema.enum.filter((value) => inRange(enumVersions[String(value)], version));
    if (kept.length !== schema.enum.length) edit().enum = kept;
  }
  return copy;
}

/**
 * The result schema of release `version`: a shape from `x-result-history` when one covers it, pruned to the release.
 */
export function resultSchemaAt(
  method: MethodModel,
  version: string,
  schemas: Record<string, JsonSchema>,
): JsonSchema | undefined {
  if (!method.result) return undefined;
  const earlier = method.resultHistory.find((entry) => inRange(entry.versions, version));
  return schemaAt(earlier?.schema ?? method.result.schema, version, schemas);
}
