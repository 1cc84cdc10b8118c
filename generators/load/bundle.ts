/**
 * Bundles one endpoint document into one self-contained, standard OpenRPC document. Method `$ref`s are inlined; every
 * other `$ref` (to `#/components/<kind>/<Name>` in the same document, to an entry of a components file shaped like
 * `components`, or to any JSON pointer in a file inside the spec's folder) becomes `#/components/<kind>/<Name>`, the
 * kind given by where the reference sits (a schema, a param, an error, ...). A target is copied once, and registered
 * before its own references are followed, so recursive schemas bundle to recursive references. `sources` maps each
 * bundled subtree back to its hand-written file, so later checks can name the file and JSON pointer an author must fix.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BundledDocument, SourceMapping } from '../common/document.ts';
import { specRoot } from './profile.ts';
import { displayPath, readJsonFile, readOnce } from './read.ts';
import { knownSchema, knownSchemaName } from './known-schemas.ts';
import { type SpecFolder, isUrl, refFile } from './ref-file.ts';
import { absoluteUri, resourceAt, resourcesOf } from './resources.ts';
import {
  SpecError,
  type SpecProblem,
  localPointer,
  localRef,
  parsePointer,
  pointerOf,
  resolvePointer,
} from '../common/problems.ts';
import { type ComponentTarget, namedEntry, pathName } from './component-names.ts';
import {
  COMPONENT_KINDS,
  type ComponentKind,
  OBJECT_ROLE,
  type Role,
  childRole,
  isKind,
  kindNoun,
  roleAt,
} from './roles.ts';
import { isObject } from '../common/json.ts';

export { COMPONENT_KINDS } from './roles.ts';

type Json = unknown;
type Obj = Record<string, Json>;

export function bundleDocument(file: string, read: (file: string) => Json = readJsonFile): BundledDocument {
  const problems: SpecProblem[] = [];
  const rootFile = resolve(file);
  const folderPath = specRoot(dirname(rootFile));
  const folder: SpecFolder = { path: folderPath, real: realpathSync(folderPath) };
  const readFile = readOnce(read, problems);
  const load = (file: string) => {
    const known = knownSchema(file);
    return known ? { value: known } : readFile(file);
  };
  /** Component entries by kind and name, and which target (`file#pointer`) each name stands for. */
  const components = Object.fromEntries(
    COMPONENT_KINDS.map((kind) => [kind, new Map<string, { value: Json; origin: string }>()]),
  ) as Record<ComponentKind, Map<string, { value: Json; origin: string }>>;
  const targets = new Map<string, ComponentTarget>();
  const sources: SourceMapping[] = [{ bundled: '', file: displayPath(rootFile), pointer: '' }];

  const loaded = load(rootFile);
  if (!loaded)
    throw new SpecError(
      problems.length > 0 ? problems : [{ file: displayPath(rootFile), pointer: '', message: 'no such file' }],
    );
  const root = structuredClone(loaded.value);
  if (!isObject(root))
    throw new SpecError([
      { file: displayPath(rootFile), pointer: '', message: 'an OpenRPC document must be a JSON object' },
    ]);

  // The document's own components keep their names and stay where they are; references to them only point there.
  if (isObject(root.components)) {
    for (const kind of COMPONENT_KINDS) {
      const entries = (root.components as Obj)[kind];
      if (!isObject(entries)) continue;
      for (const [name, value] of Object.entries(entries)) {
        const origin = `${displayPath(rootFile)}#${pointerOf(['components', kind, name])}`;
        if (name === '')
          problems.push({
            file: displayPath(rootFile),
            pointer: pointerOf(['components', kind, name]),
            message: EMPTY_NAME,
          });
        components[kind].set(name, { value, origin });
        targets.set(`${rootFile}#${pointerOf(['components', kind, name])}`, { name, kind });
      }
    }
  }

  /**
   * Rewrites every `$ref` below `node` (which sits at `tokens` inside `currentFile`) to point into the bundle.
   * `extension`: `node` is inside an `x-` extension, whose references to URLs are its own data, left as written.
   */
  const walk = (
    node: Json,
    currentFile: string,
    tokens: Array<string | number>,
    { role, listOf }: { role: Role; listOf?: ComponentKind },
    extension = false,
  ): void => {
    if (role === 'data' || role === 'other') return;
    if (Array.isArray(node)) {
      const itemRole: Role = role === 'list' ? OBJECT_ROLE[listOf!] : role === 'methods' ? 'method' : role;
      node.forEach((child, i) => walk(child, currentFile, [...tokens, i], { role: itemRole }, extension));
      return;
    }
    if (!isObject(node)) return;
    // References are rewritten to the bundle's root, so an `$id`, which would make them resolve against itself, goes.
    if (role === 'schemas' && typeof node.$id === 'string') delete node.$id;
    // In a map of names (`properties`), `$ref` is a name like any other: the OpenRPC meta-schema's reference object
    // has a property `$ref`.
    const names = role === 'schemaMap';
    if (!names && typeof node.$ref === 'string' && !(extension && isUrl(node.$ref))) {
      const kind: ComponentKind = isKind(role) ? role : 'schemas';
      node.$ref = rewriteRef(node.$ref, currentFile, tokens, kind);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && !names) continue;
      walk(child, currentFile, [...tokens, key], childRole(role, key, extension), extension || isExtension(role, key));
    }
  };

  const pointerOrigin = (file: string, tokens: Array<string | number>) => `${displayPath(file)}#${pointerOf(tokens)}`;
  let aliasHops = 0;

  const where = (currentFile: string, tokens: Array<string | number>) => ({
    file: displayPath(currentFile),
    pointer: pointerOf([...tokens, '$ref']),
  });

  /** The file a reference names, or undefined and a problem (./ref-file.ts). */
  const targetFileOf = (ref: string, path: string, currentFile: string, tokens: Array<string | number>) => {
    const found = refFile(ref, path, currentFile, folder);
    if ('file' in found) return found.file;
    problems.push({ ...where(currentFile, tokens), message: found.refused });
    return undefined;
  };

  /**
   * A reference's JSON pointer: its URI fragment percent-decoded (RFC 6901 section 6: `#/components/schemas/Foo%20Bar`
   * names "Foo Bar"), or a problem at `here` when the encoding is malformed.
   */
  const fragmentOf = (ref: string, here: Omit<SpecProblem, 'message'>): string | undefined => {
    const hash = ref.indexOf('#');
    const fragment = hash < 0 ? '' : localPointer(ref.slice(hash));
    if (fragment === undefined) problems.push({ ...here, message: `$ref "${ref}" has a malformed percent-encoding` });
    return fragment;
  };

  const resources = new Map<string, Map<string, Array<string | number>>>();
  /**
   * Where a reference inside a schema resource (draft-07 `$id`) points in its file: `#/...` inside the resource, or
   * anything naming a resource of the file by its `$id`; undefined for any other reference. Its name is the pointer's
   * inside the resource, or the `$id`'s last segment (`urn:x` is `x`).
   */
  const inResource = (path: string, fragment: string, file: string, tokens: Array<string | number>) => {
    const value = load(file)?.value;
    const around = resourceAt(file, value, tokens);
    let at = path === '' ? around : undefined;
    if (path !== '') {
      if (!resources.has(file)) resources.set(file, resourcesOf(file, value));
      const uri = absoluteUri(path, around?.uri ?? pathToFileURL(file).href);
      const named = uri === undefined ? undefined : resources.get(file)!.get(uri);
      at = named && uri ? { tokens: named, uri } : undefined;
    }
    if (!at) return undefined;
    const inside = parsePointer(fragment);
    const idName = at.uri
      .split(/[/:#]/)
      .filter(Boolean)
      .at(-1)
      ?.replace(/\.json$/i, '');
    return {
      pointer: pointerOf(at.tokens) + fragment,
      nameTokens: inside.length > 0 || idName === undefined ? inside : [idName],
    };
  };

  const rewriteRef = (
    ref: string,
    currentFile: string,
    tokens: Array<string | number>,
    contextKind: ComponentKind,
  ): string => {
    const here = where(currentFile, tokens);
    const hash = ref.indexOf('#');
    const path = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = fragmentOf(ref, here);
    if (fragment === undefined) return ref;
    if (fragment !== '' && !fragment.startsWith('/')) {
      problems.push({ ...here, message: `$ref "${ref}" must end in a JSON pointer (#/...), not an anchor` });
      return ref;
    }
    const resource = inResource(path, fragment, currentFile, tokens);
    const targetFile = resource ? currentFile : targetFileOf(ref, path, currentFile, tokens);
    if (targetFile === undefined) return ref;
    const pointer = resource?.pointer ?? fragment;
    if (targetFile === rootFile && pointer === '') {
      problems.push({ ...here, message: `$ref "${ref}" points at the whole OpenRPC document` });
      return ref;
    }
    const key = `${targetFile}#${pointer}`;
    const known = targets.get(key);
    if (known) return localRef(pointerOf(['components', known.kind, known.name]));

    const loadedTarget = load(targetFile);
    if (!loadedTarget) {
      if (!existsSync(targetFile))
        problems.push({ ...here, message: `broken $ref "${ref}": ${displayPath(targetFile)} does not exist` });
      return ref;
    }
    const { found, value } = resolvePointer(loadedTarget.value, pointer);
    const origin = `${displayPath(targetFile)}#${pointer}`;
    if (!found) {
      problems.push({ ...here, message: `broken $ref "${ref}": ${origin} does not exist` });
      return ref;
    }
    const pointerTokens = parsePointer(pointer);
    // Inside an OpenRPC document, where a value sits says what it is: a method is no schema, a title no error. What an
    // x- extension holds is the extension's to say (this spec's x-result-history holds schemas).
    const isDocument = targetFile === rootFile || (isObject(loadedTarget.value) && 'openrpc' in loadedTarget.value);
    const inExtension = pointerTokens.some((token) => token.startsWith('x-'));
    if (isDocument && !inExtension && roleAt(pointerTokens) !== OBJECT_ROLE[contextKind]) {
      const noun = kindNoun(contextKind);
      problems.push({ ...here, message: `$ref "${ref}" sits where a ${noun} goes, but ${origin} is no ${noun}` });
      return ref;
    }
    const named = namedEntry(pointerTokens, targetFile !== rootFile);
    // A schema inside another (`#/components/schemas/Payload/properties/fee`) that only refers on is what it refers
    // to: the reference goes on from there, so the schema keeps the one name it has.
    if (!named && isAlias(value)) {
      if (aliasHops > MAX_ALIAS_HOPS) {
        problems.push({ ...here, message: `$ref "${ref}" starts a chain of more than ${MAX_ALIAS_HOPS} references` });
        return ref;
      }
      aliasHops++;
      try {
        return rewriteRef(value.$ref, targetFile, pointerTokens, contextKind);
      } finally {
        aliasHops--;
      }
    }
    const stem = knownSchemaName(targetFile) ?? basename(targetFile).replace(/\.json$/i, '');
    const kind = named?.kind ?? contextKind;
    let name = named?.name ?? pathName(resource?.nameTokens ?? pointerTokens) ?? stem;
    if (name === '') {
      problems.push({ ...here, message: `$ref "${ref}": ${origin} ${EMPTY_NAME}` });
      return ref;
    }
    const registry = components[kind];
    const existing = registry.get(name);
    // A document's own component that is only a reference to an entry of the same name elsewhere (`FELT: {"$ref":
    // "./api.json#/components/schemas/FELT"}`) is that entry: the entry takes its place.
    const aliasOfThis = existing !== undefined && existing.origin === pointerOrigin(currentFile, tokens);
    if (existing && named && !aliasOfThis) {
      problems.push({
        ...here,
        message: `component name "${name}" is defined twice: ${existing.origin} and ${origin}`,
      });
      return localRef(pointerOf(['components', kind, name]));
    }
    // A schema reached by its path takes the path's names (`schemas.json#/definitions/Id` is `Id`,
    // `#/components/schemas/Payload/properties/fee` is `Payload_fee`); when that is taken, the file's stem goes in
    // front (`schemas_Id`), so two files' `Id`s stay two components.
    if (existing && !aliasOfThis) name = `${stem}_${name}`;
    if (registry.has(name) && !aliasOfThis) {
      problems.push({
        ...here,
        message: `component name "${name}" is defined twice: ${registry.get(name)!.origin} and ${origin}`,
      });
      return ref;
    }
    const copy = structuredClone(value);
    registry.set(name, { value: copy, origin });
    targets.set(key, { name, kind });
    sources.push({ bundled: pointerOf(['components', kind, name]), file: displayPath(targetFile), pointer });
    walk(copy, targetFile, pointerTokens, { role: OBJECT_ROLE[kind] });
    return localRef(pointerOf(['components', kind, name]));
  };

  const methods = Array.isArray(root.methods) ? root.methods : [];
  root.methods = methods.map((method, i) => {
    if (!isObject(method) || typeof method.$ref !== 'string') {
      walk(method, rootFile, ['methods', i], { role: 'method' });
      return method;
    }
    const ref = method.$ref;
    const hash = ref.indexOf('#');
    const path = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = fragmentOf(ref, { file: displayPath(rootFile), pointer: `/methods/${i}/$ref` });
    if (fragment === undefined) return method;
    const methodFile = targetFileOf(ref, path, rootFile, ['methods', i]);
    if (methodFile === undefined) return method;
    const target = load(methodFile);
    const { found, value } = target ? resolvePointer(target.value, fragment) : { found: false, value: undefined };
    if (!target && existsSync(methodFile)) return method;
    if (!found || (methodFile === rootFile && fragment === '')) {
      problems.push({
        file: displayPath(rootFile),
        pointer: `/methods/${i}/$ref`,
        message: `broken method $ref "${ref}": ${displayPath(methodFile)}#${fragment} does not exist`,
      });
      return method;
    }
    const inlined = structuredClone(value);
    sources.push({ bundled: `/methods/${i}`, file: displayPath(methodFile), pointer: fragment });
    walk(inlined, methodFile, parsePointer(fragment), { role: 'method' });
    // A method reference may say how this endpoint takes the params (`paramStructure`) and annotate the method with
    // this project's extensions (`x-side-effects`): the foreign method stays as its authors wrote it.
    if (isObject(inlined))
      for (const [key, note] of Object.entries(method))
        if (key === 'paramStructure' || key.startsWith('x-')) inlined[key] = structuredClone(note);
    return inlined;
  });
  for (const [key, child] of Object.entries(root))
    if (key !== 'methods') walk(child, rootFile, [key], childRole('document', key), isExtension('document', key));

  const bundledComponents: Record<string, Obj> = isObject(root.components)
    ? (root.components as Record<string, Obj>)
    : {};
  for (const kind of COMPONENT_KINDS) {
    const entries = [...components[kind].entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) continue;
    bundledComponents[kind] = Object.fromEntries(entries.map(([name, { value }]) => [name, value]));
  }
  if (Object.keys(bundledComponents).length > 0) root.components = bundledComponents;

  if (problems.length > 0) throw new SpecError(problems);
  const name = basename(rootFile).replace(/\.json$/i, '');
  return { name, file: displayPath(rootFile), document: root, sources };
}

/** An `x-` key is an extension, except where keys are names (`properties`, `components/schemas`). */
const isExtension = (role: Role, key: string) => key.startsWith('x-') && !role.endsWith('Map');

const EMPTY_NAME = 'has an empty name, which no generated type or component can take: name it';

/** More hops than any document needs; a longer chain is a cycle of references to references. */
const MAX_ALIAS_HOPS = 64;

/** A schema that is only a reference (`{"$ref": "..."}`): another name for what it refers to. */
function isAlias(value: Json): value is { $ref: string } {
  return isObject(value) && typeof value.$ref === 'string' && Object.keys(value).length === 1;
}
