/**
 * The loader and every generator after it walk schemas recursively, so a document nested deeper than any real one
 * (the spec's files nest 20 levels at most) could exhaust the stack: `MAX_DEPTH` is checked, without recursion, as
 * each file is read and after bundling, and a deeper document is a spec problem at the pointer where it passes it.
 */
import { type SpecProblem, pointerOf } from '../common/problems.ts';

/** The deepest nesting of objects and arrays a spec document may have (openrpc/README.md). */
export const MAX_DEPTH = 128;

/** The first place `value` nests deeper than MAX_DEPTH, as a problem of `file`, or undefined. */
export function depthProblem(value: unknown, file: string): SpecProblem | undefined {
  // Each entry: a container and the path to it, as parent links, so a path is only spelled out for the problem.
  interface Path {
    parent: Path | undefined;
    token: string;
  }
  const stack: Array<{ value: object; depth: number; path: Path | undefined }> = [];
  if (value !== null && typeof value === 'object') stack.push({ value, depth: 1, path: undefined });
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop()!;
    if (depth > MAX_DEPTH) {
      const tokens: string[] = [];
      for (let at = path; at; at = at.parent) tokens.unshift(at.token);
      return {
        file,
        pointer: pointerOf(tokens),
        message: `nested more than ${MAX_DEPTH} levels deep; the toolkit reads documents up to that depth`,
      };
    }
    for (const [token, child] of Object.entries(node))
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: depth + 1, path: { parent: path, token } });
  }
  return undefined;
}
