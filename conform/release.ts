/**
 * Schemas as one release has them (generators/model/versions.ts), compiled on demand: what the conformance runner,
 * the proxy and the mock check against when a node's release is known. Only methods that differ in the release need
 * them; every other check keeps the generated validators.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../generators/load/ajv.ts';
import type { JsonSchema, MethodModel, SpecModel } from '../generators/model/types.ts';
import { inRange, resultSchemaAt, schemaAt } from '../generators/model/versions.ts';

/** Compiles schemas of the spec (their `$ref`s into its shared schemas resolve), each schema object once. */
export class SchemaCompiler {
  private readonly ajv = createAjv({ strict: false });
  private readonly cache = new Map<JsonSchema, ValidateFunction>();
  private readonly schemas: Record<string, JsonSchema>;
  constructor(schemas: Record<string, JsonSchema>) {
    this.schemas = schemas;
  }

  compile(schema: JsonSchema): ValidateFunction {
    let validate = this.cache.get(schema);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: { schemas: this.schemas } });
      this.cache.set(schema, validate);
    }
    return validate;
  }

  check(schema: JsonSchema, value: unknown): boolean {
    return this.compile(schema)(value) as boolean;
  }
}

const compilers = new WeakMap<SpecModel, SchemaCompiler>();

export function compilerOf(model: SpecModel): SchemaCompiler {
  let compiler = compilers.get(model);
  if (!compiler) compilers.set(model, (compiler = new SchemaCompiler(model.schemas)));
  return compiler;
}

/** The method's params and result validators at `version`, where they differ from the spec's (undefined where not). */
export function releaseValidators(
  model: SpecModel,
  method: MethodModel,
  version: string,
): { params?: ValidateFunction; result?: ValidateFunction } {
  const compiler = compilerOf(model);
  const out: { params?: ValidateFunction; result?: ValidateFunction } = {};
  const params = method.params.filter((p) => inRange(p.versions, version));
  const schemas = params.map((p) => schemaAt(p.schema, version, model.schemas));
  if (params.length !== method.params.length || schemas.some((s, i) => s !== params[i]!.schema)) {
    const required = params.filter((p) => p.required).map((p) => p.name);
    out.params = compiler.compile({
      type: 'object',
      properties: Object.fromEntries(params.map((p, i) => [p.name, schemas[i]!])),
      ...(required.length > 0 ? { required } : {}),
    });
  }
  const result = resultSchemaAt(method, version, model.schemas);
  if (result && result !== method.result!.schema) out.result = compiler.compile(result);
  return out;
}
