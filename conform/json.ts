/**
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

/** A short, single-line preview of a value for a message (deep or long values are cut). */
export function previewJson(value: unknown, max = 80): string {
  const text = depthWithin(value, 20) ? stringifyJson(value) : '(nested more than 20 levels)';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Structural equality of two parsed JSON values, without recursion. */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (
      x === null ||
      y === null ||
      typeof x !== 'object' ||
      typeof y !== 'object' ||
      Array.isArray(x) !== Array.isArray(y)
    )
      return false;
    const xk = Object.keys(x);
    const yk = Object.keys(y);
    if (xk.length !== yk.length) return false;
    for (const key of xk) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}
