/**
 * The views of the site's pages: the navigation every page carries (all methods, with their search keys), the
 * landing page, one page per endpoint and the page of shared types. Everything a template prints is computed here.
 */
import { headerText } from '../emit/header.ts';
import type { EndpointModel, Json, MethodModel, SpecModel } from '../model/types.ts';
import { compareVersions, namedReleases, oldestDescribedRelease } from '../model/versions.ts';
import { type Html, releaseAttrs } from './html.ts';
import type { MethodLinker } from './markdown.ts';
import { publishedPath } from '../shared/published.ts';
import { type Badge, type EndpointView, badges, endpointView } from './method-view.ts';
import { type SchemaNode, schemaNode } from './schema-tree.ts';
import { type SchemaContext, describe, refName } from './schema-view.ts';

export interface NavMethod {
  name: string;
  href: string;
  summary: string;
  /** Lower-case words the search box matches: the method's name, summary and param names. */
  search: string;
  deprecated: boolean;
  badges: Badge[];
  releaseAttrs: Html;
}

export interface NavEndpoint {
  name: string;
  label: string;
  href: string;
  /** The endpoint's published OpenRPC document, shipped with the site. */
  openrpcHref: string;
  path: string;
  countLabel: string;
  current: boolean;
  description: Html | null;
  methods: NavMethod[];
}

export interface PageView {
  /** The one header line naming the source documents. */
  source: string;
  pageTitle: string;
  siteTitle: string;
  nav: NavEndpoint[];
  methodCountLabel: string;
  endpointCountLabel: string;
  isIndex: boolean;
  isTypes: boolean;
  /** Whether the documents describe an AvalancheGo node (the avalanche profile): the front page speaks of the node. */
  describesNode: boolean;
  /**
   * The choices of the release selector, newest first: each release the spec names, standing for every release up to
   * the next one named (the API changes only at those).
   */
  releases: Array<{ value: string; label: string }>;
}

export interface TypeView {
  name: string;
  node: SchemaNode;
  /** The methods that name the type in their params or result, and the types that name it in theirs. */
  usedBy: Array<{ name: string; href: string }>;
  partOf: Array<{ name: string; href: string }>;
}

export const pageFile = (endpoint: EndpointModel): string => `${endpoint.name}.html`;
const methodHref = (endpoint: EndpointModel, method: MethodModel): string => `${pageFile(endpoint)}#${method.name}`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function schemaContext(model: SpecModel): SchemaContext {
  const hrefs = new Map(
    model.endpoints.flatMap((endpoint) =>
      endpoint.methods.map((method) => [method.name, methodHref(endpoint, method)] as const),
    ),
  );
  const linker: MethodLinker = (name) => hrefs.get(name);
  return { schemas: model.schemas, typeHref: (name) => `types.html#${name}`, linker };
}

/**
 * The words two or more endpoint titles start with ("AvalancheGo "), left out of the short labels in the navigation.
 */
function commonTitlePrefix(endpoints: EndpointModel[]): string {
  if (endpoints.length < 2) return '';
  const split = endpoints.map((endpoint) => endpoint.title.split(' '));
  const words: string[] = [];
  for (let i = 0; split.every((title) => title.length > i + 1 && title[i] === split[0]![i]); i++)
    words.push(split[0]![i]!);
  return words.length > 0 ? `${words.join(' ')} ` : '';
}

/** The endpoint's title without the words all titles share: "P-Chain API (Platform VM)". */
function endpointLabel(model: SpecModel, endpoint: EndpointModel): string {
  return endpoint.title.slice(commonTitlePrefix(model.endpoints).length) || endpoint.name;
}

function navigation(model: SpecModel, context: SchemaContext, current: string | undefined): NavEndpoint[] {
  return model.endpoints.map((endpoint) => ({
    name: endpoint.name,
    label: endpointLabel(model, endpoint),
    href: pageFile(endpoint),
    openrpcHref: publishedPath(endpoint),
    path: endpoint.defaultPath,
    countLabel: plural(endpoint.methods.length, 'method'),
    current: endpoint.name === current,
    description: describe(endpoint.description, context),
    methods: endpoint.methods.map((method) => ({
      name: method.name,
      href: methodHref(endpoint, method),
      summary: method.summary,
      search: [method.name, method.summary, ...method.params.map((param) => param.name)].join(' ').toLowerCase(),
      deprecated: method.deprecated,
      badges: badges(method),
      releaseAttrs: releaseAttrs(method.versions),
    })),
  }));
}

function siteTitle(model: SpecModel): string {
  return `${commonTitlePrefix(model.endpoints)}JSON-RPC API reference`;
}

function page(
  model: SpecModel,
  context: SchemaContext,
  currentPage: 'index' | 'types' | 'endpoint',
  pageTitle: string,
  source: string,
  endpoint?: string,
): PageView {
  const methodCount = model.endpoints.reduce((sum, e) => sum + e.methods.length, 0);
  return {
    source,
    pageTitle,
    siteTitle: siteTitle(model),
    nav: navigation(model, context, endpoint),
    methodCountLabel: plural(methodCount, 'method'),
    endpointCountLabel: plural(model.endpoints.length, 'endpoint'),
    isIndex: currentPage === 'index',
    isTypes: currentPage === 'types',
    describesNode: model.profile === 'avalanche',
    releases: releasesOf(model),
  };
}

/** Every release tag the spec names (method, param, field and value ranges, changes), newest first. */
function releasesOf(model: SpecModel): Array<{ value: string; label: string }> {
  const named = new Set(namedReleases(model));
  const oldest = oldestDescribedRelease(model);
  if (oldest) named.add(oldest);
  const sorted = [...named].sort(compareVersions).reverse();
  return sorted.map((value, i) => ({
    value,
    label: i === 0 ? `${value} and later` : `${value} to before ${sorted[i - 1]}`,
  }));
}

/** The header of a page drawn from every document: the site-wide pages and the assets. */
export const allSources = (model: SpecModel): string => headerText(model.endpoints.map((e) => e.file));

export function indexView(model: SpecModel, context: SchemaContext): PageView {
  return page(model, context, 'index', siteTitle(model), allSources(model));
}

export function endpointPageView(
  model: SpecModel,
  context: SchemaContext,
  endpoint: EndpointModel,
): PageView & { endpoint: EndpointView } {
  const title = `${endpointLabel(model, endpoint)} | ${siteTitle(model)}`;
  return {
    ...page(model, context, 'endpoint', title, headerText([endpoint.file]), endpoint.name),
    endpoint: endpointView(model.packageNames.client, endpoint, context),
  };
}

export function typesView(model: SpecModel, context: SchemaContext): PageView & { types: TypeView[] } {
  const usedBy = typeUsers(model);
  const types = Object.entries(model.schemas).map(([name, schema]) => ({
    name,
    node: { ...schemaNode('', schema, context, { trail: { name, parent: undefined } }), open: true },
    usedBy: (usedBy.methods.get(name) ?? []).map(({ endpoint, method }) => ({
      name: method.name,
      href: methodHref(endpoint, method),
    })),
    partOf: (usedBy.types.get(name) ?? []).map((user) => ({ name: user, href: context.typeHref(user) })),
  }));
  return { ...page(model, context, 'types', `Types | ${siteTitle(model)}`, allSources(model)), types };
}

/**
 * For each named type, the methods whose params or result name it, and the types that name it: those that name it
 * through other types are a link away, so the lists grow with the document.
 */
function typeUsers(model: SpecModel): {
  methods: Map<string, Array<{ endpoint: EndpointModel; method: MethodModel }>>;
  types: Map<string, string[]>;
} {
  const methods = new Map<string, Array<{ endpoint: EndpointModel; method: MethodModel }>>();
  const types = new Map<string, string[]>();
  for (const endpoint of model.endpoints)
    for (const method of endpoint.methods)
      for (const name of namedIn([...method.params.map((param) => param.schema), method.result?.schema]))
        pushTo(methods, name, { endpoint, method });
  for (const [user, schema] of Object.entries(model.schemas))
    for (const name of namedIn([schema])) if (name !== user) pushTo(types, name, user);
  return { methods, types };
}

/** The named types the schemas refer to themselves, in the order first seen. */
function namedIn(schemas: Array<Json | undefined>): Set<string> {
  const names = new Set<string>();
  const visit = (node: Json | undefined) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const name = refName(node);
    if (name) names.add(name);
    Object.values(node).forEach(visit);
  };
  schemas.forEach(visit);
  return names;
}

function pushTo<T>(lists: Map<string, T[]>, key: string, value: T): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
