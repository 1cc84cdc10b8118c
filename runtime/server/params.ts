/**
 * From the `params` a caller sent to the params object a handler sees. The node profile decodes the way Go's
 * encoding/json fills an args struct: keys matched case-insensitively (the last duplicate wins), unknown keys and
 * `null` values ignored, `[{...}]` taken as the object. The validators then check the spec's schemas; a failure is a
 * decode failure (wrong type, format, pattern: the node's decoder rejects it) or a constraint failure (missing,
 * too long, too many: the node's handler rejects it, with its own message).
 */
import { RawValue, setMember } from './json.ts';

/**
 * How to decode one value, computed from its schema at generation: `properties` holds each declared property by its
 * folded name; `values` decodes the values of a map; `items` the items of an array.
 */
export interface Shape {
  properties?: Record<string, PropertyShape>;
  values?: Shape;
  /** The kinds of JSON value a map's values may be (see PropertyShape.types). */
  valueTypes?: string;
  items?: Shape;
  /** The kinds of JSON value an array's items may be (see PropertyShape.types). */
  itemTypes?: string;
}

export interface PropertyShape {
  /** The property's name as declared. */
  name: string;
  /** How to decode its value; absent when the value is taken as sent. */
  shape?: Shape;
  /**
   * The kinds of JSON value its schema admits, among `array boolean number object string` (null is always taken, as
   * Go leaves the field as it was); absent when any may be. Go's decoder refuses a value of another kind after
   * skipping it, whichever writing of the key it is, so the reader skips it unbuilt and refuses the params.
   */
  types?: string;
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

/** foldKey without remembering: for keys a caller may send by the million, which would only churn the memory. */
export function foldUncached(key: string): string {
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

/**
 * The args struct Go's decoder fills from the params given, or undefined where it cannot (the node's invalid
 * argument). Params the Go-compatible reader kept as bytes are read by the shape, members it does not declare
 * skipped unbuilt.
 */
export function decodeParams(given: unknown, shape: Shape): Record<string, unknown> | undefined {
  if (given instanceof RawValue) return given.decode(shape);
  const args = nodeArgs(given);
  return args && (foldValue(args, shape) as Record<string, unknown>);
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
 * The declared property a key names, looked up in Maps: a freshly folded key looked up on the properties object is
 * interned by V8 first, and a caller's million unknown keys filled its string table (seconds of one request). As in
 * Go, the exact name is tried first, so the keys callers send are never folded; then the folded key, unless the key
 * is too long to fold to any declared name (folding keeps the count of code points: at most twice the UTF-16 units).
 */
interface Declared {
  exact: Map<string, PropertyShape>;
  folded: Map<string, PropertyShape>;
  longest: number;
}
const declaredMaps = new WeakMap<Record<string, PropertyShape>, Declared>();
export function declaredBy(shape: Shape, key: string): PropertyShape | undefined {
  const properties = shape.properties;
  if (properties === undefined) return undefined;
  let declared = declaredMaps.get(properties);
  if (declared === undefined) {
    const entries = Object.entries(properties);
    declared = {
      exact: new Map(entries.map(([, property]) => [property.name, property])),
      folded: new Map(entries),
      longest: Math.max(0, ...entries.map(([folded]) => folded.length)),
    };
    declaredMaps.set(properties, declared);
  }
  const exact = declared.exact.get(key);
  if (exact !== undefined || key.length > 2 * declared.longest) return exact;
  // Unremembered: a caller's unknown keys would only churn foldKey's memory of the keys callers use.
  return declared.folded.get(foldUncached(key));
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
