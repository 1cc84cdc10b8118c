/** Builds the model from bundled documents. Only this module knows the OpenRPC document shape. */
import type { BundledDocument } from '../common/document.ts';
import { deref } from '../common/json.ts';
import { SpecError } from '../common/problems.ts';
import { NameRegistry, claimNames, componentSchemasOf } from './claims.ts';
import { errorName, uniqueNames } from './errors.ts';
import {
  RESERVED_TYPE_NAMES,
  clientMethodName,
  componentTypeNames,
  endpointTypeName,
  methodTypeNames,
  mixesNamespaces,
  namespaceNames,
  resultIsComponent,
  schemaTypeName,
} from './names.ts';
import { publishable } from './published.ts';
import { componentName, isSchema } from './schema-walk.ts';
import { endpointServer, methodServer } from './servers.ts';
import { releasesNamedIn } from './versions.ts';
import type {
  EndpointModel,
  ExampleModel,
  Json,
  JsonSchema,
  MethodModel,
  ParamModel,
  SpecMethod,
  SpecModel,
} from './types.ts';

type Obj = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Method wire names are unique across the spec (the loader enforces it), so a name alone finds its endpoint. */
export function indexMethods(model: SpecModel): Map<string, SpecMethod> {
  const index = new Map<string, SpecMethod>();
  for (const endpoint of model.endpoints)
    for (const method of endpoint.methods) index.set(method.name, { endpoint, method });
  return index;
}

export function buildModel(bundles: BundledDocument[]): SpecModel {
  const names = new NameRegistry(RESERVED_TYPE_NAMES);
  // Without a prototype, so a component named `__proto__` is an entry like any other.
  const schemas: Record<string, JsonSchema> = Object.create(null);
  const avalanche = bundles.length > 0 && bundles.every((bundle) => bundle.profile === 'avalanche');
  const endpoints = bundles.map((bundle) => buildEndpoint(bundle, schemas));
  const schemaTypeNames = typeNamesOf(bundles, endpoints);
  bundles.forEach((bundle, i) => claimNames(bundle, endpoints[i]!, names, schemaTypeNames, avalanche));
  if (names.collisions.length > 0) throw new SpecError(names.collisions);
  const advice = bundles.flatMap((bundle) =>
    (bundle.advice ?? []).map(({ method, file, pointer, message }) => ({ method, file, pointer, message })),
  );
  return {
    endpoints,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
    schemaTypeNames,
    ...(avalanche ? { profile: 'avalanche' as const } : {}),
    ...(advice.length > 0 ? { advice } : {}),
    packageNames: avalanche
      ? { client: '@avalanche-openrpc/client', server: '@avalanche-openrpc/server' }
      : packageNamesFrom(packageStem(endpoints[0]?.title ?? '')),
  };
}

/**
 * Every shared schema's type name, in the order the documents hold them; a number a clash calls for skips the names
 * the generated code needs for itself and the methods' types.
 */
function typeNamesOf(bundles: BundledDocument[], endpoints: EndpointModel[]): SpecModel['schemaTypeNames'] {
  const components = bundles.flatMap((bundle) => Object.keys(componentSchemasOf(bundle)));
  // A result schema named as the method's result type is that type (resultIsComponent), so keeps its name.
  const methodTypes = endpoints.flatMap((endpoint) =>
    endpoint.methods.flatMap((method) => {
      const result = componentName(method.result?.schema.$ref);
      const isResult = result !== undefined && resultIsComponent(method, { [result]: schemaTypeName(result) });
      return isResult ? [method.typeNames.params] : [method.typeNames.params, method.typeNames.result];
    }),
  );
  const names = componentTypeNames(
    [...new Set(components)],
    new Set([...Object.keys(RESERVED_TYPE_NAMES), ...methodTypes]),
  );
  return Object.fromEntries([...names].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** `<stem>-client` and `<stem>-server`. */
export function packageNamesFrom(stem: string): SpecModel['packageNames'] {
  return { client: `${stem}-client`, server: `${stem}-server` };
}

/** A package name from a document's title, as npm takes names: `Petstore API` gives `petstore-api`. */
function packageStem(title: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 150);
  return stem || 'openrpc';
}

function buildEndpoint(bundle: BundledDocument, schemas: Record<string, JsonSchema>): EndpointModel {
  const doc = bundle.document as Obj;
  const info = (doc.info ?? {}) as Obj;
  const typeName = endpointTypeName(bundle.name);
  for (const [name, schema] of Object.entries(componentSchemasOf(bundle)))
    schemas[name] = withoutSelfIntersection(name, schema);
  const components = (doc.components ?? {}) as Obj;
  const invalidArgument = ((components.errors ?? {}) as Record<string, Obj>).InvalidArgument?.message;
  const rawMethods = (doc.methods ?? []) as Obj[];
  const namespaced = mixesNamespaces(rawMethods.map((method) => str(method.name)));
  const methods = rawMethods.map((method, index) => buildMethod(doc, method, index, namespaced));
  return {
    name: bundle.name,
    file: bundle.file,
    typeName,
    title: str(info.title),
    description: str(info.description),
    version: str(info.version),
    ...endpointServer((doc.servers as Obj[] | undefined)?.[0]),
    aliases: Array.isArray(doc['x-aliases']) ? (doc['x-aliases'] as unknown[]).map(str) : [],
    methods,
    // Sorted, so the README does not follow the author's key order.
    renamedErrors: Object.entries((doc['x-renamed-errors'] ?? {}) as Record<string, string>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([from, to]) => ({ from, to })),
    license: str((info.license as Obj | undefined)?.name),
    mockOnly: doc['x-mock-only'] === true,
    invalidArgument: str(invalidArgument),
    published: publishable(doc as JsonSchema),
    releases: releasesNamedIn(doc as JsonSchema),
    ...(bundle.profile ? { profile: bundle.profile } : {}),
  };
}

/**
 * A component that lists itself in its own `allOf` (`A: {allOf: [{$ref: A}, X]}`) is X: the self-reference adds
 * nothing, and as a type it would be `type A = A & X`, which TypeScript refuses. It is dropped, as
 * json-schema-to-typescript does.
 */
function withoutSelfIntersection(name: string, schema: JsonSchema): JsonSchema {
  if (!isSchema(schema) || !Array.isArray(schema.allOf)) return schema;
  const allOf = schema.allOf.filter((branch) => !isSchema(branch) || componentName(branch.$ref) !== name);
  if (allOf.length === schema.allOf.length) return schema;
  const { allOf: _, ...rest } = schema;
  return allOf.length > 0 ? { ...rest, allOf } : rest;
}

function buildMethod(doc: Obj, method: Obj, index: number, namespaced: boolean): MethodModel {
  const name = str(method.name);
  const service = name.includes('.') ? name.slice(0, name.indexOf('.')) : '';
  const shortName = clientMethodName(name, namespaced);
  const namespace = namespaced ? namespaceNames(name) : undefined;
  const typeNames = methodTypeNames(name);
  const params: ParamModel[] = ((method.params ?? []) as unknown[]).map((entry) => {
    const param = deref(doc, entry).node as Obj;
    return {
      name: str(param.name),
      required: param.required === true,
      description: str(param.description),
      schema: (param.schema ?? {}) as JsonSchema,
      deprecated: param.deprecated === true,
      versions: (param['x-node-versions'] ?? {}) as ParamModel['versions'],
      ...('x-zero-when-absent' in param ? { zeroWhenAbsent: param['x-zero-when-absent'] as Json } : {}),
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
      // A value whose name is not a param's (by-position examples name them freely) belongs to the param at its
      // position.
      params: Object.fromEntries(
        exampleParams.map((p, i) => [
          params.some((d) => d.name === str(p.name)) ? str(p.name) : (params[i]?.name ?? str(p.name)),
          p.value as Json,
        ]),
      ),
      result: (exampleResult?.value ?? null) as Json,
    };
  });
  const versions = (method['x-node-versions'] ?? {}) as MethodModel['versions'];
  const server = methodServer(method);
  return {
    name,
    service,
    shortName,
    ...(namespace ? { namespace } : {}),
    summary: str(method.summary),
    description: str(method.description),
    params,
    paramStructure: paramStructureOf(method.paramStructure),
    ...(server ? { server } : {}),
    result: resultNode
      ? {
          name: str(resultNode.name),
          description: str(resultNode.description),
          schema: (resultNode.schema ?? {}) as JsonSchema,
        }
      : undefined,
    errors: uniqueNames(
      ((method.errors ?? []) as unknown[]).map((entry) => {
        const error = deref(doc, entry).node as Obj;
        const ref = (entry as Obj).$ref;
        const named = error['x-error-name'];
        const name =
          typeof named === 'string' ? named : errorName(typeof ref === 'string' ? ref : undefined, str(error.message));
        return {
          name,
          code: Number(error.code),
          message: str(error.message),
          ...('data' in error ? { data: error.data as Json } : {}),
        };
      }),
    ),
    examples,
    deprecated: method.deprecated === true,
    versions,
    replacement: typeof method['x-replacement'] === 'string' ? method['x-replacement'] : undefined,
    sideEffects: method['x-side-effects'] as MethodModel['sideEffects'],
    discrepancies: (method['x-docs-discrepancies'] ?? []) as string[],
    pagination: paginationOf(method['x-pagination'] as MethodModel['pagination']),
    changes: ((method['x-changes'] ?? []) as MethodModel['changes']).map((change) => ({
      ...change,
      pointers: change.pointers ?? [],
    })),
    resultHistory: ((method['x-result-history'] ?? []) as Obj[]).map((entry) => ({
      versions: (entry['x-node-versions'] ?? {}) as MethodModel['versions'],
      schema: (entry.schema ?? {}) as JsonSchema,
      description: str(entry.description),
    })),
    typeNames,
    index,
  };
}

/** The spec's `x-pagination` in one fixed key order, so the generated code does not follow the author's key order. */
function paginationOf(pagination: MethodModel['pagination']): MethodModel['pagination'] {
  if (!pagination) return undefined;
  const { cursorParam, cursorField, pageSizeParam, maxPageSize, itemsField } = pagination;
  return { cursorParam, cursorField, pageSizeParam, maxPageSize, itemsField };
}

function paramStructureOf(value: unknown): MethodModel['paramStructure'] {
  return value === 'by-name' || value === 'by-position' ? value : 'either';
}
