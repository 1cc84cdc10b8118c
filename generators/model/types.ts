/**
 * The intermediate model every generator reads: plain, serialisable data built once from the bundled documents.
 * Schemas stay JSON Schema, with `$ref`s of the form `#/components/schemas/<Name>` into `SpecModel.schemas`.
 */
import type { Pagination } from '../../runtime/client/runtime.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonSchema = { [key: string]: Json };

export interface SpecModel {
  endpoints: EndpointModel[];
  /** Every shared schema of every endpoint by name; a name always means one schema across the whole spec. */
  schemas: Record<string, JsonSchema>;
  /**
   * The TypeScript type name of each shared schema, by schema name (`Uint64`, `BlockId` for `BLOCK_ID`), decided once
   * knowing all of them (names.ts `componentTypeNames`): every generator reads its names here.
   */
  schemaTypeNames: Record<string, string>;
  /**
   * `avalanche` when every document opts into the avalanche profile (load/profile.ts), the one place this is decided:
   * the validators are strict and know only Avalanche's formats, an inline schema's `title` names a type of its own
   * (names.ts; in the field, titles are labels, `"title": "Block hash"` on many unrelated schemas), and conformance
   * runs the node's release, discovery and coherence rows. Absent for plain OpenRPC, or a mix of both.
   */
  profile?: 'avalanche';
  /**
   * Examples of foreign documents that do not validate against their own schemas, one entry per fault, each naming
   * the method, file, pointer and rule: the generators never see those examples (load/index.ts). Absent when none.
   */
  advice?: Array<{ method: string; file: string; pointer: string; message: string }>;
  /** The generated packages' names: the spec's own (`--package-name`), else from the first document's title. */
  packageNames: { client: string; server: string };
}

export interface ServerVariable {
  name: string;
  default: string;
  description: string;
  /** The values the document allows (`enum`); empty when it names none. */
  enum: string[];
}

export interface EndpointModel {
  /**
   * File name of the endpoint document without `.json`, e.g. `x-chain`: also the name of everything generated for it.
   */
  name: string;
  /** The endpoint document as given to the loader, relative to the working directory, e.g. `openrpc/x-chain.json`. */
  file: string;
  /** PascalCase stem for generated identifiers, e.g. `XChain` (`XChainClient`). */
  typeName: string;
  title: string;
  description: string;
  version: string;
  /** The server's own description: where else the node serves this endpoint (its alias paths). */
  serverDescription: string;
  /** Server URL template, e.g. `{baseUrl}/ext/bc/{blockchainID}`. */
  urlTemplate: string;
  /** The path part of the URL template, e.g. `/ext/bc/{blockchainID}`. */
  pathTemplate: string;
  /** The path part of the URL with every variable at its default, e.g. `/ext/bc/X`. */
  defaultPath: string;
  /** Other paths the node serves the endpoint at (`x-aliases`), e.g. `/ext/X`; none when it has no others. */
  aliases: string[];
  /** Variables of the URL other than `baseUrl`, e.g. `blockchainID`. */
  pathVariables: ServerVariable[];
  /** The base URL as the client's default, its variables still to fill: `http://{host}:{port}`. */
  defaultBaseUrl: string;
  /** The base URL every variable at its default gives, where the client sends by default: `http://localhost:8545`. */
  defaultOrigin: string;
  methods: MethodModel[];
  /**
   * `x-renamed-errors`: names the generated code once gave an error of this endpoint, each with the name it gives now,
   * so the client's README can list them; empty when none was renamed.
   */
  renamedErrors: Array<{ from: string; to: string }>;
  /**
   * The document to publish (model/published.ts): read only by generators/shared/published.ts, since every fact in it
   * is a field of this model (the layering test keeps it so).
   */
  published: JsonSchema;
  /** Every release the document names in a range or a change (`x-changes`), oldest first (versions.ts). */
  releases: string[];
  /** `info.license.name`; empty when the document names none. */
  license: string;
  /** `x-mock-only`: served only by the mock node (its development controls), never by a node. */
  mockOnly: boolean;
  /**
   * The node's message for params that fail to decode: the message of the document's `InvalidArgument` error
   * (`components.errors`), which every method lists (openrpc/README.md); empty when the document has none.
   */
  invalidArgument: string;
  /**
   * The rule set the spec folder opts into (`avalanche`: Avalanche's formats, node RPC layer); absent for plain
   * OpenRPC.
   */
  profile?: 'avalanche';
}

export interface ParamModel {
  name: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
  deprecated: boolean;
  /** The releases that read it (`x-node-versions` on the param); empty when every release of the method does. */
  versions: NodeVersions;
  /**
   * `x-zero-when-absent`: the value Go's decoder leaves when this required param is missing, which the node then
   * answers like any sent value. Absent when the spec does not mark the param.
   */
  zeroWhenAbsent?: Json;
}

/** How a paginated method pages: the client runtime's type, which generated clients pass it as it is. */
export type PaginationModel = Pagination;

export interface ErrorModel {
  /** Unique within the method: the `components.errors` key, or words of the message (generators/model/errors.ts). */
  name: string;
  code: number;
  message: string;
  data?: Json;
}

export interface ExampleModel {
  name: string;
  summary?: string;
  description?: string;
  /** Param values by name, in the order the example gives them. */
  params: Record<string, Json>;
  result: Json;
}

export type SideEffects = 'none' | 'node' | 'chain';

export interface NodeVersions {
  since?: string;
  deprecatedSince?: string;
  lastVersion?: string;
  removedIn?: string;
}

export interface MethodModel {
  /** Wire name, e.g. `platform.getHeight`. */
  name: string;
  /** The part before the first dot (`platform`), empty when the wire name has none (`eth_getBalance`). */
  service: string;
  /** The generated client method's name and server handler key (names.ts), e.g. `getHeight`, `ethGetBalance`. */
  shortName: string;
  /** In a document whose names carry several namespaces: the client property and member (`client.fraud.subscribe`). */
  namespace?: { property: string; member: string };
  summary: string;
  description: string;
  params: ParamModel[];
  /** How the method takes its params (OpenRPC `paramStructure`): `either` when the document does not say. */
  paramStructure: 'by-name' | 'by-position' | 'either';
  /** The method's own server (OpenRPC `servers`), when it has one: its base URL and path, as the endpoint's. */
  server?: { baseUrl: string; pathTemplate: string };
  result: { name: string; description: string; schema: JsonSchema } | undefined;
  errors: ErrorModel[];
  examples: ExampleModel[];
  deprecated: boolean;
  versions: NodeVersions;
  replacement: string | undefined;
  /** What calling it changes (`x-side-effects`); undefined when the document does not say. */
  sideEffects: SideEffects | undefined;
  /** Where the node's prose docs differ from the wire, one sentence each. */
  discrepancies: string[];
  /** `x-changes`: each names the release and points (JSON pointers into the method) at what carries that release. */
  changes: Array<{ version: string; description: string; pointers: string[] }>;
  /** `x-pagination`: the method lists a collection page by page (openrpc/README.md). */
  pagination: PaginationModel | undefined;
  /** `x-result-history`: the result's earlier shapes, each with the releases that sent it. */
  resultHistory: Array<{ versions: NodeVersions; schema: JsonSchema; description: string }>;
  typeNames: { params: string; result: string };
  /** Index of the method in its endpoint document (for pointers into the document). */
  index: number;
}

/** A method with the endpoint that serves it. */
export interface SpecMethod {
  endpoint: EndpointModel;
  method: MethodModel;
}
