/**
 * Params and result validators of every method, compiled at generation by the toolkit's one ajv (draft-07, the
 * avax-* formats) into standalone code, so the server package runs them without ajv. The code's few references to
 * ajv's runtime helpers and to the formats are pointed at the package's own runtime modules.
 */
import { type Ajv, _ } from 'ajv';
import { createRequire } from 'node:module';
import { createAjv } from '../load/ajv.ts';
import { mapSubschemas } from '../model/schema-walk.ts';
import type { EndpointModel, JsonSchema, SpecModel } from '../model/types.ts';

// ajv's standalone module is CommonJS with a default export, which NodeNext's ESM interop types as a namespace.
const standaloneCode = (createRequire(import.meta.url)('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string }).default;

const ROOT = 'https://avalanche-openrpc.invalid/schemas.json';
const COMPONENT_REF = /^#\/components\/schemas\//;

/** The formats templates/server/runtime-formats.ts.hbs implements; a schema naming another fails generation. */
export const RUNTIME_FORMATS = ['avax-cb58', 'avax-short-id', 'avax-node-id', 'avax-hex', 'avax-bech32', 'avax-address', 'date-time'];

/** ajv's runtime helpers the standalone code may require, and the runtime export standing in for each. */
const RUNTIME_HELPERS: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': 'ucs2length',
  'ajv/dist/runtime/equal': 'equal',
};

function pointRefs(schema: JsonSchema, base: string): JsonSchema {
  const copy = mapSubschemas(schema, (child) => pointRefs(child, base));
  if (typeof copy.$ref === 'string') copy.$ref = copy.$ref.replace(COMPONENT_REF, `${base}#/definitions/`);
  return copy;
}

/** One module of validators for the endpoint: `p<i>` checks the params object of method i, `r<i>` its result. */
export function validatorsModule(model: SpecModel, endpoint: EndpointModel): string {
  // ajv's standalone code refers to the formats by this free name; the module imports it under that name.
  const ajv = createAjv({ code: { source: true, esm: true, formats: _`formats` }, inlineRefs: false });
  ajv.addSchema({ $id: ROOT, definitions: Object.fromEntries(Object.entries(model.schemas).map(([name, schema]) => [name, pointRefs(schema, '')])) });
  const exports: Record<string, string> = {};
  endpoint.methods.forEach((method, i) => {
    const properties = Object.fromEntries(method.params.map((param) => [param.name, pointRefs(param.schema, ROOT)]));
    const required = method.params.filter((param) => param.required).map((param) => param.name);
    ajv.addSchema({ $id: `params:${method.name}`, type: 'object', properties, ...(required.length > 0 ? { required } : {}) });
    ajv.addSchema({ ...(method.result ? pointRefs(method.result.schema, ROOT) : {}), $id: `result:${method.name}` });
    exports[`p${i}`] = `params:${method.name}`;
    exports[`r${i}`] = `result:${method.name}`;
  });
  let code = standaloneCode(ajv, exports).replace(/^"use strict";/, '');
  const helpers = new Set<string>();
  code = code.replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
    const helper = RUNTIME_HELPERS[module];
    if (!helper) throw new Error(`the validators of ${endpoint.name} need ${module}, which the server runtime does not provide`);
    helpers.add(helper);
    return helper;
  });
  if (/\brequire\(/.test(code)) throw new Error(`the validators of ${endpoint.name} require a module the server runtime does not provide`);
  const formats = [...code.matchAll(/formats\["([^"]+)"\]/g)].map((m) => m[1]!);
  const missing = formats.filter((name) => !RUNTIME_FORMATS.includes(name));
  if (missing.length > 0) throw new Error(`the spec uses format ${missing.join(', ')}, which templates/server/runtime-formats.ts.hbs does not implement`);
  const imports = [
    ...(formats.length > 0 ? ["import { formats } from '../runtime/formats.js';"] : []),
    ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(', ')} } from '../runtime/ajv.js';`] : []),
  ];
  const typed = code.replace(/export const ([pr]\d+) = /g, 'export const $1: ValidateFunction = ');
  return [...imports, "import type { ValidateFunction } from '../runtime/params.js';", '', typed.trim()].join('\n');
}
