/** What an endpoint page shows: the endpoint's URL and client, then every method in the order of its document. */
import { clientClassName } from '../model/names.ts';
import type { EndpointModel, MethodModel } from '../model/types.ts';
import { compareVersions, describeRange, lifecycle } from '../model/versions.ts';
import { clientConstruction } from '../shared/snippets.ts';
import { publishedPath } from '../shared/published.ts';
import { type ExampleView, endpointUrl, exampleView, methodTarget } from './example-view.ts';
import { type Html, html, releaseAttrs } from './html.ts';
import { renderInline } from './markdown.ts';
import { type SchemaNode, schemaNode } from './schema-tree.ts';
import { type SchemaContext, describe, typeExpression } from './schema-view.ts';

export interface Badge {
  text: string;
  kind: 'deprecated' | 'since' | 'removed';
}

export interface MethodView {
  id: string;
  name: string;
  summary: string;
  description: Html | null;
  deprecated: boolean;
  badges: Badge[];
  /** Deprecated, or gone from recent releases: worth a warning box. */
  hasWarning: boolean;
  /** "Served since AvalancheGo v1.2.0; deprecated since v1.7.0; last served by v1.9.0; removed in v1.9.1." */
  lifecycle: string;
  replacement: Html | null;
  discrepancies: Html[];
  changes: Array<{ version: string; description: Html }>;
  params: SchemaNode[];
  hasDefaults: boolean;
  result: SchemaNode | null;
  /** The shapes the result had in earlier releases (`x-result-history`), each shown for its own releases. */
  earlierResults: Array<{ label: Html; node: SchemaNode }>;
  /** The releases that serve the method. */
  releaseAttrs: Html;
  errors: Array<{ name: string; code: number; message: string; data: string | null }>;
  examples: ExampleView[];
  tryIt: { id: string; baseUrl: string; path: string; request: string } | null;
}

export interface EndpointView {
  name: string;
  title: string;
  description: Html | null;
  urlTemplate: string;
  url: string;
  serverDescription: Html | null;
  pathVariables: Array<{ name: string; default: string; enum: string[]; description: Html | null }>;
  clientName: string;
  clientConstruction: string;
  openrpcHref: string;
  methods: MethodView[];
}

export function endpointView(clientPackage: string, endpoint: EndpointModel, context: SchemaContext): EndpointView {
  return {
    name: endpoint.name,
    title: endpoint.title,
    description: describe(endpoint.description, context),
    urlTemplate: endpoint.urlTemplate,
    url: endpointUrl(endpoint),
    serverDescription: describe(endpoint.serverDescription, context),
    pathVariables: endpoint.pathVariables.map((variable) => ({
      name: variable.name,
      default: variable.default,
      enum: variable.enum,
      description: variable.description ? renderInline(variable.description, context.linker) : null,
    })),
    clientName: clientClassName(endpoint.typeName),
    clientConstruction: clientConstruction(endpoint),
    openrpcHref: publishedPath(endpoint),
    methods: endpoint.methods.map((method) => methodView(clientPackage, endpoint, method, context)),
  };
}

export function badges(method: MethodModel): Badge[] {
  const { since, deprecatedSince, removedIn, lastVersion } = method.versions;
  const list: Badge[] = [];
  if (method.deprecated)
    list.push({ kind: 'deprecated', text: deprecatedSince ? `deprecated since ${deprecatedSince}` : 'deprecated' });
  if (since) list.push({ kind: 'since', text: `since ${since}` });
  if (removedIn) list.push({ kind: 'removed', text: `removed in ${removedIn}` });
  else if (lastVersion) list.push({ kind: 'removed', text: `last served by ${lastVersion}` });
  return list;
}

function methodView(
  clientPackage: string,
  endpoint: EndpointModel,
  method: MethodModel,
  context: SchemaContext,
): MethodView {
  const params = method.params.map((param) =>
    schemaNode(param.name, param.schema, context, {
      isField: true,
      required: param.required,
      description: param.description,
      versions: param.versions,
    }),
  );
  const first = method.examples[0];
  const examples = method.examples.map((example) =>
    exampleView(clientPackage, endpoint, method, example, context.linker),
  );
  return {
    id: method.name,
    name: method.name,
    summary: method.summary,
    description: describe(method.description, context),
    deprecated: method.deprecated,
    badges: badges(method),
    hasWarning:
      method.deprecated || method.versions.removedIn !== undefined || method.versions.lastVersion !== undefined,
    lifecycle: lifecycle(method, { deprecation: true }),
    replacement: method.replacement ? renderInline(method.replacement, context.linker) : null,
    discrepancies: method.discrepancies.map((text) => renderInline(text, context.linker)),
    changes: method.changes.map((change) => ({
      version: change.version,
      description: renderInline(change.description, context.linker),
    })),
    params,
    hasDefaults: params.some((param) => param.defaultValue !== null),
    // The result's own fields are what the reader came for, so they start unfolded even when the result is a named
    // type.
    result: method.result ? resultNode(method, context) : null,
    earlierResults: method.resultHistory.map((entry) => ({
      label: html`The result up to ${describeRange(entry.versions)}${entry.description ? html`: ${renderInline(entry.description, context.linker)}` : ''}`,
      node: {
        ...schemaNode(method.result!.name, entry.schema, context),
        releaseAttrs: releaseAttrs(entry.versions),
        open: true,
      },
    })),
    releaseAttrs: releaseAttrs(method.versions),
    errors: method.errors.map((error) => ({
      name: error.name,
      code: error.code,
      message: error.message,
      data: 'data' in error ? JSON.stringify(error.data) : null,
    })),
    examples,
    tryIt: first
      ? {
          id: `try-${method.name}`,
          baseUrl: methodTarget(endpoint, method).origin,
          path: methodTarget(endpoint, method).path,
          request: examples[0]!.requestText,
        }
      : null,
  };
}

/** The result's tree; the shapes it had in earlier releases (`x-result-history`) come first among its rules. */
function resultNode(method: MethodModel, context: SchemaContext) {
  const node = schemaNode(method.result!.name, method.result!.schema, context, {
    description: method.result!.description || undefined,
  });
  const earlier = method.resultHistory.map(
    (entry) =>
      html`Earlier shape (${describeRange(entry.versions)}): ${
        entry.description ? renderInline(entry.description, context.linker) : 'another shape'
      } (${typeExpression(entry.schema, context)}).`,
  );
  // Today's shape begins where the last earlier one ends.
  const ends = method.resultHistory.map((entry) => entry.versions.removedIn).filter((v) => v !== undefined);
  const since = ends.sort(compareVersions).at(-1);
  return {
    ...node,
    rules: [...earlier, ...node.rules],
    open: true,
    releaseAttrs: releaseAttrs(since ? { since } : {}),
  };
}
