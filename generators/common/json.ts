/** JSON helpers the loader, the model, the conformance runner and the mock share. */
import { localPointer, resolvePointer } from './problems.ts';

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
  const pointer = isObject(node) && typeof node.$ref === 'string' ? localPointer(node.$ref) : undefined;
  if (pointer !== undefined) return { node: resolvePointer(document, pointer).value, pointer };
  return { node };
}

/*
 * JSON text of any parsed JSON value, however deeply nested. `JSON.parse` takes nesting thousands of levels deep but
 * `JSON.stringify` recurses and throws past a few thousand, so a 12 KB request id nested 5,000 levels could crash
 * whatever wrote it back out. This writer keeps its own stack; for shallow values it is `JSON.stringify` itself.
 */

/** Below this depth `JSON.stringify` is safe and faster. */
const NATIVE_DEPTH = 500;

type Frame = { value: unknown; key?: string };

/** `space` indents as `JSON.stringify` does, except past NATIVE_DEPTH, where indentation would grow quadratically. */
export function stringifyJson(value: unknown, space = 0): string {
  if (depthWithin(value, NATIVE_DEPTH)) return JSON.stringify(value, null, space) ?? 'null';
  return compact(value);
}

function compact(value: unknown): string {
  const out: string[] = [];
  const stack: Array<Frame | string> = [{ value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (typeof frame === 'string') {
      out.push(frame);
      continue;
    }
    const v = frame.value;
    if (frame.key !== undefined) out.push(JSON.stringify(frame.key), ':');
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const entries: Array<[string | undefined, unknown]> = Array.isArray(v)
      ? v.map((item) => [undefined, item])
      : Object.entries(v as Record<string, unknown>).filter(
          ([, item]) => item !== undefined && typeof item !== 'function',
        );
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      out.push(open + close);
      continue;
    }
    out.push(open);
    // Pushed in reverse: the stack pops them in order.
    stack.push(close);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push(key === undefined ? { value: item } : { value: item, key });
      if (i > 0) stack.push(',');
    }
  }
  return out.join('');
}

/** Whether `value` nests no deeper than `limit` (checked without recursion). */
export function depthWithin(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return true;
}
