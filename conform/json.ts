/** JSON helpers of the conformance runner: previews for messages and structural equality, without recursion. */
import { depthWithin, stringifyJson } from '../generators/common/json.ts';

/** A short, single-line preview of a value for a message (deep or long values are cut). */
export function previewJson(value: unknown): string {
  const max = 80;
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
