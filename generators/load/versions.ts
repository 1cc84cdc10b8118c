/**
 * The release rules below the method: `x-node-versions` on params, properties and `anyOf`/`oneOf` alternatives,
 * `x-enum-versions` on enums, `x-result-history` (earlier result shapes) and `x-changes` (each change points at what
 * carries its release). Ranges must be well formed, ordered, and inside the method's own.
 */
import { canonicalJson } from '../common/json.ts';
import { VERSION_KEYS, VERSION_PATTERN as VERSION, compareVersions } from '../common/versions.ts';
import { escapePointerToken, localPointer, parsePointer, resolvePointer } from '../common/problems.ts';
import { isObject } from '../common/json.ts';

type Json = Record<string, unknown>;
type Report = (pointer: string, message: string) => void;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'items'];
const SCHEMA_SINGLE = ['items', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not', 'contains'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];

/** Keywords that describe a value without constraining it: two schemas differing only in these accept the same. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'deprecated',
  'examples',
  'default',
  '$comment',
  'x-copy-of',
  'x-node-versions',
]);

/** A schema without its annotations, at every depth (property names and enum or const values kept as written). */
function shapeOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shapeOf);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === 'enum' || key === 'const') out[key] = value;
    else if (SCHEMA_MAPS.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, shapeOf(child)]));
    else out[key] = shapeOf(value);
  }
  return out;
}

/**
 * Well-formed and ordered (each pair of well-formed tags compared); returns the range when every tag is well formed,
 * so usable for comparisons.
 */
export function checkRange(value: unknown, pointer: string, report: Report): Record<string, string> | undefined {
  if (!isObject(value)) return void report(pointer, 'x-node-versions must be an object');
  let ok = true;
  for (const [key, tag] of Object.entries(value)) {
    if (!(VERSION_KEYS as readonly string[]).includes(key))
      report(`${pointer}/${escapePointerToken(key)}`, `unknown key; expected one of ${VERSION_KEYS.join(', ')}`);
    else if (typeof tag !== 'string' || !VERSION.test(tag)) {
      report(`${pointer}/${key}`, 'must be a release tag such as "v1.12.2"');
      ok = false;
    }
  }
  const { since, lastVersion, removedIn, deprecatedSince } = value as Record<string, string | undefined>;
  const cmp = (a: string | undefined, b: string | undefined) =>
    a && b && VERSION.test(a) && VERSION.test(b) ? compareVersions(a, b) : undefined;
  if ((cmp(since, lastVersion) ?? 0) > 0) report(pointer, 'since must not be after lastVersion');
  if ((cmp(lastVersion, removedIn) ?? -1) >= 0) report(pointer, 'lastVersion must be before removedIn');
  if ((cmp(since, removedIn) ?? -1) >= 0) report(pointer, 'since must be before removedIn');
  if ((cmp(since, deprecatedSince) ?? 0) > 0) report(pointer, 'deprecatedSince must not be before since');
  return ok ? (value as Record<string, string>) : undefined;
}

/** A part's range must lie inside its method's: not starting before the method exists, not ending after it ends. */
function checkInside(range: Record<string, string>, method: Record<string, string>, pointer: string, report: Report) {
  if (range.since && method.since && compareVersions(range.since, method.since) < 0)
    report(pointer, `since ${range.since} is before the method's own since ${method.since}`);
  const end = (r: Record<string, string>) => r.removedIn ?? r.lastVersion;
  const partEnd = end(range);
  const methodEnd = end(method);
  if (partEnd && methodEnd && compareVersions(partEnd, methodEnd) > 0)
    report(pointer, `the range ends after the method's own (${methodEnd})`);
  if (range.since && methodEnd && compareVersions(range.since, methodEnd) >= 0)
    report(pointer, `since ${range.since} is after the method's last release`);
}

/** Each schema reachable from `schema` (following local `$ref`s once each), with its pointer in the bundle. */
function walkSchemas(
  document: Json,
  schema: unknown,
  pointer: string,
  visit: (node: Json, pointer: string) => void,
  seen = new Set<string>(),
): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  const target = typeof schema.$ref === 'string' ? localPointer(schema.$ref) : undefined;
  if (target !== undefined && !seen.has(target)) {
    seen.add(target);
    walkSchemas(document, resolvePointer(document, target).value, target, visit, seen);
  }
  for (const key of SCHEMA_SINGLE) walkSchemas(document, schema[key], `${pointer}/${key}`, visit, seen);
  for (const key of SCHEMA_LISTS)
    if (Array.isArray(schema[key]))
      (schema[key] as unknown[]).forEach((s, i) => walkSchemas(document, s, `${pointer}/${key}/${i}`, visit, seen));
  for (const key of SCHEMA_MAPS)
    if (isObject(schema[key]))
      for (const [name, s] of Object.entries(schema[key]))
        walkSchemas(document, s, `${pointer}/${key}/${escapePointerToken(name)}`, visit, seen);
}

/** Resolves a pointer relative to the method, following local `$ref`s on the way (into shared schemas). */
export function resolveInMethod(document: Json, method: unknown, pointer: string): unknown {
  let node: unknown = method;
  for (const token of parsePointer(pointer)) {
    while (isObject(node) && typeof node.$ref === 'string' && localPointer(node.$ref) !== undefined)
      node = resolvePointer(document, localPointer(node.$ref)!).value;
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

export function checkPartVersions(
  document: Json,
  method: Json,
  params: Array<{ param: Json; pointer: string }>,
  resultPointer: string | undefined,
  at: (...tokens: Array<string | number>) => string,
  report: Report,
): void {
  const own = (isObject(method['x-node-versions']) ? method['x-node-versions'] : {}) as Record<string, string>;
  // A shared schema's ranges are the releases that have it anywhere, so only the method's own parts must fit inside it.
  const part = (value: unknown, pointer: string) => {
    const range = checkRange(value, pointer, report);
    if (range && !pointer.startsWith('/components/')) checkInside(range, own, pointer, report);
  };
  const inSchema = (node: Json, pointer: string) => {
    if (node['x-node-versions'] !== undefined) part(node['x-node-versions'], `${pointer}/x-node-versions`);
    if (isObject(node.properties))
      for (const [name, property] of Object.entries(node.properties)) {
        if (!isObject(property) || property['x-copy-of'] === undefined) continue;
        const source = property['x-copy-of'];
        const at = `${pointer}/properties/${name}/x-copy-of`;
        if (typeof source !== 'string' || !(source in node.properties) || source === name)
          report(at, 'x-copy-of must name another property of the same object');
        else if (!isObject(property['x-node-versions']))
          report(
            at,
            'x-copy-of belongs on a field with a release range (a historic field the mock fills from its source)',
          );
        // The mock sends the source's value as the copy: a copy of another schema would answer what it documents not.
        else if (canonicalJson(shapeOf(property)) !== canonicalJson(shapeOf(node.properties[source])))
          report(at, `the copy's schema is not the schema of ${source}, whose value it repeats`);
      }
    const enumVersions = node['x-enum-versions'];
    if (enumVersions === undefined) return;
    if (!isObject(enumVersions) || !Array.isArray(node.enum))
      return report(`${pointer}/x-enum-versions`, 'x-enum-versions must be an object beside an enum');
    for (const [value, range] of Object.entries(enumVersions)) {
      if (!node.enum.includes(value))
        report(`${pointer}/x-enum-versions/${value}`, `"${value}" is not a value of the enum`);
      part(range, `${pointer}/x-enum-versions/${value}`);
    }
  };
  for (const { param, pointer } of params) {
    if (param['x-node-versions'] !== undefined) part(param['x-node-versions'], `${pointer}/x-node-versions`);
    walkSchemas(document, param.schema, `${pointer}/schema`, inSchema);
  }
  if (resultPointer)
    walkSchemas(
      document,
      resolvePointer(document, `${resultPointer}/schema`).value,
      `${resultPointer}/schema`,
      inSchema,
    );

  const history = method['x-result-history'];
  if (history !== undefined) {
    if (!Array.isArray(history)) return report(at('x-result-history'), 'x-result-history must be a list');
    const ranges: Array<Record<string, string>> = [];
    history.forEach((entry, h) => {
      const pointer = at('x-result-history', h);
      if (!isObject(entry) || !isObject(entry.schema))
        return report(pointer, 'each entry needs x-node-versions and a schema');
      const range = checkRange(entry['x-node-versions'], `${pointer}/x-node-versions`, report);
      if (!range) return;
      if (!range.since && !range.removedIn && !range.lastVersion)
        report(
          `${pointer}/x-node-versions`,
          'an earlier result shape needs an end (removedIn or lastVersion) or a since',
        );
      checkInside(range, own, `${pointer}/x-node-versions`, report);
      for (const other of ranges)
        if (overlap(range, other)) report(`${pointer}/x-node-versions`, 'overlaps another entry of x-result-history');
      ranges.push(range);
      walkSchemas(document, entry.schema, `${pointer}/schema`, inSchema);
    });
  }

  const changes = method['x-changes'];
  if (changes === undefined) return;
  if (!Array.isArray(changes)) return report(at('x-changes'), 'x-changes must be a list');
  let previous: string | undefined;
  changes.forEach((change, c) => {
    const pointer = at('x-changes', c);
    if (
      !isObject(change) ||
      typeof change.version !== 'string' ||
      !VERSION.test(change.version) ||
      typeof change.description !== 'string'
    ) {
      return report(pointer, 'a change needs a release tag `version` and a `description`');
    }
    if (previous && compareVersions(previous, change.version) > 0)
      report(`${pointer}/version`, 'x-changes must be in release order');
    previous = change.version;
    const pointers = change.pointers;
    if (!Array.isArray(pointers) || pointers.length === 0)
      return report(
        `${pointer}/pointers`,
        'a change must point (JSON pointers into the method) ' +
          'at the params, fields, enum values or result shapes it changed',
      );
    pointers.forEach((target, t) => {
      const node = typeof target === 'string' ? resolveInMethod(document, method, target) : undefined;
      const range = isObject(node) ? (isObject(node['x-node-versions']) ? node['x-node-versions'] : node) : undefined;
      if (!range)
        return report(
          `${pointer}/pointers/${t}`,
          `${String(target)} does not resolve to anything in ${String(method.name)}`,
        );
      if (
        !Object.entries(range).some(
          ([key, tag]) => (VERSION_KEYS as readonly string[]).includes(key) && tag === change.version,
        )
      ) {
        report(`${pointer}/pointers/${t}`, `${String(target)} carries no range with ${change.version}`);
      }
    });
  });
}

function overlap(a: Record<string, string>, b: Record<string, string>): boolean {
  const start = (r: Record<string, string>) => r.since ?? 'v0.0.0';
  const endExclusive = (r: Record<string, string>) => r.removedIn ?? (r.lastVersion ? `${r.lastVersion}+` : undefined);
  const before = (end: string | undefined, s: string) =>
    end !== undefined && (end.endsWith('+') ? compareVersions(end.slice(0, -1), s) < 0 : compareVersions(end, s) <= 0);
  return !before(endExclusive(a), start(b)) && !before(endExclusive(b), start(a));
}

/**
 * `x-zero-when-absent` on a required param: the value Go's decoder leaves when the key is missing, so the node answers
 * an omission as it answers that value. Only a required param carries it (an optional one is expected to be left out),
 * and the value must be one a client could send (it validates against the param's schema).
 */
export function checkZeroWhenAbsent(
  params: Array<{ param: Json; pointer: string }>,
  validate: (schemaPointer: string, value: unknown, valuePointer: string) => void,
  report: Report,
): void {
  for (const { param, pointer } of params) {
    if (!('x-zero-when-absent' in param)) continue;
    if (param.required !== true)
      report(`${pointer}/x-zero-when-absent`, 'only a required param says what the node decodes its absence to');
    validate(`${pointer}/schema`, param['x-zero-when-absent'], `${pointer}/x-zero-when-absent`);
  }
}
