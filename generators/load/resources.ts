/**
 * JSON Schema draft-07 resources (section 8.2): a schema with an `$id` is a resource of its own, so `#/definitions/E`
 * inside it names its own `definitions`, and a reference naming the `$id` (`urn:x#/definitions/E`) names it from
 * anywhere in the file, as schemas generated from code write them. An `$id` is only a name: nothing is ever fetched.
 */
import { pathToFileURL } from 'node:url';
import { isObject } from '../common/json.ts';

type Tokens = Array<string | number>;

/** A resource: where its schema sits in the file, and its URI (the `$id` resolved against the resources around it). */
interface Resource {
  tokens: Tokens;
  uri: string;
}

/** The resource around the value at `tokens` (the nearest `$id` at or above it), if any but the file's own. */
export function resourceAt(file: string, root: unknown, tokens: Tokens): Resource | undefined {
  let base = pathToFileURL(file).href;
  let found: Resource | undefined;
  let node = root;
  for (let depth = 0; ; depth++) {
    const uri = idOf(node, base);
    if (uri !== undefined) {
      base = uri;
      found = { tokens: tokens.slice(0, depth), uri };
    }
    if (depth === tokens.length || (!isObject(node) && !Array.isArray(node))) return found;
    node = (node as Record<string | number, unknown>)[tokens[depth]!];
  }
}

/** Every resource of a file by its URI, each `$id` resolved against the resources around it. */
export function resourcesOf(file: string, root: unknown): Map<string, Tokens> {
  const byUri = new Map<string, Tokens>();
  const visit = (node: unknown, base: string, tokens: Tokens): void => {
    if (Array.isArray(node)) return node.forEach((child, i) => visit(child, base, [...tokens, i]));
    if (!isObject(node)) return;
    const uri = idOf(node, base);
    if (uri !== undefined && !byUri.has(uri)) byUri.set(uri, tokens);
    for (const [key, child] of Object.entries(node)) visit(child, uri ?? base, [...tokens, key]);
  };
  visit(root, pathToFileURL(file).href, []);
  return byUri;
}

/** A URI without its fragment, `ref` resolved against `base`; undefined when it cannot be resolved (`urn:` bases). */
export function absoluteUri(ref: string, base: string): string | undefined {
  try {
    const url = new URL(ref, base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** The URI an object's `$id` gives it; none for no `$id` or a plain-name one (`#foo`, an anchor, not a resource). */
function idOf(node: unknown, base: string): string | undefined {
  if (!isObject(node) || typeof node.$id !== 'string' || node.$id.startsWith('#')) return undefined;
  return absoluteUri(node.$id, base);
}
