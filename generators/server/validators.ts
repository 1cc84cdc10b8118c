/**
 * Each endpoint's validators module: the table of every method's params and result schemas, which the runtime's ajv
 * compiles on a method's first call (runtime/server/ajv.ts), and the result writers (writers.ts). The table's
 * `$ref`s are the document's own, resolved against the document the package embeds.
 */
import { mapSubschemas } from '../model/schema-walk.ts';
import type { JsonSchema, SpecModel } from '../model/types.ts';
import { jsonAsJavaScript } from '../shared/lines.ts';
import { WRITER_HELPERS, writersCode } from './writers.ts';
import { isSchema } from '../model/schema-walk.ts';

/**
 * One endpoint's validators module: JavaScript by nature, so the templates write its source, JavaScript and
 * declarations.
 */
export interface ValidatorsModule {
  /** The runtime imports the writers need, as import statements. */
  imports: string[];
  /** The exported result writers, `writePlatformGetHeightResult` (see writers.ts). */
  writers: string[];
  /** The schemas table, by wire name, as an object literal. */
  schemas: string;
  /** The component schemas ajv must be given other than the document has them (see protoAsPattern). */
  components: string;
  /** The writers, as JavaScript. */
  code: string;
  /** The same code as TypeScript. */
  typedCode: string;
}

/** The validators module of every endpoint, by endpoint name. */
export function validatorModules(model: SpecModel): Map<string, ValidatorsModule> {
  const modules = new Map<string, ValidatorsModule>();
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(model.schemas)) {
    const checkable = protoAsPattern(schema);
    if (JSON.stringify(checkable) !== JSON.stringify(schema))
      Object.defineProperty(components, name, { value: checkable, enumerable: true });
  }
  for (const endpoint of model.endpoints) {
    const table: Record<string, { params: JsonSchema; result: JsonSchema }> = {};
    for (const method of endpoint.methods) {
      const properties = Object.fromEntries(method.params.map((param) => [param.name, forAjv(param.schema)]));
      const required = method.params.filter((param) => param.required).map((param) => param.name);
      const params = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
      Object.defineProperty(table, method.name, {
        value: { params: protoAsPattern(params), result: forAjv(method.result?.schema ?? {}) },
        enumerable: true,
      });
    }
    const writers = writersCode(endpoint.methods, model.schemas);
    modules.set(endpoint.name, {
      imports: [`import { ${WRITER_HELPERS.join(', ')} } from '../runtime/encode.js';`],
      writers: writers.names,
      // Laid out from the column the .ts template's `export const schemas: Record<string, MethodSchemas> = ` leaves.
      schemas: jsonAsJavaScript(table, '', 'export const schemas: Record<string, MethodSchemas> = '.length),
      components: jsonAsJavaScript(components),
      code: writers.code,
      typedCode: writers.typedCode,
    });
  }
  return modules;
}

/** Keywords that only annotate: the document the package embeds keeps them, the validators need none. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$comment']);

/** `schema` without its annotations and `x-` extensions, at every depth. */
function validationOnly(schema: JsonSchema): JsonSchema {
  const copy = mapSubschemas(schema, validationOnly);
  for (const key of Object.keys(copy)) if (ANNOTATIONS.has(key) || key.startsWith('x-')) delete copy[key];
  return copy;
}

const forAjv = (schema: JsonSchema): JsonSchema => protoAsPattern(validationOnly(schema));

/**
 * ajv never checks a property named `__proto__` against its schema in `properties` (its guard against prototype
 * pollution), so such a property is checked by `patternProperties` instead, `^__proto__$`: the same constraint.
 */
function protoAsPattern(schema: JsonSchema): JsonSchema {
  const copy = mapSubschemas(schema, protoAsPattern);
  const properties = copy.properties;
  if (!isSchema(properties) || !Object.hasOwn(properties, '__proto__')) return copy;
  copy.properties = Object.fromEntries(Object.entries(properties).filter(([key]) => key !== '__proto__'));
  copy.patternProperties = {
    '^__proto__$': Object.getOwnPropertyDescriptor(properties, '__proto__')!.value,
    ...(isSchema(copy.patternProperties) ? copy.patternProperties : {}),
  };
  return copy;
}
