/** What the client templates show, computed from the model: the templates only lay it out. */
import { headerText } from '../emit/header.ts';
import { jsLiteral as literal } from '../emit/literal.ts';
import { type PackageFacts, installPath, packageFacts } from '../emit/package.ts';
import { clientClassName, clientErrorClassName, clientErrorsName, clientOptionsName } from '../model/names.ts';
import { sensitiveKeys } from '../model/sensitive.ts';
import type { EndpointModel, Json, MethodModel, SpecModel } from '../model/types.ts';
import { commentLines } from '../shared/comments.ts';
import { MAX_SHOWN_EXAMPLE, largerThan } from '../shared/example-size.ts';
import { IDENTIFIER, commentText, markdownCode, markdownText } from '../shared/escape.ts';
import { clientConstruction, clientSetup, clientSnippet } from '../shared/snippets.ts';
import { type ReadmeFacts, readmeFacts, tableSummary } from './readme.ts';
import { methodComment } from './docs.ts';
import { overloads } from './narrow.ts';
import { WIDTH, callText, propertyText, unionMember } from '../shared/lines.ts';
import { errorsTable } from './errors-table.ts';
import { type Namespace, namespacesOf } from '../shared/namespaces.ts';

export interface PackageView extends PackageFacts {
  /** The name the package exports the runtime's base error class by (names.ts `clientErrorClassName`). */
  errorClass: string;
  /** Its entry in the index's export list: `RpcError`, or `RpcError as <errorClass>`. */
  errorClassExport: string;
  /** A short usage example for the README, from the spec's own examples. */
  example: string;
  /** What else the README says that depends on the spec (readme.ts). */
  readme: ReadmeFacts;
  endpoints: EndpointView[];
}

export interface EndpointView {
  header: string;
  /** Module file name without extension, e.g. `p-chain`. */
  module: string;
  className: string;
  optionsName: string;
  /** The package index's export of the client, its errors and options types, over several lines where one is too wide. */
  indexExport: string;
  docLines: string[];
  /** For the README: the title, the constructor call and the URL it sends to. */
  titleMarkdown: string;
  constructionMarkdown: string;
  urlMarkdown: string;
  pathVariables: Array<{ name: string; defaultLiteral: string; docLines: string[] }>;
  typeImports: string[];
  /** The interface naming each method's documented errors, e.g. `PChainClientErrors`. */
  errorsName: string;
  /** The entries of `DOCUMENTED_ERRORS`: each distinct documented error once (errors-table.ts). */
  documentedErrors: string[];
  methods: MethodView[];
  /**
   * A namespaced document's namespaces (`client.fraud.subscribe()`), each a property whose members are written out
   * (`subscribe: this.fraudSubscribe.bind(this) as …,`); empty otherwise.
   */
  namespaces: Array<Omit<Namespace, 'members'> & { members: string[] }>;
  /**
   * The constructor's call of the runtime's: base URL, path template and variables, the releases of the methods that
   * have a range (for the runtime's `nodeVersion` check) and the keys whose values error excerpts hide (`x-sensitive`).
   */
  superCall: string;
  /** The wire names of the methods that take params by name, as a literal, when not all do (`call()` reads it). */
  paramsByName: string | undefined;
  /** The base URL and path of each method that has a server of its own, as a literal; undefined when none has. */
  methodServers: string | undefined;
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
  /** The overloads' declarations, when the result depends on a param's value (`encoding: 'json'`). */
  declarations: string[];
  /** The implementation's head, `getBalance(params: ..., options?: CallOptions): Promise<...> {`. */
  implementation: string;
  /** The call of the runtime's request that it returns. */
  request: string;
  docLines: string[];
  /** For a paginated method: the iterator's head and the call of the runtime's paginate that it returns. */
  pages?: { declaration: string; call: string };
  /** The documented errors' names as a member of the errors type, and as their entries of `DOCUMENTED_ERRORS`. */
  errorNames: string;
  errorTable: string;
}

export function packageView(model: SpecModel, out: string): PackageView {
  const errorClass = clientErrorClassName(model.packageNames.client);
  return {
    ...packageFacts(
      model,
      model.packageNames.client,
      `Typed JSON-RPC clients for ${model.endpoints.map((e) => e.title || e.name).join('; ')}.`,
      installPath(out, 'client'),
    ),
    errorClass,
    errorClassExport: errorClass === 'RpcError' ? errorClass : `RpcError as ${errorClass}`,
    example: usageExample(model),
    readme: readmeFacts(model, largestEndpoint(model)),
    endpoints: model.endpoints.map((endpoint) => endpointView(model, endpoint)),
  };
}

/**
 * A call of the largest endpoint, from the first example of its first current method that answers an object:
 * `const { block, encoding } = await client.getBlock({ ... });`.
 */
function usageExample(model: SpecModel): string {
  const endpoint = largestEndpoint(model);
  if (!endpoint) return `import {} from '${model.packageNames.client}';`;
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
      model.packageNames.client,
      endpoint,
      method,
      example,
      fields.every((f) => IDENTIFIER.test(f)) ? `{ ${fields.join(', ')} }` : 'result',
    );
  }
  return clientSetup(model.packageNames.client, endpoint).join('\n');
}

/** The endpoint with the most methods (the first of them), which the README's samples use. */
export function largestEndpoint(model: SpecModel): EndpointModel | undefined {
  return [...model.endpoints].sort((a, b) => b.methods.length - a.methods.length)[0];
}

function endpointView(model: SpecModel, endpoint: EndpointModel): EndpointView {
  const className = clientClassName(endpoint.typeName);
  const typeNames = new Set<string>();
  const errors = errorsTable(endpoint);
  const methods = endpoint.methods.map((method): MethodView => {
    const hasParams = method.params.length > 0;
    const resultType = method.result ? method.typeNames.result : 'void';
    if (hasParams) typeNames.add(method.typeNames.params);
    if (method.result) typeNames.add(method.typeNames.result);
    const paramsOptional = method.params.every((p) => !p.required);
    const signatures = hasParams ? overloads(model, method, method.typeNames.params, resultType, '    ') : [];
    for (const name of signatures.flatMap((o) => o.types ?? [])) typeNames.add(name);
    const general = signatures.at(-1);
    const paramList = (type: string, defaulted: boolean) => [
      `params${paramsOptional && !defaulted ? '?' : ''}: ${type}${paramsOptional && defaulted ? ' = {}' : ''}`,
      'options?: CallOptions',
    ];
    const parameters = general ? paramList(general.params, true) : ['options?: CallOptions'];
    const name = method.shortName;
    const request = method.result
      ? callText(
          '    ',
          `return this.request<${resultType}>`,
          [literal(method.name), sentParams(method), 'options', `ERRORS.${name}`],
          ';',
        )
      : callText('    ', 'return this.notify', [literal(method.name), sentParams(method), 'options'], ';');
    return {
      name,
      wireComment: commentText(method.name),
      wireLiteral: literal(method.name),
      wireMarkdown: markdownCode(method.name),
      summaryMarkdown: markdownText(tableSummary(method.summary)),
      deprecated: method.deprecated,
      declarations:
        signatures.length > 1
          ? signatures.map((o) =>
              callText(
                '  ',
                name,
                o.paramsRequired ? [`params: ${o.params}`, 'options?: CallOptions'] : paramList(o.params, false),
                `: Promise<${o.result}>;`,
              ),
            )
          : [],
      implementation: callText('  ', name, parameters, `: Promise<${resultType}> {`),
      request,
      docLines: methodComment(model, endpoint, method),
      ...(method.pagination && hasParams
        ? {
            pages: (() => {
              const itemType = `${resultType}[${literal(method.pagination.itemsField)}][number]`;
              const paging = literal(method.pagination as unknown as Json, '      ');
              return {
                declaration: callText(
                  '  ',
                  `${name}All`,
                  parameters,
                  `: AsyncGenerator<${itemType}, void, undefined> {`,
                ),
                call: callText(
                  '    ',
                  `return this.paginate<${itemType}>`,
                  [literal(method.name), 'params', 'options', `ERRORS.${name}`, paging],
                  ';',
                ),
              };
            })(),
          }
        : {}),
      errorNames: unionMember(
        '  ',
        name,
        method.errors.length > 0 ? method.errors.map((e) => literal(e.name)) : ['never'],
      ),
      errorTable: errors.byMethod.get(method.shortName)!,
    };
  });
  const optionsName = clientOptionsName(endpoint.typeName);
  const errorsName = clientErrorsName(endpoint.typeName);
  return {
    header: headerText([endpoint.file]),
    module: endpoint.name,
    className,
    optionsName,
    indexExport: exportText([className, `type ${errorsName}`, `type ${optionsName}`], `./${endpoint.name}.js`),
    titleMarkdown: markdownText(endpoint.title),
    constructionMarkdown: markdownCode(clientConstruction(endpoint)),
    urlMarkdown: markdownCode(endpoint.urlTemplate),
    docLines: commentLines([
      endpoint.title,
      endpoint.description,
      `Sends JSON-RPC 2.0 calls to \`${endpoint.urlTemplate}\`.`,
    ]),
    pathVariables: endpoint.pathVariables.map((variable) => ({
      name: variable.name,
      defaultLiteral: literal(variable.default),
      docLines: commentLines([
        variable.description,
        `Default \`${variable.default}\`${variable.enum.length > 0 ? `; one of ${variable.enum.map((v) => `\`${v}\``).join(', ')}` : ''}.`,
      ]),
    })),
    typeImports: [...typeNames].sort(),
    errorsName,
    documentedErrors: errors.documented,
    methods,
    namespaces: namespacesOf(endpoint).map((namespace) => ({
      ...namespace,
      members: namespace.members.map(({ member, method }) =>
        propertyText('    ', member, `this.${method}.bind(this) as ${className}['${method}']`),
      ),
    })),
    // A document without methods says nothing of its own, so OpenRPC's default, `either`, holds: an array.
    paramsByName:
      endpoint.methods.length > 0 && endpoint.methods.every((m) => m.paramStructure === 'by-name')
        ? undefined
        : literal(
            endpoint.methods.filter((m) => m.paramStructure === 'by-name').map((m) => m.name),
            '  ',
          ),
    methodServers: ((servers) => (servers.length > 0 ? literal(Object.fromEntries(servers), '  ') : undefined))(
      endpoint.methods.flatMap((m) => (m.server ? [[m.name, [m.server.baseUrl, m.server.pathTemplate]]] : [])),
    ),
    superCall: callText(
      '    ',
      'super',
      [
        'options',
        literal(endpoint.defaultBaseUrl),
        literal(endpoint.pathTemplate),
        endpoint.pathVariables.length === 0
          ? '{}'
          : `{ ${endpoint.pathVariables.map((v) => `${v.name}: options.${v.name} ?? ${literal(v.default)}`).join(', ')} }`,
        literal(releases(endpoint), '      '),
        ...((keys) => (keys.length > 0 ? [literal(keys, '      ')] : []))(sensitiveKeys(endpoint, model.schemas)),
      ],
      ';',
    ),
  };
}

/** `export { a, b } from 'module';`, or its names one a line where one line would pass WIDTH. */
function exportText(names: string[], module: string): string {
  const line = `export { ${names.join(', ')} } from ${literal(module)};`;
  return line.length <= WIDTH
    ? line
    : `export {\n${names.map((name) => `  ${name},\n`).join('')}} from ${literal(module)};`;
}

/**
 * The params as sent: a by-name method's object as given; otherwise (by-position, or `either`, which the field's
 * servers, go-ethereum's among them, take only as an array) an array in the declared order.
 */
function sentParams(method: MethodModel): string {
  const byName = method.paramStructure === 'by-name';
  if (method.params.length === 0) return byName ? '{}' : '[]';
  return byName ? 'params' : `this.positional(params, ${literal(method.params.map((p) => p.name))})`;
}

/** The releases of the methods that have a range, for the runtime's `nodeVersion` check. */
function releases(endpoint: EndpointModel): Json {
  return Object.fromEntries(
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
  ) as Json;
}
