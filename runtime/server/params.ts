/**
 * From the `params` a caller sent to the params object a handler sees. The node profile decodes the way Go's
 * encoding/json fills an args struct: keys matched case-insensitively (the last duplicate wins), unknown keys and
 * `null` values ignored, `[{...}]` taken as the object. The validators then check the spec's schemas; a failure is a
 * decode failure (wrong type, format, pattern: the node's decoder rejects it) or a constraint failure (missing,
 * too long, too many: the node's handler rejects it, with its own message).
 */
import { setMember } from './json.ts';

/**
 * How to decode one value, computed from its schema at generation: `properties` holds each declared property by its
 * folded name; `values` decodes the values of a map; `items` the items of an array.
 */
export interface Shape {
  properties?: Record<string, PropertyShape>;
  values?: Shape;
  items?: Shape;
}

export interface PropertyShape {
  /** The property's name as declared. */
  name: string;
  /** How to decode its value; absent when the value is taken as sent. */
  shape?: Shape;
  /** Present when null is a value of the property (Go then keeps it, rather than leaving the field unset). */
  nullable?: true;
}

export interface Violation {
  /** JSON pointer into the params object, e.g. `/addresses/0`. */
  path: string;
  message: string;
  keyword: string;
}

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string; keyword: string; params?: Record<string, unknown> }> | null;
}

const CONSTRAINT_KEYWORDS = new Set([
  'required',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);
const BRANCH_KEYWORDS = new Set(['anyOf', 'oneOf', 'if', 'allOf']);
const ASCII = /^[\x00-\x7f]*$/;

const folded = new Map<string, string>();

/**
 * Go's foldName: the key upper-cased after lower-casing, rune by rune. Recent keys are remembered (boundedly).
 * Dotless i folds to I only in Turkic folding (CaseFolding.txt status T), which Go's unicode.SimpleFold leaves out.
 */
export function foldKey(key: string): string {
  let fold = folded.get(key);
  if (fold === undefined) {
    fold = foldUncached(key);
    if (key.length <= 64) {
      if (folded.size >= 4096) folded.clear();
      folded.set(key, fold);
    }
  }
  return fold;
}

function foldUncached(key: string): string {
  if (ASCII.test(key)) return key.toUpperCase();
  let out = '';
  for (const ch of key) {
    if (ch === '\u0131') {
      out += ch;
      continue;
    }
    const folded = ch.toLowerCase().toUpperCase();
    out += [...folded].length === 1 ? folded : ch;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go's two attempts at the args struct: the params object itself, else the first element of a params array. */
export function nodeArgs(params: unknown): Record<string, unknown> | undefined {
  if (params === undefined || params === null) return {};
  if (isObject(params)) return params;
  if (Array.isArray(params)) {
    const first = params[0];
    if (first === undefined || first === null) return {};
    if (isObject(first)) return first;
  }
  return undefined;
}

/** Decodes `value` into the shape of its schema, as Go decodes JSON into a struct. */
export function foldValue(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined) return value;
  if ((shape.properties || shape.values) && isObject(value)) return foldObject(value, shape);
  if (shape.items && Array.isArray(value)) {
    // Copied only from the first item that decodes to something else, as in foldObject.
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = foldValue(value[i], shape.items);
      if (out === undefined && item !== value[i]) out = value.slice(0, i);
      out?.push(item);
    }
    return out ?? value;
  }
  return value;
}

/**
 * The object returned as is when it already is its decoding (keys spelled as declared, no dropped nulls), which is
 * what well-behaved callers send; otherwise a copy.
 */
function foldObject(value: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  for (const key in value) if (!keptAsIs(key, value[key], shape)) return copyObject(value, shape);
  return value;
}

/**
 * The declared property a key names, looked up in a Map: a freshly folded key looked up on the properties object is
 * interned by V8 first, and a caller's million unknown keys filled its string table (seconds of one request).
 */
const propertyMaps = new WeakMap<Record<string, PropertyShape>, Map<string, PropertyShape>>();
function declaredBy(shape: Shape, key: string): PropertyShape | undefined {
  const properties = shape.properties;
  if (properties === undefined) return undefined;
  let map = propertyMaps.get(properties);
  if (map === undefined) {
    map = new Map(Object.entries(properties));
    propertyMaps.set(properties, map);
  }
  return map.get(foldKey(key));
}

function keptAsIs(key: string, child: unknown, shape: Shape): boolean {
  const declared = declaredBy(shape, key);
  if (declared)
    return (
      declared.name === key &&
      (child !== null || declared.nullable === true) &&
      foldValue(child, declared.shape) === child
    );
  return shape.values !== undefined && foldValue(child, shape.values) === child;
}

function copyObject(value: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const child = value[key];
    const declared = declaredBy(shape, key);
    if (declared) {
      if (child !== null || declared.nullable) setMember(out, declared.name, foldValue(child, declared.shape));
    } else if (shape.values) setMember(out, key, foldValue(child, shape.values));
  }
  return out;
}

export function violationsOf(validate: ValidateFunction): Violation[] {
  return (validate.errors ?? []).map((error) => ({
    path: error.instancePath,
    message: describe(error),
    keyword: error.keyword,
  }));
}

function describe(error: NonNullable<ValidateFunction['errors']>[number]): string {
  if (error.keyword === 'required') return `missing required param "${String(error.params?.missingProperty)}"`;
  return `${error.instancePath || 'params'} ${errorMessage(error)}`;
}

/**
 * One validation error in words, e.g. `must match pattern "^[0-9]+$"`, naming the key not allowed or the values that
 * are: the server's violations, the spec loader's and conformance's reports all say it this way.
 */
export function errorMessage(error: { keyword: string; message?: string; params?: Record<string, unknown> }): string {
  const params = error.params ?? {};
  const detail =
    error.keyword === 'additionalProperties'
      ? ` ("${String(params.additionalProperty)}")`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify(params.allowedValues)})`
        : '';
  return `${error.message ?? error.keyword}${detail}`;
}

/** Go's decoder leaves a missing key at its zero value: the handler runs and answers. */
export function onlyMissing(violations: Violation[]): boolean {
  return violations.every((violation) => violation.keyword === 'required');
}

/**
 * The params read with every integer beyond 2^53 as its digits (`exact`) where the schema takes them so, as it takes
 * the quoted form avajson.Uint64 reads alike; else `params`, whose nearest double is all a field typed as a plain
 * number can hold.
 */
export function preferExact<T>(validate: ValidateFunction, params: T, exact: T | undefined): T {
  if (exact === undefined) return params;
  return validate(exact) || onlyMissing(violationsOf(validate)) ? exact : params;
}

/**
 * A decode failure when any leaf failure is about the value's kind or form; only sizes and presence are constraints.
 */
export function isDecodeFailure(violations: Violation[]): boolean {
  // `errorLimit` only says the list was cut short (runtime/server/ajv.ts): the faults listed decide.
  return violations.some(
    (v) => !CONSTRAINT_KEYWORDS.has(v.keyword) && !BRANCH_KEYWORDS.has(v.keyword) && v.keyword !== 'errorLimit',
  );
}
