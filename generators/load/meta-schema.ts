/** Validation against the OpenRPC meta-schema, as published in @open-rpc/meta-schema. */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, describeAjvError } from './ajv.ts';

// Both packages ship their schema as a CommonJS value whose .d.ts declares only types.
const require = createRequire(import.meta.url);
const openrpcDocument = (require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> }).openrpcDocument;
const jsonSchemaMetaSchema = (require('@json-schema-tools/meta-schema') as { jsonSchema: Record<string, unknown> }).jsonSchema;
const META_ID = 'https://meta.open-rpc.org/';

/**
 * The OpenRPC meta-schema describes schemas by reference to the JSON Schema meta-schema at meta.json-schema.tools,
 * spelt with and without a trailing slash. Folding that one in under `definitions` makes the whole thing one
 * offline, self-contained draft-07 schema.
 */
function selfContainedMetaSchema(): Record<string, unknown> {
  const { $schema: _a, $id: _b, definitions: jsonDefinitions, ...jsonRoot } = jsonSchemaMetaSchema as unknown as Record<string, Record<string, unknown>>;
  const { $schema: _c, ...openrpc } = openrpcDocument as Record<string, Record<string, unknown>>;
  const merged = { ...openrpc, definitions: { ...openrpc.definitions, ...jsonDefinitions, JSONSchema: jsonRoot } };
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
    const ajv = createAjv({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false, code: { optimize: false } });
    // Server URLs may hold OpenRPC server variables (`{blockchainID}`); the URI they stand for is checked with the
    // variables as plain text, so `{baseUrl}/ext/...` (no scheme) still fails as it does in other OpenRPC tools.
    const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: { uri: (value: string) => boolean } };
    ajv.addFormat('uri', { type: 'string', validate: (value: string) => fullFormats.uri(value.replace(/\{([A-Za-z0-9_]+)\}/g, '$1')) });
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
 * errors are the ones that say what is wrong.
 */
function deepest(errors: ErrorObject[] | null | undefined): MetaSchemaProblem[] {
  if (!errors?.length) return [];
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const max = Math.max(...errors.map(depth));
  const seen = new Set<string>();
  return errors
    .filter((e) => depth(e) === max)
    .map((e) => ({ pointer: e.instancePath, message: `OpenRPC meta-schema: ${describeAjvError(e)}` }))
    .filter((p) => !seen.has(p.pointer + p.message) && seen.add(p.pointer + p.message));
}

/** OpenRPC 1.4 only adds to 1.3, and the published meta-schema stops at 1.3.2: a 1.4 document is checked as 1.3.2. */
const asPublished = (document: unknown): unknown => {
  const version = (document as { openrpc?: unknown } | null)?.openrpc;
  return typeof version === 'string' && /^1\.4\.\d+$/.test(version) ? { ...(document as object), openrpc: '1.3.2' } : document;
};

export function checkDocument(written: unknown): MetaSchemaProblem[] {
  const document = asPublished(written);
  const validate = validators().document;
  return validate(document) ? [] : deepest(validate.errors);
}

export function checkMethod(method: unknown): MetaSchemaProblem[] {
  const validate = validators().method;
  return validate(method) ? [] : deepest(validate.errors);
}
