/**
 * Bundles one endpoint document: method `$ref`s are inlined, and every `$ref` to a components file entry
 * (`file#/schemas/Name`, `#/errors/Name`, `#/contentDescriptors/Name`) becomes `#/components/<kind>/Name`, so the
 * result is one self-contained OpenRPC document. `sources` maps each bundled subtree back to its hand-written file, so
 * later checks can name the file and JSON pointer an author must fix.
 */
import { dirname, resolve } from 'node:path';
import { displayPath, readJsonFile } from './read.ts';
import { SpecError, type SpecProblem, parsePointer, pointerOf, resolvePointer } from './problems.ts';

export const COMPONENT_KINDS = ['schemas', 'contentDescriptors', 'errors', 'examples'] as const;
type ComponentKind = (typeof COMPONENT_KINDS)[number];

export interface SourceMapping {
  /** Pointer into the bundled document. */
  bundled: string;
  file: string;
  /** Pointer into `file` that `bundled` came from. */
  pointer: string;
}

export interface BundledDocument {
  /** Endpoint name: the document's file name without `.json`. */
  name: string;
  file: string;
  document: Record<string, unknown>;
  sources: SourceMapping[];
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function bundleDocument(file: string, read: (file: string) => Json = readJsonFile): BundledDocument {
  const problems: SpecProblem[] = [];
  const cache = new Map<string, Json>();
  const readCached = (path: string): Json => {
    if (!cache.has(path)) cache.set(path, read(path));
    return cache.get(path);
  };
  const components: Record<ComponentKind, Map<string, { value: Json; origin: string }>> = {
    schemas: new Map(),
    contentDescriptors: new Map(),
    errors: new Map(),
    examples: new Map(),
  };
  const sources: SourceMapping[] = [{ bundled: '', file: displayPath(file), pointer: '' }];

  const root = structuredClone(readCached(file));
  if (!isObject(root)) throw new SpecError([{ file: displayPath(file), pointer: '', message: 'an OpenRPC document must be a JSON object' }]);

  /** Rewrites every `$ref` below `node` (which sits at `tokens` inside `currentFile`) to point into the bundle. */
  const walk = (node: Json, currentFile: string, tokens: Array<string | number>): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, currentFile, [...tokens, i]));
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') node.$ref = rewriteRef(node.$ref, currentFile, tokens);
    for (const [key, child] of Object.entries(node)) {
      // Example values are wire data, never references.
      if (key === 'value' && tokens.includes('examples')) continue;
      walk(child, currentFile, [...tokens, key]);
    }
  };

  const rewriteRef = (ref: string, currentFile: string, tokens: Array<string | number>): string => {
    const here = { file: displayPath(currentFile), pointer: pointerOf([...tokens, '$ref']) };
    const hash = ref.indexOf('#');
    const path = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    const targetFile = path === '' ? currentFile : resolve(dirname(currentFile), path);
    const [kind, name, ...rest] = parsePointer(fragment);
    if (!COMPONENT_KINDS.includes(kind as ComponentKind) || !name || rest.length > 0) {
      problems.push({ ...here, message: `$ref "${ref}" must point at a components entry: <file>#/schemas/<Name>, #/errors/<Name>, #/contentDescriptors/<Name> or #/examples/<Name>` });
      return ref;
    }
    const registry = components[kind as ComponentKind];
    const origin = `${displayPath(targetFile)}#${fragment}`;
    const existing = registry.get(name);
    if (existing) {
      if (existing.origin !== origin) problems.push({ ...here, message: `component name "${name}" is defined twice: ${existing.origin} and ${origin}` });
      return `#/components/${kind}/${name}`;
    }
    let target: Json;
    try {
      target = readCached(targetFile);
    } catch (error) {
      problems.push({ ...here, message: `broken $ref "${ref}": ${error instanceof SpecError ? error.problems[0]?.message : String(error)}` });
      return ref;
    }
    const { found, value } = resolvePointer(target, fragment);
    if (!found) {
      problems.push({ ...here, message: `broken $ref "${ref}": ${origin} does not exist` });
      return ref;
    }
    const copy = structuredClone(value);
    registry.set(name, { value: copy, origin });
    sources.push({ bundled: `/components/${kind}/${pointerOf([name]).slice(1)}`, file: displayPath(targetFile), pointer: fragment });
    walk(copy, targetFile, parsePointer(fragment));
    return `#/components/${kind}/${name}`;
  };

  const methods = Array.isArray(root.methods) ? root.methods : [];
  root.methods = methods.map((method, i) => {
    if (!isObject(method) || typeof method.$ref !== 'string') {
      walk(method, file, ['methods', i]);
      return method;
    }
    const methodFile = resolve(dirname(file), method.$ref);
    let inlined: Json;
    try {
      inlined = structuredClone(readCached(methodFile));
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      problems.push({ file: displayPath(file), pointer: `/methods/${i}/$ref`, message: `broken method $ref "${method.$ref}": ${error.problems[0]?.message}` });
      return method;
    }
    sources.push({ bundled: `/methods/${i}`, file: displayPath(methodFile), pointer: '' });
    walk(inlined, methodFile, []);
    return inlined;
  });
  if (isObject(root.components)) walk(root.components, file, ['components']);

  const bundledComponents: Record<string, Record<string, Json>> = isObject(root.components) ? (root.components as Record<string, Record<string, Json>>) : {};
  for (const kind of COMPONENT_KINDS) {
    const entries = [...components[kind].entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) continue;
    bundledComponents[kind] = { ...(bundledComponents[kind] ?? {}), ...Object.fromEntries(entries.map(([name, { value }]) => [name, value])) };
  }
  if (Object.keys(bundledComponents).length > 0) root.components = bundledComponents;

  if (problems.length > 0) throw new SpecError(problems);
  const name = displayPath(file).split('/').pop()!.replace(/\.json$/, '');
  return { name, file: displayPath(file), document: root, sources };
}

/** The hand-written file and pointer that a pointer into the bundled document came from. */
export function locate(bundle: BundledDocument, bundledPointer: string): { file: string; pointer: string } {
  let best: SourceMapping = bundle.sources[0]!;
  for (const mapping of bundle.sources) {
    const prefix = mapping.bundled;
    const matches = bundledPointer === prefix || bundledPointer.startsWith(prefix + '/');
    if (matches && prefix.length >= best.bundled.length) best = mapping;
  }
  return { file: best.file, pointer: best.pointer + bundledPointer.slice(best.bundled.length) };
}
