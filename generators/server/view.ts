/** What the server templates show, computed from the model: the templates only lay it out. */
import { availability, commentLines } from '../client/docs.ts';
import { packageView as clientPackageView } from '../client/view.ts';
import { headerText } from '../emit/header.ts';
import { serverNames } from '../model/names.ts';
import type { EndpointModel, MethodModel, SpecModel } from '../model/types.ts';
import { paramsShape } from './shapes.ts';

export const SERVER_PACKAGE_NAME = '@avalanche-openrpc/server';

export interface ServerPackageView {
  header: string;
  name: string;
  version: string;
  description: string;
  license: string | undefined;
  endpoints: ServerEndpointView[];
}

export interface ServerEndpointView {
  header: string;
  module: string;
  nameLiteral: string;
  title: string;
  pathTemplate: string;
  handlersName: string;
  createName: string;
  methodsName: string;
  documentName: string;
  docLines: string[];
  typeImports: string;
  methods: ServerMethodView[];
}

export interface ServerMethodView {
  index: number;
  key: string;
  keyLiteral: string;
  wireLiteral: string;
  paramsType: string;
  resultType: string;
  paramsLiteral: string;
  byName: boolean;
  shapeLiteral: string;
  docLines: string[];
}

export function serverPackageView(model: SpecModel): ServerPackageView {
  const client = clientPackageView(model);
  return {
    header: client.header,
    name: SERVER_PACKAGE_NAME,
    version: client.version,
    description: `Server stubs for ${model.endpoints.map((e) => e.title || e.name).join('; ')}: typed handlers behind an RPC layer that answers like AvalancheGo.`,
    license: client.license,
    endpoints: model.endpoints.map((endpoint) => endpointView(model, endpoint)),
  };
}

const EMPTY = 'Record<string, never>';

function endpointView(model: SpecModel, endpoint: EndpointModel): ServerEndpointView {
  const names = serverNames(endpoint.typeName);
  const keys = new Map<string, string>();
  const typeNames = new Set<string>();
  const methods = endpoint.methods.map((method, index): ServerMethodView => {
    const other = keys.get(method.shortName);
    if (other) throw new Error(`${endpoint.file}: ${other} and ${method.name} would share the handler name ${method.shortName}`);
    keys.set(method.shortName, method.name);
    if (method.params.length > 0) typeNames.add(method.typeNames.params);
    if (method.result) typeNames.add(method.typeNames.result);
    return {
      index,
      key: method.shortName,
      keyLiteral: literal(method.shortName),
      wireLiteral: literal(method.name),
      paramsType: method.params.length > 0 ? method.typeNames.params : EMPTY,
      resultType: method.result ? method.typeNames.result : EMPTY,
      paramsLiteral: JSON.stringify(method.params.map((p) => p.name)),
      byName: method.params.length === 0 || paramStructure(endpoint, method) !== 'by-position',
      shapeLiteral: JSON.stringify(paramsShape(model, method)),
      docLines: handlerComment(endpoint, method),
    };
  });
  return {
    header: headerText([endpoint.file]),
    module: endpoint.name,
    nameLiteral: literal(endpoint.name),
    title: endpoint.title,
    pathTemplate: endpoint.pathTemplate,
    handlersName: names.handlers,
    createName: names.create,
    methodsName: names.methods,
    documentName: names.document,
    docLines: commentLines([`Handlers of ${endpoint.title}, one per JSON-RPC method, keyed by the part of its name after the dot.`, endpoint.description]),
    typeImports: [...typeNames].sort().join(', '),
    methods,
  };
}

function paramStructure(endpoint: EndpointModel, method: MethodModel): string {
  const methods = endpoint.document.methods as Array<{ paramStructure?: string }>;
  return methods[method.index]?.paramStructure ?? 'either';
}

function handlerComment(endpoint: EndpointModel, method: MethodModel): string[] {
  const served = [`Answers \`${method.name}\` at \`${endpoint.pathTemplate}\`.`, availability(method.versions)].filter(Boolean).join(' ');
  const tags = [`@returns ${method.result?.description.replace(/\s+/g, ' ').trim() || 'The result.'} Throw an RpcError (or any Error, which the node profile sends as -32000 with its message) to fail the call.`];
  if (method.deprecated) tags.push(`@deprecated ${method.versions.deprecatedSince ? `since AvalancheGo ${method.versions.deprecatedSince}` : ''}${method.replacement ? `; instead: ${method.replacement}` : ''}`.trim());
  return commentLines([method.summary, served, tags.join('\n')]);
}

function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}
