/**
 * Params and result validators of every method, compiled at generation by the toolkit's one ajv (draft-07, the
 * avax-* formats) into standalone code, so the server package runs them without ajv. The code's few references to
 * ajv's runtime helpers and to the formats are pointed at the package's own runtime modules. Each endpoint's module
 * also holds its result writers (writers.ts).
 */
import { _ } from 'ajv';
import { formatChecks } from '../../runtime/server/formats.ts';
import { createAjv } from '../load/ajv.ts';
import { componentName, mapSubschemas } from '../model/schema-walk.ts';
import { validatorNames } from '../model/names.ts';
import type { JsonSchema, SpecModel } from '../model/types.ts';
import { standaloneModule } from './ajv-module.ts';
import { budgetedCode } from './standalone.ts';
import { WRITER_HELPERS, writersCode } from './writers.ts';

const ROOT = 'https://avalanche-openrpc.invalid/schemas.json';

/**
 * One endpoint's validators module: JavaScript by nature, so the templates write its source, JavaScript and
 * declarations.
 */
export interface ValidatorsModule {
  /** The runtime imports the code needs (formats, ajv's helpers), as import statements. */
  imports: string[];
  /** The exported validators, named after their method (validatorNames): `validatePlatformGetHeightParams`. */
  names: string[];
  /** The exported result writers, `writePlatformGetHeightResult` (see writers.ts). */
  writers: string[];
  /** ajv's standalone code (one statement a line, indented) and the writers, as JavaScript. */
  code: string;
  /** The same code as TypeScript: typed parameters, error lists and exports, so it needs no `@ts-nocheck`. */
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
  // Every module's standalone code first, then its budgeting and layout: the compiled validators ajv holds (300 MB at
  // 10,000 methods) are garbage before the layout's working set and the finished modules take memory.
  const standalone = standaloneCode(model);
  const modules = new Map<string, ValidatorsModule>();
  for (const endpoint of model.endpoints) {
    const { exports, parts } = standalone.get(endpoint.name)!;
    const writers = writersCode(endpoint.methods, model.schemas);
    const module = moduleOf(endpoint.name, parts, exports);
    modules.set(endpoint.name, {
      ...module,
      imports: [...module.imports, `import { ${WRITER_HELPERS.join(', ')} } from '../runtime/encode.js';`],
      writers: writers.names,
      code: `${module.code}\n${writers.code}`,
      typedCode: `${module.typedCode}\n${writers.typedCode}`,
    });
  }
  return modules;
}

/** ajv's standalone code of each endpoint's validators (its parts, see standaloneModule) and their export names. */
function standaloneCode(model: SpecModel): Map<string, { exports: string[]; parts: string[] }> {
  // ajv's standalone code refers to the formats by this free name; the module imports it under that name.
  // A foreign document's schemas may use other dialects' keywords and formats, which JSON Schema ignores.
  const strict = model.profile === 'avalanche';
  const ajv = createAjv({
    code: { source: true, esm: true, lines: true, formats: _`formats` },
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
  const standalone = new Map<string, { exports: string[]; parts: string[] }>();
  for (const endpoint of model.endpoints) {
    const exports: Record<string, string> = {};
    endpoint.methods.forEach((method) => {
      const names = validatorNames(method.name);
      exports[names.params] = `${ROOT}#/$defs/${encodeURIComponent(`params:${method.name}`)}`;
      exports[names.result] = `${ROOT}#/$defs/${encodeURIComponent(`result:${method.name}`)}`;
    });
    standalone.set(endpoint.name, { exports: Object.keys(exports), parts: standaloneModule(ajv, exports) });
  }
  return standalone;
}

/** Points the standalone code's requires at the runtime's modules and bounds its error lists (standalone.ts). */
function moduleOf(endpointName: string, standalone: string[], names: string[]): Omit<ValidatorsModule, 'writers'> {
  const { code, typedCode, helpers } = budgetedCode(standalone, endpointName);
  const formats = [...code.matchAll(/\bformats(?:\["([^"]+)"\]|\.([A-Za-z_$][\w$]*))/g)].map((m) => (m[1] ?? m[2])!);
  const missing = formats.filter((name) => !Object.hasOwn(formatChecks, name));
  if (missing.length > 0)
    throw new Error(`the spec uses format ${missing.join(', ')}, which runtime/server/formats.ts does not implement`);
  const imports = [
    ...(formats.length > 0 ? ["import { formats } from '../runtime/formats.js';"] : []),
    `import { ${['budget', 'budgeted', 'keep', 'TOO_MANY', ...helpers].join(', ')} } from '../runtime/ajv.js';`,
  ];
  return { imports, names, code, typedCode };
}
