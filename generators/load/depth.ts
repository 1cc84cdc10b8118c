/**
 * Bounds on what a spec file may hold, so the work of reading and generating it is bounded too, whoever wrote it:
 * - the loader and every generator after it walk schemas recursively, so a document nested deeper than any real one
 *   (the spec's files nest 20 levels at most) could exhaust the stack: `MAX_DEPTH`;
 * - generation takes milliseconds per method and per schema, so a file of millions of values would run for hours:
 *   `MAX_FILE_BYTES`, checked before the file is read, and `MAX_VALUES` (the field's largest documents, Lotus' and
 *   execution-apis', are 1 to 2 MB; Lotus' 1.2 MB holds 20,252 values, and a document of 100,000 takes a minute or two);
 * - an `enum` becomes a TypeScript union, and tsc cannot check one of a hundred thousand members: `MAX_ENUM`.
 * Each is checked in one walk without recursion, and a document past one is a spec problem at the pointer where it
 * passes it.
 */
import { type SpecProblem, pointerOf } from '../common/problems.ts';

/** The deepest nesting of objects and arrays a spec document may have (openrpc/README.md). */
export const MAX_DEPTH = 128;
/** The largest spec file read, in bytes. */
export const MAX_FILE_BYTES = 16 * 2 ** 20;
/** The most JSON values (objects, arrays and scalars) one spec file may hold. */
export const MAX_VALUES = 100_000;
/** The most values one `enum` may list. */
export const MAX_ENUM = 10_000;

/** The first bound `value` passes, as a problem of `file`, or undefined. */
export function boundsProblem(value: unknown, file: string): SpecProblem | undefined {
  // Each entry: a container and the path to it, as parent links, so a path is only spelled out for the problem.
  interface Path {
    parent: Path | undefined;
    token: string;
  }
  const pointer = (path: Path | undefined) => {
    const tokens: string[] = [];
    for (let at = path; at; at = at.parent) tokens.unshift(at.token);
    return pointerOf(tokens);
  };
  const stack: Array<{ value: object; depth: number; path: Path | undefined }> = [];
  if (value !== null && typeof value === 'object') stack.push({ value, depth: 1, path: undefined });
  let values = 1;
  let largest: { path: Path | undefined; size: number; array: boolean } = { path: undefined, size: 0, array: false };
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop()!;
    if (depth > MAX_DEPTH)
      return {
        file,
        pointer: pointer(path),
        message: `nested more than ${MAX_DEPTH} levels deep; the toolkit reads documents up to that depth`,
      };
    const entries = Object.entries(node);
    values += entries.length;
    if (entries.length > largest.size) largest = { path, size: entries.length, array: Array.isArray(node) };
    for (const [token, child] of entries) {
      if (child === null || typeof child !== 'object') continue;
      const at = { parent: path, token };
      if (token === 'enum' && Array.isArray(child) && child.length > MAX_ENUM)
        return {
          file,
          pointer: pointer(at),
          message: `an enum of ${child.length.toLocaleString('en')} values; the toolkit reads enums of up to ${MAX_ENUM.toLocaleString('en')} values (each becomes a member of a TypeScript union)`,
        };
      stack.push({ value: child, depth: depth + 1, path: at });
    }
    if (values > MAX_VALUES)
      return {
        file,
        pointer: pointer(largest.path),
        message: `the file holds more than ${MAX_VALUES.toLocaleString('en')} JSON values, the most the toolkit reads; the largest part is this ${largest.array ? 'array' : 'object'} of ${largest.size} ${largest.array ? 'items' : 'members'}`,
      };
  }
  return undefined;
}
