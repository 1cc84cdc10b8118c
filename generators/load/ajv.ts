/** The one place JSON Schema validators are configured: draft-07 (OpenRPC's dialect), formats enforced. */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { linearRegExp } from '../../runtime/server/patterns.ts';
import { avalancheFormats } from '../formats.ts';
import type { CheckBranch } from './causes.ts';

/**
 * ajv and ajv-formats (CommonJS; ajv-formats' default export is typed as a namespace by NodeNext's ESM interop) are
 * required on the first createAjv: the mock imports this module but rarely compiles a schema, and loading ajv was a
 * large part of its start-up.
 */
const require = createRequire(import.meta.url);

/** Schema keywords that say which node releases have a part of a schema (see openrpc/README.md). */
const VERSION_KEYWORDS = ['x-node-versions', 'x-enum-versions'];

export function createAjv(options: Options = {}): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;
  // Patterns in linear time and own properties only, as the generated servers' ajv (runtime/server/ajv.ts).
  const ajv = new AjvClass({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    ownProperties: true,
    ...options,
    code: { regExp: linearRegExp, ...options.code },
  });
  addFormats(ajv);
  for (const [name, check] of Object.entries(avalancheFormats))
    ajv.addFormat(name, { type: 'string', validate: check });
  // Marks a secret (a password, an exported user): an annotation for tools, no constraint on the value.
  ajv.addKeyword({ keyword: 'x-sensitive', schemaType: 'boolean' });
  // Which releases have a field, alternative or enum value: annotations for the toolkit, not constraints.
  for (const keyword of VERSION_KEYWORDS) ajv.addKeyword({ keyword });
  // A historic field that carried a sibling's value (`stakeAmount` = `weight`): what the mock sends at old releases.
  ajv.addKeyword({ keyword: 'x-copy-of', schemaType: 'string' });
  return ajv;
}

const FALSE_BRANCH: ErrorObject = {
  instancePath: '',
  schemaPath: '',
  keyword: 'false schema',
  params: {},
  message: 'boolean schema is false',
};

/**
 * Checks a combinator's branch as written in the document `docId`: its document-local refs (`#/components/...`) are
 * rebased onto the document so that it compiles alone; each branch is compiled once.
 */
export function branchChecker(ajv: Ajv, docId: string): CheckBranch {
  const compiled = new WeakMap<object, ValidateFunction>();
  return (branch, value) => {
    if (branch === false) return [{ ...FALSE_BRANCH }];
    if (branch === null || typeof branch !== 'object') return [];
    let validate = compiled.get(branch);
    if (!validate) {
      validate = ajv.compile(rebase(branch, docId) as object);
      compiled.set(branch, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}

function rebase(schema: unknown, docId: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebase(item, docId));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${docId}${value}` : rebase(value, docId),
    ]),
  );
}
