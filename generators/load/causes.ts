/**
 * One root cause per problem. With `allErrors`, a value that fails a `oneOf`/`anyOf` comes back with every branch's
 * failures plus the combinator's own line; an author needs only the branch the value came closest to. Each failed
 * combinator's branches are validated again one by one, the best is kept (recursively), the rest dropped; an `if`'s
 * summary line goes when the `then`/`else` failures it sums up are there.
 */
import type { ErrorObject } from 'ajv';

/** Validates `value` against one branch schema (as written in the document), returning ajv's verbose errors. */
export type CheckBranch = (branch: unknown, value: unknown) => ErrorObject[];

const COMBINATORS = new Set(['oneOf', 'anyOf']);
const depth = (pointer: string) => (pointer === '' ? 0 : pointer.split('/').length);
const key = (e: ErrorObject, base = '') => `${base}${e.instancePath}\u0000${e.keyword}\u0000${e.message ?? ''}`;

/**
 * How well a branch matched: a branch refused for the value's very type matched least; then the deeper its failures
 * sit in the value (the more of the value it accepted), the better; then the fewer failures.
 */
function score(errors: ErrorObject[]): number[] {
  const wrongType = errors.some(
    (e) => e.instancePath === '' && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum'),
  );
  return [wrongType ? 0 : 1, Math.max(0, ...errors.map((e) => depth(e.instancePath))), -errors.length];
}

const better = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
};

export function rootCauses(
  errors: readonly ErrorObject[],
  check: CheckBranch,
  done = new WeakSet<ErrorObject>(),
): ErrorObject[] {
  let out = [...errors];
  for (;;) {
    const k = out.findIndex(
      (e) =>
        COMBINATORS.has(e.keyword) &&
        !done.has(e) &&
        Array.isArray(e.schema) &&
        (e.params as { passingSchemas?: unknown }).passingSchemas == null,
    );
    if (k < 0) return withoutSummaries(out);
    const combinator = out[k]!;
    done.add(combinator);
    const base = combinator.instancePath;
    const branches = (combinator.schema as unknown[]).map((branch) => check(branch, combinator.data));
    if (branches.some((b) => b.length === 0)) continue;
    let best = branches[0]!;
    for (const branch of branches.slice(1)) if (better(score(branch), score(best))) best = branch;
    const explained = new Set(branches.flat().map((e) => key(e, base)));
    const under = (e: ErrorObject) => e.instancePath === base || e.instancePath.startsWith(`${base}/`);
    const replacement = rootCauses(best, check, done).map((e) => ({ ...e, instancePath: base + e.instancePath }));
    const before = out.slice(0, k).filter((e) => !(under(e) && explained.has(key(e))));
    out = [...before, ...replacement, ...out.slice(k + 1)];
  }
}

/** `must match "then" schema` only sums up the failures of `then`/`else` beside it: those are the causes. */
function withoutSummaries(errors: ErrorObject[]): ErrorObject[] {
  return errors.filter(
    (summary) =>
      summary.keyword !== 'if' ||
      !errors.some(
        (e) =>
          e !== summary &&
          e.keyword !== 'if' &&
          (e.instancePath === summary.instancePath || e.instancePath.startsWith(`${summary.instancePath}/`)),
      ),
  );
}
