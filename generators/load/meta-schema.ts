/** Validation against the OpenRPC meta-schema, as published in @open-rpc/meta-schema. */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { errorMessage } from '../../runtime/server/params.ts';
import { branchChecker, createAjv } from './ajv.ts';
import { type CheckBranch, rootCauses } from './causes.ts';
import { resolvePointer } from '../common/problems.ts';
import { canonicalJson } from '../common/json.ts';

// The packages ship their schemas as CommonJS values or plain JSON whose .d.ts declares only types.
const require = createRequire(import.meta.url);
/** OpenRPC 1.3.x and earlier as @open-rpc/meta-schema publishes it; 1.4.x from the spec's own package. */
const OPENRPC_SCHEMAS = {
  '1.3': () => (require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> }).openrpcDocument,
  '1.4': () => require('@open-rpc/spec/1_4/schema.json') as Record<string, unknown>,
};
type SpecVersion = keyof typeof OPENRPC_SCHEMAS;
const jsonSchemaMetaSchema = (require('@json-schema-tools/meta-schema') as { jsonSchema: Record<string, unknown> })
  .jsonSchema;
const META_ID = 'https://meta.open-rpc.org/';

/**
 * The OpenRPC meta-schema describes schemas by reference to the JSON Schema meta-schema at meta.json-schema.tools,
 * spelt with and without a trailing slash. Folding that one in under `definitions` makes the whole thing one
 * offline, self-contained draft-07 schema: what a document's `$ref` to the meta-schema's URL reads (known-schemas.ts).
 */
export function openrpcMetaSchema(version: SpecVersion = '1.3'): Record<string, unknown> {
  const {
    $schema: _a,
    $id: _b,
    definitions: jsonDefinitions,
    ...jsonRoot
  } = jsonSchemaMetaSchema as unknown as Record<string, Record<string, unknown>>;
  const { $schema: _c, $id: _d, ...openrpc } = OPENRPC_SCHEMAS[version]() as Record<string, Record<string, unknown>>;
  const merged = { ...openrpc, definitions: { ...openrpc.definitions, ...jsonDefinitions, JSONSchema: jsonRoot } };
  const text = JSON.stringify(merged)
    .replaceAll('"$ref":"#"', '"$ref":"#/definitions/JSONSchema"')
    .replaceAll('"$ref":"https://meta.json-schema.tools/#/', '"$ref":"#/')
    .replaceAll('"$ref":"https://meta.json-schema.tools"', '"$ref":"#/definitions/JSONSchema"');
  return JSON.parse(text) as Record<string, unknown>;
}

/** The meta-schema the loader checks documents against: the published one with the toolkit's own readings. */
function selfContainedMetaSchema(version: SpecVersion): Record<string, unknown> {
  type Definition = Record<string, unknown> & { properties?: Record<string, unknown> };
  const openrpc = openrpcMetaSchema(version) as Record<string, Record<string, Definition>>;
  const definitions = openrpc.definitions!;
  // ajv checks `uniqueItems` of untyped items (an `enum`'s values) pair by pair, in time quadratic in the list: a
  // 100,000-value enum kept the loader busy for a minute. The same rule, `uniqueJsonItems`, checks each value's canonical
  // JSON against those before it, in linear time.
  const schemaObject = definitions.JSONSchemaObject as Definition & { properties: Record<string, Definition> };
  const { uniqueItems: _e, ...enumSchema } = schemaObject.properties.enum!;
  definitions.JSONSchemaObject = {
    ...schemaObject,
    properties: { ...schemaObject.properties, enum: { ...enumSchema, uniqueJsonItems: true } },
  };
  // The meta-schema admits no extension on an error object; the toolkit reads one there, `x-error-name` (the name
  // generated code gives the error), which the published documents leave out (generators/shared/published.ts).
  const errorObject = definitions.errorObject;
  if (errorObject)
    definitions.errorObject = {
      ...errorObject,
      properties: { ...errorObject.properties, 'x-error-name': { type: 'string' } },
    };
  // A method reference may say how this endpoint takes the params of the method it names (`paramStructure`) and
  // annotate it with the toolkit's extensions (`x-side-effects`), which the bundle copies onto the inlined method
  // (bundle.ts): a foreign document's method is used as its authors wrote it.
  const methods = (openrpc.properties as Record<string, Definition>).methods as Definition & {
    items: { oneOf: Array<{ $ref?: string }> };
  };
  const reference = definitions.referenceObject!;
  definitions.methodReference = {
    ...reference,
    properties: { ...reference.properties, paramStructure: definitions.methodObject?.properties?.paramStructure },
    patternProperties: { '^x-': {} },
  };
  const oneOf = methods.items.oneOf.map((branch) =>
    branch.$ref === '#/definitions/referenceObject' ? { $ref: '#/definitions/methodReference' } : branch,
  );
  const properties = { ...openrpc.properties, methods: { ...methods, items: { ...methods.items, oneOf } } };
  return { ...openrpc, properties, definitions };
}

interface Validators {
  document: ValidateFunction;
  method: ValidateFunction;
  branch: CheckBranch;
}
const compiled = new Map<string, Validators>();

/**
 * The validators of one OpenRPC version. `relativeUrls`: the OpenRPC text lets a server URL be relative to where the
 * document is served (and an external doc be a link beside it), which the published schemas' `format: uri` refuses;
 * the avalanche profile asks for absolute URLs, so its base URL is known.
 */
function validators(version: SpecVersion, relativeUrls: boolean): Validators {
  const key = `${version}:${relativeUrls}`;
  let found = compiled.get(key);
  if (!found) {
    // Compiled on every run to check a few dozen documents: compiling fast counts more than validating fast, and the
    // meta-schema, a published one, need not be checked against draft-07 first.
    const ajv = createAjv({
      strict: false,
      allErrors: true,
      verbose: true,
      validateSchema: false,
      inlineRefs: false,
      code: { optimize: false },
    });
    // Server URLs may hold OpenRPC server variables (`{blockchainID}`); the URI they stand for is checked with the
    // variables as plain text, so `{baseUrl}/ext/...` (no scheme) fails where absolute URLs are asked for.
    const { fullFormats } = require('ajv-formats/dist/formats') as {
      fullFormats: { uri: (value: string) => boolean; 'uri-reference': RegExp };
    };
    const check = relativeUrls ? (value: string) => fullFormats['uri-reference'].test(value) : fullFormats.uri;
    ajv.addFormat('uri', {
      type: 'string',
      validate: (value: string) => check(value.replace(/\{([A-Za-z0-9_]+)\}/g, '$1')),
    });
    ajv.addKeyword({
      keyword: 'uniqueJsonItems',
      type: 'array',
      schemaType: 'boolean',
      errors: true,
      validate: uniqueJsonItems,
    });
    ajv.addSchema(selfContainedMetaSchema(version), META_ID);
    found = {
      document: ajv.getSchema(META_ID)!,
      method: ajv.compile({ $ref: `${META_ID}#/definitions/methodObject` }),
      // A `oneOf` branch as written refers into the meta-schema (`#/definitions/methodObject`).
      branch: branchChecker(ajv, META_ID),
    };
    compiled.set(key, found);
  }
  return found;
}

export interface MetaSchemaProblem {
  pointer: string;
  message: string;
}

/**
 * Every problem, each by its root cause: a `oneOf` (method or reference, schema or reference) is reduced to the branch
 * the value came closest to (causes.ts), and a line that only sums up failures found deeper in the same value is
 * dropped. One line per pointer and message, in document order; an unknown `type` says which one was meant.
 */
function problemsOf(
  errors: ErrorObject[] | null | undefined,
  document: unknown,
  branch: CheckBranch,
): MetaSchemaProblem[] {
  if (!errors?.length) return [];
  const causes = rootCauses(errors, branch);
  const below = (e: ErrorObject) =>
    causes.some((other) => other !== e && other.instancePath.startsWith(`${e.instancePath}/`));
  const kept = causes.filter((e) => !below(e) || e.keyword === 'required' || e.keyword === 'additionalProperties');
  const byPointer = new Map<string, ErrorObject[]>();
  for (const e of kept) byPointer.set(e.instancePath, [...(byPointer.get(e.instancePath) ?? []), e]);
  const problems: MetaSchemaProblem[] = [];
  for (const [pointer, group] of [...byPointer].sort(([a], [b]) => comparePointers(a, b))) {
    const value = resolvePointer(document, pointer).value;
    const allowed = group.find((e) => e.keyword === 'enum')?.params.allowedValues as unknown[] | undefined;
    if (pointer.endsWith('/type') && typeof value === 'string' && allowed) {
      const meant = suggestion(value, allowed.map(String));
      problems.push({
        pointer,
        message: `unknown type ${JSON.stringify(value)}: ${
          meant ? `did you mean ${JSON.stringify(meant)}?` : `a type is one of ${allowed.join(', ')}`
        }`,
      });
      continue;
    }
    const specific = group.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
    const seen = new Set<string>();
    for (const e of specific.length > 0 ? specific : group) {
      const message = `OpenRPC meta-schema: ${errorMessage(e)}${regexCause(e)}`;
      if (!seen.has(message)) problems.push({ pointer, message });
      seen.add(message);
    }
  }
  return problems;
}

/** Why a `pattern` is no ECMA-262 regular expression (`[._-/]`: a range out of order), as JavaScript says it. */
function regexCause(error: ErrorObject): string {
  if (error.keyword !== 'format' || error.params.format !== 'regex' || typeof error.data !== 'string') return '';
  try {
    new RegExp(error.data, 'u');
    return '';
  } catch (cause) {
    return ` (${(cause as Error).message})`;
  }
}

/** Document order: array indexes compare as numbers (`/methods/2` before `/methods/10`). */
function comparePointers(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    const [m, n] = [Number(x[i]), Number(y[i])];
    if (Number.isInteger(m) && Number.isInteger(n)) return m - n;
    return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/** The allowed word within two edits of `word`, if any. */
function suggestion(word: string, allowed: string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const [best] = allowed
    .map((candidate) => ({ candidate, d: distance(word.toLowerCase(), candidate) }))
    .sort((a, b) => a.d - b.d);
  return best && best.d <= 2 ? best.candidate : undefined;
}

/** The meta-schema a document declares: 1.4.x has its own; anything else is checked as 1.3.2 and earlier are. */
const versionOf = (document: unknown): SpecVersion => {
  const version = (document as { openrpc?: unknown } | null)?.openrpc;
  return typeof version === 'string' && /^1\.4\./.test(version) ? '1.4' : '1.3';
};

export interface MetaSchemaOptions {
  /** Relative server and external-doc URLs, which the OpenRPC text allows (the avalanche profile does not). */
  relativeUrls?: boolean;
}

export function checkDocument(document: unknown, options: MetaSchemaOptions = {}): MetaSchemaProblem[] {
  const { document: validate, branch } = validators(versionOf(document), options.relativeUrls ?? true);
  return validate(document) ? [] : problemsOf(validate.errors, document, branch);
}

/** A method file, checked by the rules of the document that lists it. */
export function checkMethod(
  method: unknown,
  options: MetaSchemaOptions & { version?: string } = {},
): MetaSchemaProblem[] {
  const { method: validate, branch } = validators(
    versionOf({ openrpc: options.version }),
    options.relativeUrls ?? true,
  );
  return validate(method) ? [] : problemsOf(validate.errors, method, branch);
}

/** `uniqueItems: true`, checked in linear time; its error is ajv's own, so that messages read the same. */
function uniqueJsonItems(this: unknown, unique: boolean, items: unknown[]): boolean {
  const validate = uniqueJsonItems as typeof uniqueJsonItems & { errors?: Partial<ErrorObject>[] };
  validate.errors = [];
  if (!unique) return true;
  const seen = new Map<string, number>();
  for (const [j, item] of items.entries()) {
    const key = canonicalJson(item);
    const i = seen.get(key);
    if (i !== undefined) {
      validate.errors = [
        {
          keyword: 'uniqueItems',
          message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`,
          params: { i, j },
        },
      ];
      return false;
    }
    seen.set(key, j);
  }
  return true;
}
