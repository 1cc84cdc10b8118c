/** What the server templates show, computed from the model: the templates only lay it out. */
import { commentLines, deprecation } from '../shared/comments.ts';
import { commentText, markdownCode, markdownText, propertyKey } from '../shared/escape.ts';
import { headerText } from '../emit/header.ts';
import { jsLiteral as literal } from '../emit/literal.ts';
import { type PackageFacts, installPath, packageFacts } from '../emit/package.ts';
import { serverNames, validatorNames } from '../model/names.ts';
import { namespacesOf } from '../shared/namespaces.ts';
import type { EndpointModel, Json, MethodModel, SpecModel } from '../model/types.ts';
import { lifecycle } from '../model/versions.ts';
import { WIDTH, callText, stringText, unionAfter } from '../shared/lines.ts';
import { Code, type ShapeLiteral, endpointShapes } from './shapes.ts';

export interface ServerPackageView extends PackageFacts {
  /** A string literal: the node's message for params that fail to decode. */
  invalidArgument: string;
  endpoints: ServerEndpointView[];
  /** Whether the endpoints answer as AvalancheGo by default (`profile: 'node'`), else as plain JSON-RPC 2.0. */
  nodeProfile: boolean;
  /** Some endpoint declares `rpc.discover`: it answers it only when created with `discover: false`. */
  discoverDeclared: boolean;
  /**
   * The README's example: the endpoint with the most methods, served at its default path (`path`, a string literal)
   * on its server's port, and its first method.
   */
  example?: { createName: string; handlersName: string; path: string; port: number; key: string };
}

export interface ServerEndpointView {
  header: string;
  /** A string literal: the node's message for params that fail to decode, which the runtime is given. */
  invalidArgument: string;
  module: string;
  nameLiteral: string;
  /** The endpoint's property in ENDPOINTS. */
  nameKey: string;
  /** The title and path for a one-line comment, and for the README's table. */
  titleComment: string;
  pathComment: string;
  titleMarkdown: string;
  pathMarkdown: string;
  /** String literals: the endpoint's default path, and the list of its alias paths. */
  pathLiteral: string;
  aliasesLiteral: string;
  handlersName: string;
  createName: string;
  /** What index.ts imports from the endpoint's module and exports, braces included; the factory's signature. */
  indexImport: string;
  indexExport: string;
  createSignature: string;
  /** The options the factory passes on: its own, with the profile of a foreign document and the declared discovery's. */
  defaultOptions: string;
  /**
   * The handler key of the document's own `rpc.discover`, when it declares one: the factory answers it with the bundled
   * document through that declaration, its params and result checked as the document says (unless `discover: false`).
   */
  discoverKey: string | undefined;
  methodsName: string;
  documentName: string;
  docLines: string[];
  /** The comments of the method table and of the factory. */
  methodsDocLines: string[];
  createDocLines: string[];
  /** What `import type` takes from types.js, braces included: one name a line when one line would be too wide. */
  typeImports: string;
  /** The decoding shapes of the components the params use, as constant declarations (see shapes.ts). */
  shapes: string[];
  methods: ServerMethodView[];
  /** A namespaced document's handlers grouped by namespace (client/view.ts groups the client alike); else absent. */
  grouped:
    | {
        name: string;
        ungroup: string;
        /** The flat handler keys the groups stand for, as a union of literals. */
        keys: string;
        namespaces: ReturnType<typeof namespacesOf>;
      }
    | undefined;
}

export interface ServerMethodView {
  index: number;
  key: string;
  keyLiteral: string;
  wireLiteral: string;
  /** The handler's signature in the handlers interface, over several lines when one would be too wide. */
  signature: string;
  paramsLiteral: string;
  byName: boolean;
  shapeLiteral: string;
  /** The validators module's result writer for this method (see validatorNames). */
  writeResult: string;
  docLines: string[];
}

export function serverPackageView(model: SpecModel, out: string): ServerPackageView {
  const message = invalidArgumentMessage(model);
  const invalidArgument = stringText(message, 'export const INVALID_ARGUMENT: string = '.length, '  ');
  return {
    ...packageFacts(
      model,
      model.packageNames.server,
      `Server stubs for ${model.endpoints.map((e) => e.title || e.name).join('; ')}: ` +
        (model.profile === 'avalanche'
          ? 'typed handlers behind an RPC layer that answers like AvalancheGo.'
          : 'typed handlers behind a JSON-RPC 2.0 layer.'),
      installPath(out, 'server'),
    ),
    invalidArgument,
    endpoints: model.endpoints.map((endpoint) =>
      endpointView(model, endpoint, stringText(message, '    invalidArgument: '.length, '      ')),
    ),
    nodeProfile: model.profile === 'avalanche',
    discoverDeclared: model.endpoints.some((e) => e.methods.some((m) => m.name === 'rpc.discover')),
    ...readmeExample(model),
  };
}

function readmeExample(model: SpecModel): Pick<ServerPackageView, 'example'> {
  const endpoint = [...model.endpoints].sort((a, b) => b.methods.length - a.methods.length)[0];
  const method = endpoint?.methods[0];
  if (!endpoint || !method) return {};
  const names = serverNames(endpoint.typeName);
  return {
    example: {
      createName: names.create,
      handlersName: names.handlers,
      path: literal(endpoint.defaultPath),
      port: portOf(endpoint.defaultBaseUrl),
      key: propertyKey(method.shortName),
    },
  };
}

/** The port of the server's URL, where the README's sample listens; 8080 where the URL names none (or is no URL). */
function portOf(baseUrl: string): number {
  try {
    return Number(new URL(baseUrl).port) || 8080;
  } catch {
    return 8080;
  }
}

/**
 * The node's text for params that fail to decode (the model's `invalidArgument`), which all endpoints must agree on.
 * A spec without one (a small test fixture) gets JSON-RPC 2.0's own wording.
 */
function invalidArgumentMessage(model: SpecModel): string {
  const messages = new Set(model.endpoints.map((endpoint) => endpoint.invalidArgument).filter(Boolean));
  if (messages.size > 1)
    throw new Error(`the endpoints disagree on the message of the InvalidArgument error: ${[...messages].join(' / ')}`);
  return [...messages][0] ?? 'Invalid params';
}

const EMPTY = 'Record<string, never>';

function endpointView(model: SpecModel, endpoint: EndpointModel, invalidArgument: string): ServerEndpointView {
  const names = serverNames(endpoint.typeName);
  const typeNames = new Set<string>();
  const shapes = endpointShapes(model, endpoint);
  const methods = endpoint.methods.map((method, index): ServerMethodView => {
    if (method.params.length > 0) typeNames.add(method.typeNames.params);
    if (method.result) typeNames.add(method.typeNames.result);
    return {
      index,
      key: method.shortName,
      keyLiteral: literal(method.shortName),
      wireLiteral: literal(method.name),
      signature: handlerSignature(
        method.shortName,
        method.params.length > 0 ? method.typeNames.params : EMPTY,
        method.result ? method.typeNames.result : EMPTY,
      ),
      paramsLiteral: compactLiteral(
        method.params.map((p) => p.name),
        '    ',
      ),
      // OpenRPC's default, `either`, takes an array by position as well as an object.
      byName: method.paramStructure === 'by-name',
      shapeLiteral: compactLiteral(shapes.methods[index]!, '    '),
      writeResult: validatorNames(method.name).writer,
      docLines: handlerComment(model, endpoint, method),
    };
  });
  const discoverMethod = endpoint.methods.find((method) => method.name === 'rpc.discover');
  return {
    header: headerText([endpoint.file]),
    invalidArgument,
    module: endpoint.name,
    nameLiteral: literal(endpoint.name),
    nameKey: propertyKey(endpoint.name),
    titleComment: commentText(endpoint.title),
    pathComment: commentText(endpoint.pathTemplate),
    titleMarkdown: markdownText(endpoint.title),
    pathMarkdown: markdownCode(endpoint.pathTemplate),
    pathLiteral: literal(endpoint.defaultPath),
    aliasesLiteral: literal(endpoint.aliases, '    '),
    handlersName: names.handlers,
    createName: names.create,
    defaultOptions: ((declared) => {
      const profile = endpoint.profile === 'avalanche' ? '' : "profile: 'jsonrpc2', ";
      return declared || profile ? `{ ${profile}...options${declared ? ', discover: false' : ''} }` : 'options';
    })(discoverMethod !== undefined),
    discoverKey: discoverMethod ? propertyKey(discoverMethod.shortName) : undefined,
    methodsName: names.methods,
    documentName: names.document,
    docLines: commentLines([
      `Handlers of ${endpoint.title}, one per JSON-RPC method, keyed by its client method name.`,
      endpoint.description,
    ]),
    methodsDocLines: commentLines([
      `What the RPC layer knows of each method of ${endpoint.title}: wire name, params, how to decode and validate them.`,
    ]),
    createDocLines: commentLines([
      `The ${endpoint.title} endpoint on \`handlers\`: mount its \`node\` listener on a node:http server (at ` +
        `\`${endpoint.pathTemplate}\`), or call its \`fetch\` with a Request. Params are validated before a handler ` +
        'runs. Handlers may be left out: a method without one answers as a node that does not have it ' +
        '("can\'t find method").',
    ]),
    typeImports: importList([...typeNames].sort(), "import type  from './types.js';".length),
    indexImport: importList(
      [names.create, names.methods, `type ${names.handlers}`],
      `import  from './${endpoint.name}.js';`.length,
    ),
    indexExport: importList([names.create, names.methods, `type ${names.handlers}`, names.document], 'export ;'.length),
    createSignature: callText(
      '',
      `export function ${names.create}`,
      [`handlers: Partial<${names.handlers}>`, 'options?: EndpointOptions'],
      ': Endpoint {',
    ).slice(0, -' {'.length),
    shapes: shapes.declarations.map(({ name, shape }) => {
      const head = `const ${name}: Shape = `;
      return `${head}${compactLiteral(shape, '', head.length)};`;
    }),
    methods,
    // Always present: the templates' strict mode refuses a missing field, `{{#if}}` included.
    grouped: endpoint.methods.some((method) => method.namespace)
      ? {
          name: names.grouped,
          ungroup: names.ungroup,
          keys: omittedKeys(
            endpoint.methods.filter((method) => method.namespace).map((method) => literal(method.shortName)),
            `export interface ${names.grouped} extends Omit<${names.handlers},`.length,
          ),
          namespaces: namespacesOf(endpoint),
        }
      : undefined,
  };
}

/**
 * `{ A, B }`, or the names one a line when `{ A, B }` and `rest` characters around it would pass WIDTH; empty for none
 * (imports and exports alike).
 */
function importList(names: string[], rest: number): string {
  if (names.length === 0) return '';
  const line = `{ ${names.join(', ')} }`;
  return line.length + rest <= WIDTH ? line : `{\n${names.map((name) => `  ${name},\n`).join('')}}`;
}

/** `key(params, context): Answer<Result>;` at two spaces in, its parameters a line each when it would pass WIDTH. */
function handlerSignature(key: string, paramsType: string, resultType: string): string {
  return callText('  ', key, [`params: ${paramsType}`, 'context: HandlerContext'], `: Answer<${resultType}>;`);
}

/**
 * OpenRPC's service discovery method, which the endpoint answers itself with its bundled document: a spec that declares
 * it keeps its typed handler, said here to run only with `discover: false`.
 */
const discovery = (method: MethodModel) =>
  method.name === 'rpc.discover'
    ? 'The endpoint answers it itself with its bundled document, as this declaration says, unless created with ' +
      '`discover: false`: only then does this handler run.'
    : '';

function handlerComment(model: SpecModel, endpoint: EndpointModel, method: MethodModel): string[] {
  const served = [`Answers \`${method.name}\` at \`${endpoint.pathTemplate}\`.`, discovery(method), lifecycle(method)]
    .filter(Boolean)
    .join(' ');
  const tags = [
    `@returns ${method.result?.description.replace(/\s+/g, ' ').trim() || 'The result.'} ` +
      'Throw an RpcError (or any Error, which the node profile sends as -32000 with its message) to fail the call.',
  ];
  if (method.deprecated) tags.push(`@deprecated ${deprecation(model, method, { link: false })}`);
  return commentLines([method.summary, served, tags.join('\n')]);
}

/**
 * A literal on one line where it fits in 100 columns from `column`, else one entry a line, likewise inside. Code is
 * written as it is; a late one as a getter, as the constant it names is declared after this literal is evaluated.
 */
function compactLiteral(value: Json | ShapeLiteral | Code, indent: string, column = indent.length): string {
  if (value instanceof Code) return value.text;
  if (value === null || typeof value !== 'object') return literal(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => compactLiteral(item, inner))
    : Object.entries(value).map(([key, item]) => {
        if (item instanceof Code && item.late) return `get ${propertyKey(key)}() { return ${item.text}; }`;
        const head = `${propertyKey(key)}: `;
        return head + compactLiteral(item, inner, inner.length + head.length);
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  const oneLine = entries.length === 0 ? open.trim() + close.trim() : `${open}${entries.join(', ')}${close}`;
  if (column + oneLine.length <= 100 && !oneLine.includes('\n')) return oneLine;
  return `${open.trim()}\n${entries.map((entry) => `${inner}${entry},`).join('\n')}\n${indent}${close.trim()}`;
}

/** The keys of the template's `Omit<Handlers,{{{keys}}}> {`: on its line, or one a line with `>` on its own. */
function omittedKeys(members: string[], column: number): string {
  const union = unionAfter(column, '', members, '> {');
  return union.includes('\n') ? `${union}\n` : union;
}
