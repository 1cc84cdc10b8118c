/**
 * A validator checks one value against every schema that applies to it at once: its `$ref`, `allOf`, `anyOf`, `oneOf`,
 * `not`, `if`/`then`/`else`, each written out. A few kilobytes can make that billions (`S1: {allOf: [S0, S0]}`,
 * `S2: {allOf: [S1, S1]}`, ...: each level doubles), and every validator (the loader's example checks, the generated
 * server, the conformance runner) would hang on the first value. So each schema is counted so before any generator
 * runs; one past the budget is a spec problem at that schema, never a hang. What applies to a value's properties or
 * items is not counted: a validator meets it once per value it holds, so a document whose properties double at each
 * level (a billion schemas written out) is read as any other, and nothing else writes `$ref`s out.
 *
 * Each schema is counted once: a count is kept per schema object and capped at the budget, so this takes time linear
 * in the document, however large the counts.
 */
import { type BundledDocument, locate } from '../common/document.ts';
import { isObject } from '../common/json.ts';
import { type SpecProblem, localPointer, pointerOf, resolvePointer } from '../common/problems.ts';

/** The most schemas one value may be checked against, `$ref`s written out: far above any public document's. */
export const MAX_SCHEMAS_PER_VALUE = 10_000;

/** The keywords whose schemas apply to the value itself, not to its properties or items. */
const LISTS = ['allOf', 'anyOf', 'oneOf'];
const SINGLES = ['not', 'if', 'then', 'else'];

/** One problem per schema past the budget whose own parts are within it: where the doubling crosses the line. */
export function expansionProblems(bundle: BundledDocument): SpecProblem[] {
  const document = bundle.document;
  const parts = (node: object): object[] => {
    const schema = node as Record<string, unknown>;
    const found: unknown[] = [...SINGLES.map((key) => schema[key])];
    for (const key of LISTS) if (Array.isArray(schema[key])) found.push(...schema[key]);
    const pointer = typeof schema.$ref === 'string' ? localPointer(schema.$ref) : undefined;
    if (pointer !== undefined) found.push(resolvePointer(document, pointer).value);
    return found.filter(isObject);
  };
  const count = counter(parts, MAX_SCHEMAS_PER_VALUE + 1);
  const problems: SpecProblem[] = [];
  const pending: Array<{ value: unknown; tokens: string[] }> = [{ value: document, tokens: [] }];
  while (pending.length > 0) {
    const { value, tokens } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) pending.push({ value: child, tokens: [...tokens, key] });
    if (Array.isArray(value) || count(value) <= MAX_SCHEMAS_PER_VALUE) continue;
    if (parts(value).some((part) => count(part) > MAX_SCHEMAS_PER_VALUE)) continue;
    problems.push({
      ...locate(bundle, pointerOf(tokens)),
      message: `a value this schema describes is checked against more than ${MAX_SCHEMAS_PER_VALUE.toLocaleString('en')} schemas at once, with its $refs written out (allOf, anyOf, oneOf, not, if/then/else; a $ref used twice counts twice): every validator would check them all, so the toolkit reads schemas up to that size`,
    });
  }
  return problems;
}

/**
 * Counts an object and, recursively, its `parts`, each count capped at `cap`. Iterative (a chain of references may be
 * longer than the stack is deep), each object counted once: its count is kept, and a part that leads back to an
 * object still being counted (a recursive schema) counts one.
 */
function counter(parts: (node: object) => object[], cap: number): (value: object) => number {
  const counts = new Map<object, number>();
  const open = new Set<object>();
  return (root) => {
    const stack: Array<{ node: object; expanded: boolean }> = [{ node: root, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (counts.has(top.node)) {
        stack.pop();
        continue;
      }
      if (!top.expanded) {
        top.expanded = true;
        open.add(top.node);
        for (const part of parts(top.node))
          if (!counts.has(part) && !open.has(part)) stack.push({ node: part, expanded: false });
        continue;
      }
      stack.pop();
      open.delete(top.node);
      let count = 1;
      for (const part of parts(top.node)) count = Math.min(count + (open.has(part) ? 1 : (counts.get(part) ?? 0)), cap);
      counts.set(top.node, count);
    }
    return counts.get(root)!;
  };
}
