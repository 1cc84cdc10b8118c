/** What the client templates show, computed from the model: the templates only lay it out. */
import { headerText } from '../emit/header.ts';
import { jsLiteral as literal } from '../emit/literal.ts';
import { type PackageFacts, packageFacts } from '../emit/package.ts';
import { clientClassName, clientErrorsName, clientOptionsName } from '../model/names.ts';
import { sensitiveKeys } from '../model/sensitive.ts';
import type { EndpointModel, Json, SpecModel } from '../model/types.ts';
import { commentLines } from '../shared/comments.ts';
import { MAX_SHOWN_EXAMPLE, largerThan } from '../shared/example-size.ts';
import { commentText, markdownCode, markdownText, propertyKey, regexLiteral } from '../shared/escape.ts';
import { PACKAGE_NAME, clientConstruction, clientSetup, clientSnippet } from '../shared/snippets.ts';
import { methodComment } from './docs.ts';
import { overloads } from './narrow.ts';
import { messagePattern } from '../model/errors.ts';

export interface PackageView extends PackageFacts {
  /** A short usage example for the README, from the spec's own examples. */
  example: string;
  endpoints: EndpointView[];
}

export interface EndpointView {
  header: string;
  /** Module file name without extension, e.g. `p-chain`. */
  module: string;
  className: string;
  optionsName: string;
  docLines: string[];
  /** JavaScript literals, ready to paste. */
  defaultBaseUrl: string;
  pathTemplate: string;
  /** For the README: the title, the constructor call and the URL it sends to. */
  titleMarkdown: string;
  constructionMarkdown: string;
  urlMarkdown: string;
  pathVariables: Array<{ name: string; defaultLiteral: string; docLines: string[] }>;
  typeImports: string[];
  /** The interface naming each method's documented errors, e.g. `PChainClientErrors`. */
  errorsName: string;
  /** A literal array of the keys whose values error excerpts hide (`x-sensitive`), or empty when there are none. */
  sensitiveKeys: string;
  methods: MethodView[];
  /**
   * The releases of the methods that have a range, as a literal for the runtime's `nodeVersion` check; `{}` when none.
   */
  releasesLiteral: string;
}

export interface MethodView {
  name: string;
  /** For the docs comment of the paged iterator. */
  wireComment: string;
  wireLiteral: string;
  /** For the README's table. */
  wireMarkdown: string;
  summaryMarkdown: string;
  deprecated: boolean;
  /** The parameter list, e.g. `params: PlatformGetBalanceParams = {}, options?: CallOptions`. */
  signature: string;
  /** Signatures ahead of the implementation's, when the result depends on a param's value (`encoding: 'json'`). */
  overloads: Array<{ signature: string; resultType: string }>;
  paramsArgument: string;
  resultType: string;
  docLines: string[];
  /** For a paginated method: the iterator's name, its paging literal and item type. */
  pages?: { name: string; paging: string; itemType: string };
  /** The documented errors' names as a union of literals, and as a table of code and message pattern. */
  errorNames: string;
  errorTable: string;
}

export function packageView(model: SpecModel): PackageView {
  return {
    ...packageFacts(
      model,
      PACKAGE_NAME,
      `Typed JSON-RPC clients for ${model.endpoints.map((e) => e.title || e.name).join('; ')}.`,
    ),
    example: usageExample(model),
    endpoints: model.endpoints.map((endpoint) => endpointView(model, endpoint)),
  };
}

/**
 * A call of the largest endpoint, from the first example of its first current method that answers an object:
 * `const { block, encoding } = await client.getBlock({ ... });`.
 */
function usageExample(model: SpecModel): string {
  const endpoint = [...model.endpoints].sort((a, b) => b.methods.length - a.methods.length)[0];
  if (!endpoint) return `import {} from '${PACKAGE_NAME}';`;
  for (const method of endpoint.methods.filter((m) => !m.deprecated)) {
    const example = method.examples.find(
      (e) =>
        !largerThan(e.params, MAX_SHOWN_EXAMPLE) &&
        e.result !== null &&
        typeof e.result === 'object' &&
        !Array.isArray(e.result) &&
        Object.keys(e.result).length > 0,
    );
    if (!example) continue;
    const fields = Object.keys(example.result as object).sort();
    return clientSnippet(
      endpoint,
      method,
      example,
      fields.every((f) => IDENTIFIER.test(f)) ? `{ ${fields.join(', ')} }` : 'result',
    );
  }
  return clientSetup(endpoint).join('\n');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function endpointView(model: SpecModel, endpoint: EndpointModel): EndpointView {
  const className = clientClassName(endpoint.typeName);
  const typeNames = new Set<string>();
  const methods = endpoint.methods.map((method): MethodView => {
    const hasParams = method.params.length > 0;
    const resultType = method.result ? method.typeNames.result : 'void';
    if (hasParams) typeNames.add(method.typeNames.params);
    if (method.result) typeNames.add(method.typeNames.result);
    const paramsOptional = method.params.every((p) => !p.required);
    const signatures = hasParams ? overloads(model, method, method.typeNames.params, resultType) : [];
    for (const name of signatures.flatMap((o) => o.types ?? [])) typeNames.add(name);
    const general = signatures.at(-1);
    const paramList = (type: string, defaulted: boolean) =>
      `params${paramsOptional && !defaulted ? '?' : ''}: ${type}${paramsOptional && defaulted ? ' = {}' : ''}, ` +
      'options?: CallOptions';
    return {
      name: method.shortName,
      wireComment: commentText(method.name),
      wireLiteral: literal(method.name),
      wireMarkdown: markdownCode(method.name),
      summaryMarkdown: markdownText(method.summary),
      deprecated: method.deprecated,
      signature: general ? paramList(general.params, true) : 'options?: CallOptions',
      overloads:
        signatures.length > 1
          ? signatures.map((o) => ({
              signature: o.paramsRequired ? `params: ${o.params}, options?: CallOptions` : paramList(o.params, false),
              resultType: o.result,
            }))
          : [],
      paramsArgument: hasParams ? 'params' : '{}',
      resultType,
      docLines: methodComment(model, endpoint, method),
      ...(method.pagination && hasParams
        ? {
            pages: {
              name: `${method.shortName}All`,
              paging: `{ ${Object.entries(method.pagination)
                .map(([key, value]) => `${propertyKey(key)}: ${literal(value as Json)}`)
                .join(', ')} }`,
              itemType: `${resultType}[${literal(method.pagination.itemsField)}][number]`,
            },
          }
        : {}),
      errorNames: method.errors.map((e) => literal(e.name)).join(' | ') || 'never',
      errorTable: `{ ${method.errors
        .map((e) => `${propertyKey(e.name)}: [${e.code}, ${regexLiteral(messagePattern(e.message))}]`)
        .join(', ')} }`,
    };
  });
  return {
    header: headerText([endpoint.file]),
    module: endpoint.name,
    className,
    optionsName: clientOptionsName(endpoint.typeName),
    titleMarkdown: markdownText(endpoint.title),
    constructionMarkdown: markdownCode(clientConstruction(endpoint)),
    urlMarkdown: markdownCode(endpoint.urlTemplate),
    docLines: commentLines([
      endpoint.title,
      endpoint.description,
      `Sends JSON-RPC 2.0 calls to \`${endpoint.urlTemplate}\`.`,
    ]),
    defaultBaseUrl: literal(endpoint.defaultBaseUrl),
    pathTemplate: literal(endpoint.pathTemplate),
    pathVariables: endpoint.pathVariables.map((variable) => ({
      name: variable.name,
      defaultLiteral: literal(variable.default),
      docLines: commentLines([variable.description, `Default \`${variable.default}\`.`]),
    })),
    typeImports: [...typeNames].sort(),
    errorsName: clientErrorsName(endpoint.typeName),
    sensitiveKeys: ((keys) => (keys.length > 0 ? literal(keys) : ''))(sensitiveKeys(endpoint, model.schemas)),
    methods,
    releasesLiteral: literal(
      Object.fromEntries(
        endpoint.methods
          .filter((m) => m.versions.since || m.versions.removedIn || m.versions.lastVersion)
          .map((m) => [
            m.name,
            Object.fromEntries(
              Object.entries({
                since: m.versions.since,
                lastVersion: m.versions.lastVersion,
                removedIn: m.versions.removedIn,
              }).filter(([, v]) => v),
            ),
          ]),
      ) as Json,
    ),
  };
}
