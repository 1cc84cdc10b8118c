/**
 * How much of an example the pages and READMEs show. An example is data of any size (a 50 MB block is a valid one),
 * but the docs write each example four times over, marked up, and the client's README pastes one: past
 * MAX_SHOWN_EXAMPLE characters of JSON, a value is replaced by a note of its size. The published documents and the
 * server's `rpc.discover` keep every example whole.
 */
import type { Json } from '../model/types.ts';

/** The most characters of JSON an example's params or result may take to be shown in full (openrpc/README.md). */
export const MAX_SHOWN_EXAMPLE = 65_536;

/** Whether `value` written as JSON takes more than `limit` characters; it stops counting as soon as it does. */
export function largerThan(value: Json, limit: number): boolean {
  let size = 0;
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') size += node.length + 2;
    else if (node === null || typeof node !== 'object') size += String(node).length;
    else if (Array.isArray(node)) {
      size += node.length + 1;
      for (const item of node) stack.push(item);
    } else
      for (const [key, child] of Object.entries(node)) {
        size += key.length + 4;
        stack.push(child);
      }
    if (size > limit) return true;
  }
  return false;
}

/** `value`, or a note of its size when it is too large to show. */
export function shownExample(value: Json): Json {
  if (!largerThan(value, MAX_SHOWN_EXAMPLE)) return value;
  return `(more than ${MAX_SHOWN_EXAMPLE} characters of JSON, too large to show here: see the OpenRPC document)`;
}
