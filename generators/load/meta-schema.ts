/** Validation against the OpenRPC meta-schema, as published in @open-rpc/meta-schema. */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, describeAjvError } from './ajv.ts';
import { resolvePointer } from '../common/problems.ts';

// Both packages ship their schema as a CommonJS value whose .d.ts declares only types.
const require = createRequire(import.meta.url);
const openrpcDocument = (require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> })
  .openrpcDocument;
const jsonSchemaMetaSchema = (require('@json-schema-tools/meta-schema') as { jsonSchema: Record<string, unknown> })
  .jsonSchema;
const META_ID = 'https://meta.open-rpc.org/';

/**
 * The OpenRPC meta-schema describes schemas by reference to the JSON Schema meta-schema at meta.json-schema.tools,
 * spelt with and without a trailing slash. Folding that one in under `definitions` makes the whole thing one
 * offline, self-contained draft-07 schema.
 */
function selfContainedMetaSchema(): Record<string, unknown> {
  const {
    $schema: _a,
    $id: _b,
    definitions: jsonDefinitions,
    ...jsonRoot
  } = jsonSchemaMetaSchema as unknown as Record<string, Record<string, unknown>>;
  const { $schema: _c, ...openrpc } = openrpcDocument as Record<string, Record<string, unknown>>;
  type Definition = Record<string, unknown> & { properties?: Record<string, unknown> };
  const definitions: Record<string, Definition> = { ...openrpc.definitions, ...jsonDefinitions, JSONSchema: jsonRoot };
  // The meta-schema admits no extension on an error object; the toolkit reads one there, `x-error-name` (the name
  // generated code gives the error), which the published documents leave out (generators/shared/published.ts).
  const errorObject = definitions.errorObject!;
  definitions.errorObject = {
    ...errorObject,
    properties: { ...errorObject.properties, 'x-error-name': { type: 'string' } },
  };
  const merged = { ...openrpc, definitions };
  const text = JSON.stringify(merged)
    .replaceAll('"$ref":"#"', '"$ref":"#/definitions/JSONSchema"')
    .replaceAll('"$ref":"https://meta.json-schema.tools/#/', '"$ref":"#/')
    .replaceAll('"$ref":"https://meta.json-schema.tools"', '"$ref":"#/definitions/JSONSchema"');
  return JSON.parse(text) as Record<string, unknown>;
}

let compiled: { document: ValidateFunction; method: ValidateFunction } | undefined;

function validators() {
  if (!compiled) {
    // Compiled on every run to check a few dozen documents: compiling fast counts more than validating fast, and the
    // meta-schema, a published one, need not be checked against draft-07 first.
    const ajv = createAjv({
      strict: false,
      allErrors: true,
      validateSchema: false,
      inlineRefs: false,
      code: { optimize: false },
    });
    // Server URLs may hold OpenRPC server variables (`{blockchainID}`); the URI they stand for is checked with the
    // variables as plain text, so `{baseUrl}/ext/...` (no scheme) still fails as it does in other OpenRPC tools.
    const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: { uri: (value: string) => boolean } };
    ajv.addFormat('uri', {
      type: 'string',
      validate: (value: string) => fullFormats.uri(value.replace(/\{([A-Za-z0-9_]+)\}/g, '$1')),
    });
    ajv.addSchema(selfContainedMetaSchema(), META_ID);
    compiled = {
      document: ajv.getSchema(META_ID)!,
      method: ajv.compile({ $ref: `${META_ID}#/definitions/methodObject` }),
    };
  }
  return compiled;
}

export interface MetaSchemaProblem {
  pointer: string;
  message: string;
}

/**
 * `oneOf` branches (method or reference, schema or reference) make ajv report every branch's failures; the deepest
 * errors are the ones that say what is wrong. A pointer gets one line: an unknown `type` says which one was meant,
 * and a combinator's own line (`must match a schema in anyOf`) is dropped when its branches said more.
 */
function deepest(errors: ErrorObject[] | null | undefined, document: unknown): MetaSchemaProblem[] {
  if (!errors?.length) return [];
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const max = Math.max(...errors.map(depth));
  const atMax = errors.filter((e) => depth(e) === max);
  const byPointer = new Map<string, ErrorObject[]>();
  for (const e of atMax) byPointer.set(e.instancePath, [...(byPointer.get(e.instancePath) ?? []), e]);
  const problems: MetaSchemaProblem[] = [];
  for (const [pointer, group] of byPointer) {
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
      const message = `OpenRPC meta-schema: ${describeAjvError(e)}`;
      if (!seen.has(message)) problems.push({ pointer, message });
      seen.add(message);
    }
  }
  return problems;
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

/** OpenRPC 1.4 only adds to 1.3, and the published meta-schema stops at 1.3.2: a 1.4 document is checked as 1.3.2. */
const asPublished = (document: unknown): unknown => {
  const version = (document as { openrpc?: unknown } | null)?.openrpc;
  return typeof version === 'string' && /^1\.4\.\d+$/.test(version)
    ? { ...(document as object), openrpc: '1.3.2' }
    : document;
};

export function checkDocument(written: unknown): MetaSchemaProblem[] {
  const document = asPublished(written);
  const validate = validators().document;
  return validate(document) ? [] : deepest(validate.errors, document);
}

export function checkMethod(method: unknown): MetaSchemaProblem[] {
  const validate = validators().method;
  return validate(method) ? [] : deepest(validate.errors, method);
}
