/**
 * OpenRPC Server Objects as the model reads them: the URL template split into the client's base URL and path, and the
 * URL every variable at its default gives, which is where the generated client sends a call unless told otherwise.
 */
import type { EndpointModel, MethodModel } from './types.ts';

type Obj = Record<string, unknown>;
type Variables = Record<string, Obj>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

type EndpointServer = Pick<
  EndpointModel,
  | 'urlTemplate'
  | 'serverDescription'
  | 'pathTemplate'
  | 'defaultPath'
  | 'pathVariables'
  | 'defaultBaseUrl'
  | 'defaultOrigin'
>;

/**
 * The endpoint's first server. A document without one has OpenRPC's default, "a Server Object with a url value of
 * `localhost`" (OpenRPC 1.3.2, `servers`).
 */
export function endpointServer(server: Obj = { url: 'localhost' }): EndpointServer {
  const variables = (server.variables ?? {}) as Variables;
  const urlTemplate = templateOf(server.url, variables);
  const { defaultBaseUrl, pathTemplate } = splitServerUrl(urlTemplate, variables);
  // In the order the URL names them (an object's key order is the author's formatting, not a fact of the API).
  const position = (name: string) => urlTemplate.indexOf(`{${name}}`);
  const pathVariables = Object.entries(variables)
    .filter(([name]) => name !== 'baseUrl')
    .sort(([a], [b]) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, variable]) => ({
      name,
      default: str(variable.default),
      description: str(variable.description),
      enum: Array.isArray(variable.enum) ? variable.enum.map(str) : [],
    }));
  return {
    urlTemplate,
    serverDescription: str(server.description),
    pathTemplate,
    defaultPath: filled(pathTemplate, variables),
    pathVariables,
    defaultBaseUrl,
    defaultOrigin: filled(defaultBaseUrl, variables),
  };
}

/**
 * A method's own first server (OpenRPC 1.3.2 Method Object `servers`), its own variables at their defaults; a variable
 * it does not define is left for the client to fill from the endpoint's.
 */
export function methodServer(method: Obj): MethodModel['server'] {
  const server = (method.servers as Obj[] | undefined)?.[0];
  if (!server || typeof server.url !== 'string') return undefined;
  const variables = (server.variables ?? {}) as Variables;
  const url = templateOf(server.url, variables).replace(/\{([^}]+)\}/g, (whole, name: string) =>
    name !== 'baseUrl' && Object.hasOwn(variables, name) ? str(variables[name]!.default) : whole,
  );
  const { defaultBaseUrl, pathTemplate } = splitServerUrl(url, variables);
  return { baseUrl: defaultBaseUrl, pathTemplate };
}

/**
 * The URL as OpenRPC's `{name}` template: a declared variable written `${name}` is read as `{name}`, since the OpenRPC
 * project's own examples write them so (`http://${username}.simple-math.example.org`), and the `$` left in front of
 * the value would make the URL one no server answers at.
 */
function templateOf(url: unknown, variables: Variables): string {
  return withScheme(str(url)).replace(/\$\{([^}]+)\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? `{${name}}` : whole,
  );
}

/**
 * A URL that starts with a host, written without a scheme (OpenRPC's own default, `localhost`), as HTTP: read as a path,
 * `localhost:8545/rpc` would be sent to the default host's `/localhost:8545/rpc`.
 */
function withScheme(url: string): string {
  // `localhost:8545` is a host and a port, not a scheme `localhost:`.
  const hostPort = /^[^/:?#{$]+:\d+(?:[/?#]|$)/.test(url);
  return url === '' || (!hostPort && /^(?:[a-z][a-z0-9+.-]*:|[/{$?#])/i.test(url)) ? url : `http://${url}`;
}

/** The template with every variable at its default, as the client fills it (an undeclared one with nothing). */
function filled(template: string, variables: Variables): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    Object.hasOwn(variables, name) ? str(variables[name]!.default) : '',
  );
}

/**
 * `{baseUrl}/ext/bc/P`, `http://{host}:{port}/rpc` or `{scheme}://{host}/rpc`: the origin is the default base URL (its
 * variables filled in by the client), the rest the path. A relative URL ("relative to where the document is served",
 * which a client cannot know) keeps its path on OpenRPC's default host, `localhost`.
 */
function splitServerUrl(urlTemplate: string, variables: Variables): { defaultBaseUrl: string; pathTemplate: string } {
  const origin = /^(?:[a-z][a-z0-9+.-]*|\{[^}/]+\}):\/\/[^/]+/i.exec(urlTemplate)?.[0];
  return {
    defaultBaseUrl: str(variables.baseUrl?.default) || origin || 'http://localhost',
    // A URL without a path (Signatory's `http://localhost:1999`) is served at `/`, where HTTP sends its requests.
    pathTemplate: urlTemplate.replace(/^\{baseUrl\}/, '').slice(origin?.length ?? 0) || '/',
  };
}
