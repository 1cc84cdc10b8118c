/**
 * Params and result validators of every method, compiled at generation by the toolkit's one ajv (draft-07, the
 * avax-* formats) into standalone code, so the server package runs them without ajv. The code's few references to
 * ajv's runtime helpers and to the formats are pointed at the package's own runtime modules. Each endpoint's module
 * also holds its result writers (writers.ts).
 */
import { _ } from 'ajv';
import type * as ajvHelpers from '../../runtime/server/ajv.ts';
import { formatChecks } from '../../runtime/server/formats.ts';
import { createAjv } from '../load/ajv.ts';
import { componentName, mapSubschemas } from '../model/schema-walk.ts';
import { validatorNames } from '../model/names.ts';
import type { JsonSchema, SpecModel } from '../model/types.ts';
import { standaloneModule } from './standalone.ts';
import { WRITER_HELPERS, writersCode } from './writers.ts';

const ROOT = 'https://avalanche-openrpc.invalid/schemas.json';

/** ajv's runtime helpers the standalone code may require, and the runtime export standing in for each. */
const RUNTIME_HELPERS: Record<string, keyof typeof ajvHelpers> = {
  'ajv/dist/runtime/ucs2length': 'ucs2length',
  'ajv/dist/runtime/equal': 'equal',
};

/** One endpoint's validators module: JavaScript by nature, so the templates write its source, JavaScript and declarations. */
export interface ValidatorsModule {
  /** The runtime imports the code needs (formats, ajv's helpers), as import statements. */
  imports: string[];
  /** The exported validators: `p<i>` checks the params object of method i, `r<i>` its result. */
  names: string[];
  /** The exported result writers, `w<i>` for method i (see writers.ts). */
  writers: string[];
  /** ajv's standalone code, exporting each name as a plain `const`. */
  code: string;
  /** The same code with each export typed as the runtime's `ValidateFunction`. */
  typedCode: string;
}

function pointRefs(schema: JsonSchema, base: string): JsonSchema {
  const copy = mapSubschemas(schema, (child) => pointRefs(child, base));
  const component = componentName(copy.$ref);
  if (component) copy.$ref = `${base}#/definitions/${component}`;
  return copy;
}

/**
 * The validators module of every endpoint, by endpoint name. One ajv compiles them all, so a shared schema
 * (`Uint64`, `OutputOwners`...) is compiled once into a function of its own, which each module that needs it includes.
 */
export function validatorModules(model: SpecModel): Map<string, ValidatorsModule> {
  // ajv's standalone code refers to the formats by this free name; the module imports it under that name.
  // A foreign document's schemas may use other dialects' keywords and formats, which JSON Schema ignores.
  const strict = model.endpoints.every((endpoint) => endpoint.profile === 'avalanche');
  const ajv = createAjv({
    code: { source: true, esm: true, formats: _`formats` },
    inlineRefs: false,
    ...(strict ? {} : { strict: false, logger: false }),
  });
  // There, a format the server runtime does not implement (`uri`, `email`) is an annotation, as JSON Schema has it.
  if (!strict)
    for (const name of Object.keys(ajv.formats)) if (!Object.hasOwn(formatChecks, name)) ajv.addFormat(name, true);
  // ajv compiles a referenced schema once for each root schema that refers to it; with the methods' schemas inside the
  // root that holds the shared ones, each shared schema becomes one function, which every validator calls.
  const methods: Record<string, JsonSchema> = {};
  for (const method of model.endpoints.flatMap((endpoint) => endpoint.methods)) {
    const properties = Object.fromEntries(method.params.map((param) => [param.name, pointRefs(param.schema, ROOT)]));
    const required = method.params.filter((param) => param.required).map((param) => param.name);
    methods[`params:${method.name}`] = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    methods[`result:${method.name}`] = method.result ? pointRefs(method.result.schema, ROOT) : {};
  }
  const definitions = Object.fromEntries(
    Object.entries(model.schemas).map(([name, schema]) => [name, pointRefs(schema, ROOT)]),
  );
  ajv.addSchema({ $id: ROOT, definitions, $defs: methods });
  const modules = new Map<string, ValidatorsModule>();
  for (const endpoint of model.endpoints) {
    const exports: Record<string, string> = {};
    endpoint.methods.forEach((method) => {
      const names = validatorNames(method.name);
      exports[names.params] = `${ROOT}#/$defs/${encodeURIComponent(`params:${method.name}`)}`;
      exports[names.result] = `${ROOT}#/$defs/${encodeURIComponent(`result:${method.name}`)}`;
    });
    const writers = writersCode(endpoint.methods, model.schemas);
    const module = moduleOf(endpoint.name, standaloneModule(ajv, exports), Object.keys(exports));
    modules.set(endpoint.name, {
      ...module,
      imports: [...module.imports, `import { ${WRITER_HELPERS.join(', ')} } from '../runtime/encode.js';`],
      writers: writers.names,
      code: `${module.code}\n${writers.code}`,
      typedCode: `${module.typedCode}\n${writers.code}`,
    });
  }
  return modules;
}

/** Points the standalone code's requires at the runtime's modules, failing on anything the runtime does not provide. */
function moduleOf(endpointName: string, standalone: string, names: string[]): Omit<ValidatorsModule, 'writers'> {
  const helpers = new Set<string>();
  const code = standalone
    .replace(/^"use strict";/, '')
    // ajv appends a called validator's errors with concat, copying the list each time: quadratic in the invalid items
    // of an array. Errors are appended in place instead, and past the runtime's error budget (runtime/server/ajv.ts)
    // an error is the shared TOO_MANY, kept once at the end of a list. `errors` still counts every error, and ajv
    // decides validity by that count alone, so what is valid stays valid; errors a branch discards go back to the budget.
    // A recursive schema's validator calls itself through a wrapper (`wrapper0.validate`), hence the dotted name.
    .replace(
      /vErrors = vErrors === null \? ([\w.]+)\.errors : vErrors\.concat\(\1\.errors\);errors = vErrors\.length;/g,
      (_m, fn: string) =>
        `if (vErrors === null) vErrors = ${fn}.errors; else for (const e of ${fn}.errors) keep(vErrors, e);errors += ${fn}.errors.length;`,
    )
    .replace(/const (err\d+) = \{/g, 'const $1 = --budget.left < 0 ? TOO_MANY : {')
    .replace(/else \{vErrors\.push\((err\d+)\);\}/g, 'else keep(vErrors, $1);')
    .replace(
      /if\(vErrors !== null\)\{if\((_errs\d+)\)\{vErrors\.length = \1;\}/g,
      'if(vErrors !== null){if($1){budget.left += Math.max(0, vErrors.length - $1);if($1 < vErrors.length) vErrors.length = $1;}',
    )
    .replace(/else \{vErrors = null;\}/g, 'else {budget.left += vErrors.length;vErrors = null;}')
    .replace(/export const (validate\w+) = (\w+);/g, 'export const $1 = budgeted($2);')
    .replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
      const helper = RUNTIME_HELPERS[module];
      if (!helper)
        throw new Error(`the validators of ${endpointName} need ${module}, which the server runtime does not provide`);
      helpers.add(helper);
      return helper;
    })
    .trim();
  if (/vErrors\.concat\(|vErrors\.push\(err|\{vErrors\.length = _errs\d+;/.test(code))
    throw new Error(
      `the validators of ${endpointName} keep errors in a way the rewrite above does not know (this ajv's code changed): update it`,
    );
  if (/\brequire\(/.test(code))
    throw new Error(`the validators of ${endpointName} require a module the server runtime does not provide`);
  const formats = [...code.matchAll(/\bformats(?:\["([^"]+)"\]|\.([A-Za-z_$][\w$]*))/g)].map((m) => (m[1] ?? m[2])!);
  const missing = formats.filter((name) => !Object.hasOwn(formatChecks, name));
  if (missing.length > 0)
    throw new Error(`the spec uses format ${missing.join(', ')}, which runtime/server/formats.ts does not implement`);
  const imports = [
    ...(formats.length > 0 ? ["import { formats } from '../runtime/formats.js';"] : []),
    `import { ${['budget', 'budgeted', 'keep', 'TOO_MANY', ...[...helpers].sort()].join(', ')} } from '../runtime/ajv.js';`,
  ];
  const typedCode = code.replace(/export const (validate\w+) = /g, 'export const $1: ValidateFunction = ');
  return { imports, names, code, typedCode };
}
