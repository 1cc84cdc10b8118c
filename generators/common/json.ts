/** JSON helpers the loader and the model share. */
import { resolvePointer } from './problems.ts';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * JSON with object keys sorted at every depth: equal values give equal text, whatever order their keys were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node !== null && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : node,
  );
}

/** Follows a local `#/components/...` reference inside the bundled document. */
export function deref(document: unknown, node: unknown): { node: unknown; pointer?: string } {
  if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    const pointer = node.$ref.slice(1);
    return { node: resolvePointer(document, pointer).value, pointer };
  }
  return { node };
}
