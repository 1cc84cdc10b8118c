/** Builds the model from bundled documents. Only this module knows the OpenRPC document shape. */
import type { BundledDocument } from '../load/index.ts';
import { SpecError } from '../load/index.ts';
import { deref } from '../load/rules.ts';
import { NameRegistry, endpointTypeName, methodTypeNames } from './names.ts';
import type { EndpointModel, ExampleModel, Json, JsonSchema, MethodModel, ParamModel, SpecModel } from './types.ts';

type Obj = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export function buildModel(bundles: BundledDocument[]): SpecModel {
  const names = new NameRegistry();
  const schemas: Record<string, JsonSchema> = {};
  const endpoints = bundles.map((bundle) => buildEndpoint(bundle, names, schemas));
  if (names.collisions.length > 0) {
    throw new SpecError(names.collisions.map((message) => ({ file: 'openrpc', pointer: '', message })));
  }
  return { endpoints, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

function buildEndpoint(bundle: BundledDocument, names: NameRegistry, schemas: Record<string, JsonSchema>): EndpointModel {
  const doc = bundle.document as Obj;
  const info = (doc.info ?? {}) as Obj;
  const server = ((doc.servers as Obj[] | undefined)?.[0] ?? { url: '/' }) as Obj;
  const variables = (server.variables ?? {}) as Record<string, Obj>;
  const urlTemplate = str(server.url);
  const defaultBaseUrl = str(variables.baseUrl?.default) || 'http://127.0.0.1:9650';
  const pathTemplate = urlTemplate.replace(/^\{baseUrl\}/, '').replace(/^[a-z]+:\/\/[^/]+/, '');
  const defaultPath = pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => str(variables[name]?.default));
  const pathVariables = Object.entries(variables)
    .filter(([name]) => name !== 'baseUrl')
    .map(([name, variable]) => ({ name, default: str(variable.default), description: str(variable.description) }));

  const typeName = endpointTypeName(bundle.name);
  names.claim(`${typeName}Client`, `the client of ${bundle.file}`);
  const componentSchemas = ((doc.components as Obj | undefined)?.schemas ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(componentSchemas)) {
    names.claim(name, `the schema ${name} = ${JSON.stringify(schema)}`);
    schemas[name] = schema;
  }
  const methods = ((doc.methods ?? []) as Obj[]).map((method, index) => buildMethod(doc, method, index, names, bundle.file));
  return {
    name: bundle.name,
    typeName,
    title: str(info.title),
    description: str(info.description),
    version: str(info.version),
    urlTemplate,
    defaultPath,
    pathVariables,
    defaultBaseUrl,
    methods,
    document: doc as JsonSchema,
  };
}

function buildMethod(doc: Obj, method: Obj, index: number, names: NameRegistry, file: string): MethodModel {
  const name = str(method.name);
  const [service = '', shortName = ''] = name.split('.');
  const typeNames = methodTypeNames(name);
  names.claim(typeNames.params, `the params of ${name} in ${file}`);
  names.claim(typeNames.result, `the result of ${name} in ${file}`);
  const params: ParamModel[] = ((method.params ?? []) as unknown[]).map((entry) => {
    const param = deref(doc, entry).node as Obj;
    return {
      name: str(param.name),
      required: param.required === true,
      description: str(param.description),
      schema: (param.schema ?? {}) as JsonSchema,
      deprecated: param.deprecated === true,
    };
  });
  const resultNode = deref(doc, method.result).node as Obj | undefined;
  const examples: ExampleModel[] = ((method.examples ?? []) as unknown[]).map((entry) => {
    const example = deref(doc, entry).node as Obj;
    const exampleParams = ((example.params ?? []) as unknown[]).map((p) => deref(doc, p).node as Obj);
    const exampleResult = deref(doc, example.result).node as Obj | undefined;
    return {
      name: str(example.name),
      ...(example.summary ? { summary: str(example.summary) } : {}),
      ...(example.description ? { description: str(example.description) } : {}),
      params: Object.fromEntries(exampleParams.map((p) => [str(p.name), p.value as Json])),
      result: (exampleResult?.value ?? null) as Json,
    };
  });
  const versions = (method['x-node-versions'] ?? {}) as MethodModel['versions'];
  return {
    name,
    service,
    shortName,
    summary: str(method.summary),
    description: str(method.description),
    params,
    result: resultNode
      ? { name: str(resultNode.name), description: str(resultNode.description), schema: (resultNode.schema ?? {}) as JsonSchema }
      : undefined,
    errors: ((method.errors ?? []) as unknown[]).map((entry) => {
      const error = deref(doc, entry).node as Obj;
      return { code: Number(error.code), message: str(error.message), ...('data' in error ? { data: error.data as Json } : {}) };
    }),
    examples,
    deprecated: method.deprecated === true,
    versions,
    replacement: typeof method['x-replacement'] === 'string' ? method['x-replacement'] : undefined,
    discrepancies: (method['x-docs-discrepancies'] ?? []) as string[],
    changes: (method['x-changes'] ?? []) as MethodModel['changes'],
    typeNames,
    index,
  };
}
