/**
 * One generator step still follows every `$ref` of a method's schemas, path by path: the secrets' paths
 * (model/sensitive.ts, for the client's error excerpts and the proxy's redactor). The server's shapes, the docs' trees
 * and the client's types name a shared schema instead of writing it out again, so they grow with the file. The
 * secrets' paths grow with a schema's size written out: a few kilobytes can stand for billions of schemas (`S1: {a:
 * S0, b: S0}`, `S2: {a: S1, b: S1}`, ...: each level doubles; 64 levels kept the client generator busy for minutes),
 * and a long chain of components, each one a method's param, makes the whole document grow with the square of its
 * length. So each method's schemas, and all methods' together, are counted as written out (each shared schema counted
 * once per use, a recursive one once per cycle) before any generator runs; a document past the budget is a spec
 * problem at the method that passes it, never a hang.
 *
 * The counting follows each schema once: a count is kept per schema object and capped at the budget, so this takes
 * time linear in the document, however large the counts.
 */
import { type BundledDocument, locate } from '../common/document.ts';
import { isObject } from '../common/json.ts';
import { type SpecProblem, localPointer, resolvePointer } from '../common/problems.ts';

/**
 * The most schemas one method's params, result and errors may come to with every `$ref` written out, and all of a
 * document's methods together: five times Starknet's largest method (1,807) and twelve times the largest document read
 * (ethereum/execution-apis, 7,952; Filecoin Lotus' 1.2 MB API comes to 6,846), far below what keeps the
 * secrets' walk busy for minutes.
 */
export const MAX_METHOD_EXPANSION = 10_000;
export const MAX_DOCUMENT_EXPANSION = 100_000;

/** One problem per method past its budget, and one for the document past its own, or none. */
export function expansionProblems(bundle: BundledDocument): SpecProblem[] {
  const sizes = expandedSizes(bundle.document);
  const problems: SpecProblem[] = [];
  sizes.forEach((size, i) => {
    if (size > MAX_METHOD_EXPANSION)
      problems.push({
        ...locate(bundle, `/methods/${i}`),
        message: `this method's schemas, with every $ref written out, come to more than ${MAX_METHOD_EXPANSION.toLocaleString('en')} schemas (a $ref used twice counts twice); the generators write them out, so the toolkit reads methods up to that size`,
      });
  });
  const total = sizes.reduce((sum, size) => Math.min(sum + size, MAX_DOCUMENT_EXPANSION + 1), 0);
  if (problems.length === 0 && total > MAX_DOCUMENT_EXPANSION)
    problems.push({
      ...locate(bundle, '/methods'),
      message: `the methods' schemas, with every $ref written out, come to more than ${MAX_DOCUMENT_EXPANSION.toLocaleString('en')} schemas together (a $ref used twice counts twice); the generators write them out, so the toolkit reads documents up to that size`,
    });
  return problems;
}

/** Each method's params, result and errors counted with every `$ref` written out, capped past the document budget. */
export function expandedSizes(document: Record<string, unknown>): number[] {
  const counter = expandedCounter(document, MAX_DOCUMENT_EXPANSION + 1);
  const methods = Array.isArray(document.methods) ? document.methods : [];
  return methods.map((method) => {
    const target = followed(document, method);
    return isObject(target) ? counter([target.params, target.result, target.errors]) : 0;
  });
}

/** Keywords whose values are data, not schemas: an enum of many objects is no larger a schema for it. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);

/** The object a `$ref` inside the document leads to, or the value itself. */
function followed(document: unknown, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value;
  const pointer = localPointer(value.$ref);
  return pointer === undefined ? value : resolvePointer(document, pointer).value;
}

/**
 * Counts the objects and arrays in a value with every local `$ref` replaced by what it names, each count capped at
 * `cap`. Iterative (a chain of references may be longer than the stack is deep), each object counted once: its count
 * is kept, and a reference back to an object still being counted (a recursive schema) counts one.
 */
function expandedCounter(document: unknown, cap: number): (value: unknown) => number {
  const counts = new Map<object, number>();
  const open = new Set<object>();
  const maps = new WeakSet<object>();
  const countOf = (node: unknown): number =>
    node !== null && typeof node === 'object' ? (open.has(node) ? 1 : (counts.get(node) ?? 0)) : 0;
  const parts = (node: object): unknown[] => {
    // A map of schemas by name (`properties`) may name one `enum`: only a schema's own keywords are data.
    if (Array.isArray(node) || maps.has(node)) return Array.isArray(node) ? node : Object.values(node);
    const values: unknown[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && isObject(value)) maps.add(value);
      values.push(value);
    }
    const target = followed(document, node);
    return target === node ? values : [...values, target];
  };
  return (root) => {
    if (root === null || typeof root !== 'object') return 0;
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
          if (part !== null && typeof part === 'object' && !counts.has(part) && !open.has(part))
            stack.push({ node: part, expanded: false });
        continue;
      }
      stack.pop();
      open.delete(top.node);
      let count = 1;
      for (const part of parts(top.node)) count = Math.min(count + countOf(part), cap);
      counts.set(top.node, count);
    }
    return counts.get(root)!;
  };
}
