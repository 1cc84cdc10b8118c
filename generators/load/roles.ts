/** Where a `$ref` sits in an OpenRPC document decides what it refers to: the roles the bundler walks by. */
export const COMPONENT_KINDS = [
  'schemas',
  'contentDescriptors',
  'errors',
  'examples',
  'examplePairingObjects',
  'links',
  'tags',
] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

export const isKind = (token: string | undefined): token is ComponentKind =>
  (COMPONENT_KINDS as readonly string[]).includes(token ?? '');

/**
 * What an object is, by where it sits in an OpenRPC document: it decides which `components` map a reference found
 * there goes to, and where walking stops (`data`: example values, and a schema's keywords that hold no schema, its
 * `const`/`enum`/`default` wire data among them, never references; `other`: `info` and `servers`, as written).
 */
export type Role =
  | 'document'
  | 'methods'
  | 'method'
  | 'components'
  | ComponentKind
  | `${ComponentKind}Map`
  | 'schemaMap'
  | 'list'
  | 'data'
  | 'other';
export const OBJECT_ROLE: Record<ComponentKind, Role> = {
  schemas: 'schemas',
  contentDescriptors: 'contentDescriptors',
  errors: 'errors',
  examples: 'examples',
  examplePairingObjects: 'examplePairingObjects',
  links: 'links',
  tags: 'tags',
};
const METHOD_LISTS: Record<string, ComponentKind> = {
  params: 'contentDescriptors',
  errors: 'errors',
  examples: 'examplePairingObjects',
  links: 'links',
  tags: 'tags',
};
const SCHEMA_DATA = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose value maps names to schemas: a property named `default` is a schema, not data. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'dependentSchemas',
]);
/**
 * Keywords whose value is a schema or a list of them (JSON Schema draft-07 to 2020-12). Any other keyword of a schema
 * holds no schema: a keyword JSON Schema does not define is ignored, as JSON Schema says, and so is a `$ref` inside it
 * (ERC-4337's bundler spec writes fields beside `properties`, one a `$ref` to a schema the document does not have).
 */
const SUBSCHEMAS = new Set([
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);

/** The role of `key`'s value in an object of `role`; `inExtension`: the object is inside an `x-` extension. */
export function childRole(role: Role, key: string, inExtension = false): { role: Role; listOf?: ComponentKind } {
  // Extensions are carried as written, except that their references into the spec's own files (`x-result-history`'s
  // schemas) are bundled like any other; references to URLs in them are their data (bundle.ts leaves them be).
  if (key.startsWith('x-')) return { role: 'schemas' };
  switch (role) {
    case 'document':
      return key === 'methods'
        ? { role: 'methods' }
        : key === 'components'
          ? { role: 'components' }
          : { role: 'other' };
    case 'methods':
      return { role: 'method' };
    case 'components':
      return isKind(key) ? { role: `${key}Map` } : { role: 'other' };
    case 'method':
      if (key === 'result') return { role: 'contentDescriptors' };
      return METHOD_LISTS[key] ? { role: 'list', listOf: METHOD_LISTS[key] } : { role: 'other' };
    case 'contentDescriptors':
      return key === 'schema' ? { role: 'schemas' } : { role: 'other' };
    case 'examplePairingObjects':
      return key === 'params'
        ? { role: 'list', listOf: 'examples' }
        : key === 'result'
          ? { role: 'examples' }
          : { role: 'other' };
    case 'schemas':
      if (SCHEMA_MAPS.has(key)) return { role: 'schemaMap' };
      if (SCHEMA_DATA.has(key)) return { role: 'data' };
      // An extension's own shape is its author's: every member but wire data may hold schemas (`x-result-history`).
      return SUBSCHEMAS.has(key) || inExtension ? { role: 'schemas' } : { role: 'data' };
    case 'schemaMap':
      return { role: 'schemas' };
    case 'examples':
    case 'errors':
    case 'links':
    case 'tags':
    case 'list':
    case 'data':
    case 'other':
      return { role: 'data' };
    default:
      return { role: OBJECT_ROLE[role.slice(0, -3) as ComponentKind] };
  }
}

/** The role of the value at `tokens` in an OpenRPC document, as the bundler's walk reaches it. */
export function roleAt(tokens: readonly string[]): Role {
  let at: { role: Role; listOf?: ComponentKind } = { role: 'document' };
  for (const token of tokens)
    at =
      at.role === 'list'
        ? { role: OBJECT_ROLE[at.listOf!] }
        : at.role === 'methods'
          ? { role: 'method' }
          : childRole(at.role, token);
  return at.role;
}

/** How a message names one component of `kind`: `schema`, `content descriptor`. */
export const kindNoun = (kind: ComponentKind) =>
  kind.replace(/s$/, '').replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
