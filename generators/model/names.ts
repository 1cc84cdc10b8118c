/**
 * Every generated identifier is decided here, once, from spec names: endpoint stems, client classes and methods,
 * method type names, shared schema names and titled inline schemas. Two different things that would get the same
 * name stop generation with both sources named, except two shared schemas whose names differ only in what the rule
 * leaves out (Filecoin Forest's `Int64` and `int64`): a document that is valid OpenRPC must generate, so one of them is
 * numbered (`componentTypeNames`).
 *
 * The rule, for names in any style the field writes (`platform.getHeight`, `eth_getBalance`, `get_versions`, `Pet`,
 * `BLOCK_ID`, `starknet_getBlockWithTxs`), and for any other string a document may hold (`получить`, `😀`, `-`):
 * - words are split at every ASCII character that is not a letter or digit and at white space; a symbol beyond ASCII
 *   (`😀`) is a word of its own, spelt by its code point (`u1F600`); a word keeps its own capitals
 *   (`getBalance` stays `GetBalance`), except in an all-capitals name with separators (`BLOCK_ID`), whose words are
 *   capitalised (`BlockId`); letters of other scripts stay as they are (`получить`, `ПолучитьParams`);
 * - a name without a single word is spelt by its characters' code points, `u` and hex each (`-` -> `u2D`), and a name
 *   that would start with a digit gets a `_` in front (`42` -> `_42`), so every name becomes an identifier, the same
 *   one on every run;
 * - a type name is the words in PascalCase (`eth_getBalance` -> `EthGetBalanceParams`); a component schema whose name
 *   is already a TypeScript identifier and not SCREAMING_SNAKE keeps it (`Uint64`, `NodeID`, `Pet`); a type name the
 *   generated code needs for itself (a global such as `BigInt`, a runtime export such as `TimeoutError`) takes
 *   `Schema` after it (`BigIntSchema`);
 * - a client method is the part after the first `.` when the wire name has one and every dotted name of the document
 *   shares that namespace (`platform.getHeight` -> `getHeight`, the endpoint being the namespace), else the whole wire
 *   name in camelCase: a document whose names carry several namespaces keeps them (`fraud.Subscribe` ->
 *   `fraudSubscribe`, `header.Subscribe` -> `headerSubscribe`, `rpc.discover` beside them -> `rpcDiscover`), as do
 *   prefixes (`eth_getBalance` -> `ethGetBalance`, `get_versions` -> `getVersions`); such a document's client also
 *   has one property per namespace, each method under it by its own name in camelCase (`client.fraud.subscribe()`,
 *   `client.header.subscribe()`), and its server takes handlers grouped the same way (`NodeGroupedHandlers`, turned
 *   into the flat `NodeHandlers` by `nodeHandlersOf`);
 * - a client member named like one JavaScript or the client needs (`toJSON`, `then`, `constructor`, `url`) takes
 *   `call` before it (`callToJSON`; see `RESERVED_METHOD_NAMES`);
 * - the wire name is never changed: it is what the client sends and the server routes.
 */
import { runtimeExports, runtimeModules } from './runtime-names.ts';
import { componentName } from './schema-walk.ts';
import type { SpecModel } from './types.ts';

const SCREAMING_SNAKE = /^[A-Z0-9]+([^A-Za-z0-9]+[A-Z0-9]+)+$/;
/** A word: letters and digits of any script, with the marks that belong to them. */
const WORD = /[\p{L}\p{Nd}][\p{L}\p{Nd}\p{Mn}\p{Mc}]*|[^\p{L}\p{Nd}\x00-\x7F\s]/gu;
const codePoint = (char: string) => `u${char.codePointAt(0)!.toString(16).toUpperCase()}`;

function words(text: string): string[] {
  // A symbol that is no separator (`😀`) is a word of its own, spelt by its code point.
  const parts = (text.match(WORD) ?? []).map((word) => (/^[\p{L}\p{Nd}]/u.test(word) ? word : codePoint(word)));
  if (parts.length === 0) return [...text].map(codePoint);
  return SCREAMING_SNAKE.test(text) ? parts.map((word) => word.toLowerCase()) : parts;
}

/** An identifier may not start with a digit. */
const startable = (name: string): string => (/^[\p{ID_Start}_$]/u.test(name) ? name : `_${name}`);

export function pascalCase(text: string): string {
  return startable(
    words(text)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(''),
  );
}

function camelCase(text: string): string {
  const parts = words(text);
  const pascal = parts.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  const [first = ''] = parts;
  // A leading all-capitals word stays as written only when it is the whole name (`ID`); `ETH_call` -> `ethCall`.
  return startable(
    /^[A-Z0-9]+$/.test(first) && pascal.length > first.length
      ? first.toLowerCase() + pascal.slice(first.length)
      : pascal.slice(0, 1).toLowerCase() + pascal.slice(1),
  );
}

/**
 * The client method (and server handler key) for a wire method name; `namespaced`: the document's dotted names carry
 * several namespaces (see `mixesNamespaces`), which then stay in the names.
 */
export function clientMethodName(wireName: string, namespaced = false): string {
  const dot = wireName.indexOf('.');
  const local = dot >= 0 && !namespaced ? wireName.slice(dot + 1) : wireName;
  return clientMember(
    IDENTIFIER.test(local) && !local.includes('_') && !local.includes('$') ? local : camelCase(local),
  );
}

/**
 * Where a method of a namespaced document also sits on the client: `fraud.Subscribe` is `client.fraud.subscribe()`
 * (beside `client.fraudSubscribe()`, the name errors and wire tables use); each namespace is one property.
 */
export function namespaceNames(wireName: string): { property: string; member: string } | undefined {
  const dot = wireName.indexOf('.');
  if (dot < 0) return undefined;
  return {
    property: clientMember(camelCase(wireName.slice(0, dot))),
    member: clientMember(camelCase(wireName.slice(dot + 1))),
  };
}

/** Whether a document's dotted method names carry more than one namespace (`fraud.Subscribe`, `header.Subscribe`). */
export function mixesNamespaces(wireNames: string[]): boolean {
  const namespaces = new Set(wireNames.filter((name) => name.includes('.')).map((name) => name.split('.')[0]));
  return namespaces.size > 1;
}

export function endpointTypeName(endpointName: string): string {
  return pascalCase(endpointName);
}

export function clientClassName(endpointTypeName: string): string {
  return `${endpointTypeName}Client`;
}

export function clientOptionsName(endpointTypeName: string): string {
  return `${endpointTypeName}ClientOptions`;
}

/** The name this project's own client packages (`@avalanche-openrpc/...`) give the runtime's `RpcError`. */
const PROJECT_ERROR_CLASS = 'AvalancheRpcError';

/**
 * The name a client package exports the runtime's base error class by: `RpcError`, named like the rest of the
 * runtime (`JsonRpcError`, `TimeoutError`) and after nothing but JSON-RPC, so a package generated from another
 * project's document names nothing of ours. This project's own packages export the same class as `AvalancheRpcError`,
 * the name their users have always imported.
 */
export function clientErrorClassName(clientPackageName: string): string {
  return clientPackageName.startsWith('@avalanche-openrpc/') ? PROJECT_ERROR_CLASS : 'RpcError';
}

/** The type naming each client method's documented errors, e.g. `PChainClientErrors`. */
export function clientErrorsName(endpointTypeName: string): string {
  return `${endpointTypeName}ClientErrors`;
}

/** Identifiers of an endpoint's server module (`XChain` -> `XChainHandlers`, `createXChainEndpoint`). */
export function serverNames(endpointTypeName: string): {
  handlers: string;
  grouped: string;
  ungroup: string;
  create: string;
  methods: string;
  document: string;
} {
  const camel = endpointTypeName[0]!.toLowerCase() + endpointTypeName.slice(1);
  return {
    handlers: `${endpointTypeName}Handlers`,
    // A namespaced document's handlers grouped as its client is (`{ fraud: { subscribe } }`), and their flat form.
    grouped: `${endpointTypeName}GroupedHandlers`,
    ungroup: `${camel}HandlersOf`,
    create: `create${endpointTypeName}Endpoint`,
    methods: `${camel}Methods`,
    document: `${camel}Document`,
  };
}

export function methodTypeNames(methodName: string): { params: string; result: string } {
  const stem = pascalCase(methodName.replace('.', ' '));
  return { params: `${stem}Params`, result: `${stem}Result` };
}

/**
 * A method whose result is a shared schema named like its result type (`txpool_contentFrom` returning
 * `TxpoolContentFromResult`): that schema is the result type, not a second thing of the same name.
 */
export function resultIsComponent(
  method: { typeNames: { result: string }; result?: { schema: Record<string, unknown> } | undefined },
  schemaTypeNames: SpecModel['schemaTypeNames'],
): boolean {
  const schema = method.result?.schema;
  if (!schema || Object.keys(schema).length !== 1) return false;
  const name = componentName(schema.$ref);
  return name !== undefined && schemaTypeNames[name] === method.typeNames.result;
}

/**
 * The server package's checks and writer of a method: `validatePlatformGetHeightParams`,
 * `writePlatformGetHeightResult`.
 */
export function validatorNames(methodName: string): { params: string; result: string; writer: string } {
  const types = methodTypeNames(methodName);
  // ajv's standalone code takes ASCII export names only: a letter beyond ASCII is spelt by its code point there
  // (`validateПолучитьParams` -> `validateu41Fu43Eu43B...Params`), an internal name of the server package.
  const ascii = (name: string) => name.replace(/[^\x00-\x7F]/gu, codePoint);
  return {
    params: `validate${ascii(types.params)}`,
    result: `validate${ascii(types.result)}`,
    writer: `write${ascii(types.result)}`,
  };
}

/**
 * A component schema keeps its name when TypeScript can use it as is (`Uint64`, `OutputOwners`), unless the generated
 * code already uses that name (see `unreserved`). The rule for one name: what a schema is called in the generated code
 * is decided knowing the others (`componentTypeNames`), so generators read `SpecModel.schemaTypeNames`, never this.
 */
export function schemaTypeName(componentName: string): string {
  return unreserved(
    IDENTIFIER.test(componentName) && !SCREAMING_SNAKE.test(componentName) && /^[A-Z]/.test(componentName)
      ? componentName
      : pascalCase(componentName),
  );
}

/**
 * The type name of every shared schema (`components`, in document order), decided knowing all of them: each takes
 * `schemaTypeName` of its own name, unless another schema or `taken` takes that name too. Then the one written exactly
 * as the name keeps it (else the first; none where `taken` holds it), and each other, in document order, takes the first of `<name>2`, `<name>3`... that
 * no schema and nothing in `taken` holds, with `_` before the number after a digit (`int64` beside `Int64` is
 * `Int64_2`): so adding a schema never renames one whose name was already its own. Numbering clashing schema names is
 * what OpenAPI code generators do; this keeps the numbers in document order, so every run gives the same names.
 */
export function componentTypeNames(components: string[], taken: ReadonlySet<string>): Map<string, string> {
  const wanted = new Map(components.map((name) => [name, schemaTypeName(name)]));
  const owners = new Map<string, string>();
  // A name `taken` holds (a method's params type: urbit roller's `SpawnParams` beside method `spawn`) is no schema's.
  for (const [name, typeName] of wanted)
    if (!taken.has(typeName) && (name === typeName || !owners.has(typeName))) owners.set(typeName, name);
  const held = new Set([...taken, ...wanted.values()]);
  const names = new Map<string, string>();
  for (const [name, typeName] of wanted) {
    if (owners.get(typeName) === name) {
      names.set(name, typeName);
      continue;
    }
    const stem = /\d$/.test(typeName) ? `${typeName}_` : typeName;
    let n = 2;
    while (held.has(`${stem}${n}`)) n++;
    held.add(`${stem}${n}`);
    names.set(name, `${stem}${n}`);
  }
  return names;
}

/** An inline schema with a `title` becomes a named type: `"title": "Platform validator"` is `PlatformValidator`. */
export function titleTypeName(title: string): string {
  return unreserved(pascalCase(title));
}

/**
 * A schema named like a global type or a runtime export the generated code uses (Filecoin's `BigInt`, a document's
 * `Error` or `Response`) takes `Schema` after its name (`BigIntSchema`): the field's documents use such names, and
 * their authors cannot rename them for us.
 */
const unreserved = (name: string): string => (Object.hasOwn(RESERVED_TYPE_NAMES, name) ? `${name}Schema` : name);

/** A TypeScript identifier, in any script (`получить`). */
export const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * Names a generated type or export may not take: global types the generated code uses, and what each package exports
 * besides the spec's types (its `index.ts` re-exports both, and an explicit export silently wins over `export *`, so a
 * schema named `TimeoutError` or `Endpoint` would vanish from the package).
 */
export const RESERVED_TYPE_NAMES: Record<string, string> = Object.fromEntries([
  ...[
    'Promise Record Array ReadonlyArray Partial Required Readonly Error Object String Number Boolean BigInt Symbol',
    'Date Map Set JSON AbortSignal AbortController Response Headers',
  ]
    .flatMap((line) => line.split(' '))
    .map((name) => [name, `the global TypeScript type ${name}`]),
  ...runtimeExports('client').map((name) => [name, `the client runtime's export ${name}`]),
  [PROJECT_ERROR_CLASS, `the client package's export ${PROJECT_ERROR_CLASS}`],
  ...runtimeExports('server').map((name) => [name, `the server runtime's export ${name}`]),
  ...['INVALID_ARGUMENT', 'ENDPOINTS'].map((name) => [name, `the server package's export ${name}`]),
]);

/** The client package's own modules besides the spec's types: `src/index.ts` and the runtime's (runtime/client/). */
const CLIENT_MODULES = ['index', ...runtimeModules('client')];
/** The module of the spec's types, in both packages. */
export const TYPES_MODULE = 'types';

/**
 * Module names of the generated packages' own files, which are also the docs site's own pages (`index`, `types`): an
 * endpoint document may not take one (`runtime.json`).
 */
export const RESERVED_MODULE_NAMES = new Set([...CLIENT_MODULES, TYPES_MODULE]);

/**
 * Member names a client (or a namespace object on it, or a server's handlers object) may not give a spec's method:
 * every member of Object.prototype (a handlers object without `toString` still has one), the names JavaScript calls
 * by itself (`JSON.stringify` calls `toJSON`, `await` calls `then`), and the client runtime's own members.
 */
export const RESERVED_METHOD_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...'toJSON then request notify call failed paginate positional paramsByName wireNames methodServers url'.split(' '),
]);

/**
 * A method named like a reserved member takes `call` before its name (`toJSON` -> `callToJSON`), as openapi-generator
 * renames an operation named like a reserved word: the document is valid OpenRPC, so it must generate, and its wire
 * name is unchanged.
 */
const clientMember = (name: string): string =>
  RESERVED_METHOD_NAMES.has(name) ? `call${name[0]!.toUpperCase()}${name.slice(1)}` : name;
