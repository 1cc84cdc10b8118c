/**
 * One example, four ways: the JSON-RPC request and response as they go over the wire, the same call as a `curl`
 * command, and as a few lines of TypeScript using the generated client.
 */
import type { EndpointModel, ExampleModel, Json, MethodModel } from '../model/types.ts';
import { shownExample } from '../shared/example-size.ts';
import { clientSnippet } from '../shared/snippets.ts';
import { type Html, html, joinHtml } from './html.ts';
import { type MethodLinker, renderMarkdown } from './markdown.ts';

export interface ExampleView {
  name: string;
  summary: string;
  description: Html | null;
  request: Html;
  response: Html;
  /** The request as plain JSON text, for the "try it" form. */
  requestText: string;
  curl: string;
  typescript: string;
}

/** Where the generated client sends by default: the server's URL, every variable at its default. */
export function endpointUrl(endpoint: EndpointModel): string {
  return `${endpoint.defaultOrigin}${endpoint.defaultPath}`;
}

/**
 * Where the generated client sends a call of `method` by default: the method's own server (OpenRPC Method Object
 * `servers`) if it has one, else the endpoint's; a variable the method's URL names but does not define at the
 * endpoint's default, as the client fills it.
 */
export function methodTarget(endpoint: EndpointModel, method: MethodModel): { origin: string; path: string } {
  if (!method.server) return { origin: endpoint.defaultOrigin, path: endpoint.defaultPath };
  const defaults = new Map(endpoint.pathVariables.map((variable) => [variable.name, variable.default]));
  const fill = (template: string, encode: (value: string) => string) =>
    template.replace(/\{([^}]+)\}/g, (_, name: string) => encode(defaults.get(name) ?? ''));
  return {
    origin: fill(method.server.baseUrl, (value) => value),
    path: fill(method.server.pathTemplate, encodeURIComponent),
  };
}

function jsonRpcRequest(
  method: MethodModel,
  example: ExampleModel,
): { jsonrpc: '2.0'; id: number; method: string; params: Json } {
  return { jsonrpc: '2.0', id: 1, method: method.name, params: example.params };
}

export function exampleView(
  clientPackage: string,
  endpoint: EndpointModel,
  method: MethodModel,
  example: ExampleModel,
  linker: MethodLinker,
): ExampleView {
  const shown = { ...example, params: shownParams(example.params), result: shownExample(example.result) };
  const request = jsonRpcRequest(method, shown);
  const requestText = JSON.stringify(request, null, 2);
  return {
    name: example.name,
    summary: example.summary ?? '',
    description: example.description ? renderMarkdown(example.description, linker) : null,
    request: highlightJson(request),
    response: highlightJson({ jsonrpc: '2.0', id: 1, result: shown.result }),
    requestText,
    curl:
      `curl -X POST --data ${shellQuote(requestText)} \\\n  -H 'content-type:application/json;' \\\n  ` +
      `${shellQuote(Object.values(methodTarget(endpoint, method)).join(''))}`,
    typescript: clientSnippet(clientPackage, endpoint, method, shown),
  };
}

/** Each param's value, or a note of its size where it is too large to show. */
function shownParams(params: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, shownExample(value)]));
}

/**
 * A shell word: bare when it is plainly safe (a usual URL), else single-quoted, so a pasted command runs nothing else.
 */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_\-.:/@%+=,]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** JSON.stringify(value, null, 2), with spans for keys, strings, numbers and literals. */
function highlightJson(value: Json, indent = ''): Html {
  if (typeof value === 'string') return html`<span class="j-str">${JSON.stringify(value)}</span>`;
  if (typeof value === 'number') return html`<span class="j-num">${JSON.stringify(value)}</span>`;
  if (value === null || typeof value === 'boolean') return html`<span class="j-lit">${JSON.stringify(value)}</span>`;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`[]`;
    return html`[\n${joinHtml(
      value.map((item) => html`${inner}${highlightJson(item, inner)}`),
      ',\n',
    )}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return html`{}`;
  const lines = entries.map(
    ([key, item]) => html`${inner}<span class="j-key">${JSON.stringify(key)}</span>: ${highlightJson(item, inner)}`,
  );
  return html`{\n${joinHtml(lines, ',\n')}\n${indent}}`;
}
