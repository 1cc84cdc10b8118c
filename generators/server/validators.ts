/**
 * Params and result validators of every method, compiled at generation by the toolkit's one ajv (draft-07, the
 * avax-* formats) into standalone code, so the server package runs them without ajv. The code's few references to
 * ajv's runtime helpers and to the formats are pointed at the package's own runtime modules. Each endpoint's module
 * also holds its result writers (writers.ts).
 */
import { type Ajv, _ } from 'ajv';
import { createRequire } from 'node:module';
import type * as ajvHelpers from '../../runtime/server/ajv.ts';
import { formatChecks } from '../../runtime/server/formats.ts';
import { createAjv } from '../load/ajv.ts';
import { componentName, mapSubschemas } from '../model/schema-walk.ts';
import type { JsonSchema, SpecModel } from '../model/types.ts';
import { WRITER_HELPERS, writersCode } from './writers.ts';

// ajv's standalone module is CommonJS with a default export, which NodeNext's ESM interop types as a namespace.
const standaloneCode = (createRequire(import.meta.url)('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string }).default;

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
  const ajv = createAjv({ code: { source: true, esm: true, formats: _`formats` }, inlineRefs: false });
  // ajv compiles a referenced schema once for each root schema that refers to it; with the methods' schemas inside the
  // root that holds the shared ones, each shared schema becomes one function, which every validator calls.
  const methods: Record<string, JsonSchema> = {};
  for (const method of model.endpoints.flatMap((endpoint) => endpoint.methods)) {
    const properties = Object.fromEntries(method.params.map((param) => [param.name, pointRefs(param.schema, ROOT)]));
    const required = method.params.filter((param) => param.required).map((param) => param.name);
    methods[`params:${method.name}`] = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    methods[`result:${method.name}`] = method.result ? pointRefs(method.result.schema, ROOT) : {};
  }
  const definitions = Object.fromEntries(Object.entries(model.schemas).map(([name, schema]) => [name, pointRefs(schema, ROOT)]));
  ajv.addSchema({ $id: ROOT, definitions, $defs: methods });
  const modules = new Map<string, ValidatorsModule>();
  for (const endpoint of model.endpoints) {
    const exports: Record<string, string> = {};
    endpoint.methods.forEach((method, i) => {
      exports[`p${i}`] = `${ROOT}#/$defs/${encodeURIComponent(`params:${method.name}`)}`;
      exports[`r${i}`] = `${ROOT}#/$defs/${encodeURIComponent(`result:${method.name}`)}`;
    });
    const writers = writersCode(endpoint.methods, model.schemas);
    const module = moduleOf(endpoint.name, standaloneCode(ajv, exports), Object.keys(exports));
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
    .replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
      const helper = RUNTIME_HELPERS[module];
      if (!helper) throw new Error(`the validators of ${endpointName} need ${module}, which the server runtime does not provide`);
      helpers.add(helper);
      return helper;
    })
    .trim();
  if (/\brequire\(/.test(code)) throw new Error(`the validators of ${endpointName} require a module the server runtime does not provide`);
  const formats = [...code.matchAll(/formats\["([^"]+)"\]/g)].map((m) => m[1]!);
  const missing = formats.filter((name) => !Object.hasOwn(formatChecks, name));
  if (missing.length > 0) throw new Error(`the spec uses format ${missing.join(', ')}, which runtime/server/formats.ts does not implement`);
  const imports = [
    ...(formats.length > 0 ? ["import { formats } from '../runtime/formats.js';"] : []),
    ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(', ')} } from '../runtime/ajv.js';`] : []),
  ];
  const typedCode = code.replace(/export const ([pr]\d+) = /g, 'export const $1: ValidateFunction = ');
  return { imports, names, code, typedCode };
}
