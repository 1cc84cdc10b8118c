/** The names an endpoint's generated code will use, claimed so that two different things never share one. */
import { type BundledDocument, locate } from '../common/document.ts';
import { canonicalJson, deref } from '../common/json.ts';
import { escapePointerToken } from '../common/problems.ts';
import {
  IDENTIFIER,
  RESERVED_MODULE_NAMES,
  clientClassName,
  clientErrorsName,
  clientOptionsName,
  resultIsComponent,
  serverNames,
  titleTypeName,
} from './names.ts';
import { subschemas } from './schema-walk.ts';
import type { EndpointModel, JsonSchema, SpecModel } from './types.ts';

type Obj = Record<string, unknown>;

export const componentSchemasOf = (bundle: BundledDocument) =>
  (((bundle.document as Obj).components as Obj | undefined)?.schemas ?? {}) as Record<string, JsonSchema>;

/**
 * Claims every name the endpoint's generated code will use, so that two different things never share one: the client
 * class and its options, the server's handlers, factory, method table and document, shared schemas, titled inline
 * schemas, each method's Params/Result types and client method.
 */
export function claimNames(
  bundle: BundledDocument,
  { typeName, methods }: EndpointModel,
  names: NameRegistry,
  schemaTypeNames: SpecModel['schemaTypeNames'],
  titledTypes: boolean,
): void {
  const doc = bundle.document as Obj;
  const at = (pointer: string) => locate(bundle, pointer);
  const client = clientClassName(typeName);
  // One file on a case-insensitive file system too (`Index.json` beside the package's `index.ts`).
  if (RESERVED_MODULE_NAMES.has(bundle.name.toLowerCase())) {
    names.collisions.push({
      ...at(''),
      message:
        `the endpoint name "${bundle.name}" (the document's file name) is taken by a file of the generated ` +
        'packages; rename the document',
    });
  }
  const endpointNames = [
    ['client', client],
    ['client options', clientOptionsName(typeName)],
    ['client errors', clientErrorsName(typeName)],
    ...Object.entries(serverNames(typeName)).map(([role, name]) => [`server ${role}`, name]),
  ];
  for (const [role, name] of endpointNames)
    names.claim(name!, { identity: `endpoint:${bundle.file}`, what: `the ${role} of ${bundle.file}`, ...at('') });

  const claimTitles = (schema: JsonSchema, pointer: string, isRoot: boolean) => {
    if (titledTypes && !isRoot && typeof schema.title === 'string') {
      names.claim(titleTypeName(schema.title), {
        identity: `schema:${canonicalJson(schema)}`,
        what: `the schema titled "${schema.title}" at ${describe(at(pointer))}`,
        ...at(pointer),
      });
    }
    for (const child of subschemas(schema))
      claimTitles(child.schema, `${pointer}/${child.tokens.map(escapePointerToken).join('/')}`, false);
  };
  for (const [name, schema] of Object.entries(componentSchemasOf(bundle))) {
    const pointer = `/components/schemas/${escapePointerToken(name)}`;
    names.claim(schemaTypeNames[name]!, {
      identity: `schema:${canonicalJson(schema)}`,
      what: `the schema ${name} at ${describe(at(pointer))}`,
      ...at(pointer),
    });
    claimTitles(schema, pointer, true);
  }

  const methodOwners = new Map<string, string>();
  for (const method of methods) {
    const where = at(`/methods/${method.index}/name`);
    const identity = `method:${method.name}`;
    names.claim(method.typeNames.params, { identity, what: `the params of ${method.name}`, ...where });
    if (!resultIsComponent(method, schemaTypeNames))
      names.claim(method.typeNames.result, { identity, what: `the result of ${method.name}`, ...where });
    const raw = (doc.methods as Obj[])[method.index]!;
    ((raw.params ?? []) as unknown[]).forEach((entry, p) => {
      const pointer = deref(doc, entry).pointer ?? `/methods/${method.index}/params/${p}`;
      claimTitles(method.params[p]!.schema, `${pointer}/schema`, false);
    });
    if (method.result)
      claimTitles(
        method.result.schema,
        `${deref(doc, raw.result).pointer ?? `/methods/${method.index}/result`}/schema`,
        false,
      );

    const owner = methodOwners.get(method.shortName);
    if (owner) {
      names.collisions.push({
        ...where,
        message:
          `the client method ${client}.${method.shortName} would stand for both ${owner} and ${method.name}: ` +
          'one endpoint cannot have two methods with the same client name (see generators/model/names.ts)',
      });
    }
    methodOwners.set(method.shortName, method.name);
  }
  // A namespace is a property of the client beside its methods; two methods of one namespace need two members.
  const members = new Map<string, string>();
  for (const method of methods) {
    if (!method.namespace) continue;
    const where = at(`/methods/${method.index}/name`);
    const { property, member } = method.namespace;
    const owner = methodOwners.get(property);
    if (owner)
      names.collisions.push({
        ...where,
        message:
          `the namespace of method "${method.name}" would become ${client}.${property}, ` +
          `a name the method ${owner} takes`,
      });
    const key = `${property}.${member}`;
    if (members.has(key))
      names.collisions.push({
        ...where,
        message: `${client}.${key} would stand for both ${members.get(key)} and ${method.name}`,
      });
    members.set(key, method.name);
  }
}

const describe = (where: { file: string; pointer: string }) => `${where.file}#${where.pointer}`;

export interface NameClaim {
  /** Two claims of one name are one thing when their identities are equal (e.g. the same schema in two endpoints). */
  identity: string;
  /**
   * What the name would stand for, for the error message, e.g. `the schema titled "Foo" in
   * openrpc/methods/a/b.json#/result/schema`.
   */
  what: string;
  file: string;
  pointer: string;
}

export interface NameCollision {
  file: string;
  pointer: string;
  message: string;
}

/** Registers names and the thing each stands for; a second, different owner of a name is a collision. */
export class NameRegistry {
  private readonly owners = new Map<string, NameClaim>();
  readonly collisions: NameCollision[] = [];

  constructor(reserved: Record<string, string> = {}) {
    for (const [name, what] of Object.entries(reserved))
      this.owners.set(name, { identity: `reserved:${name}`, what, file: '', pointer: '' });
  }

  claim(name: string, claim: NameClaim): void {
    // Every name claimed starts with a capital or ends in a capitalised suffix, so none is a (lower-case) keyword.
    if (!IDENTIFIER.test(name)) {
      this.collisions.push({
        file: claim.file,
        pointer: claim.pointer,
        message: `"${name}" (${claim.what}) is not usable as a TypeScript name`,
      });
      return;
    }
    const existing = this.owners.get(name);
    if (existing === undefined) this.owners.set(name, claim);
    else if (existing.identity !== claim.identity) {
      this.collisions.push({
        file: claim.file,
        pointer: claim.pointer,
        message: `the name "${name}" would stand for both ${existing.what} and ${claim.what}; rename one of them`,
      });
    }
  }
}
