/**
 * JSON Schema `pattern`s matched in linear time, with ECMA-262's meaning (draft-07 6.3.3): JavaScript's backtracking
 * engine takes exponential time on a pattern such as `^(a+)+$` and a hostile value, and a validator blocks every
 * caller while it runs. A pattern whose shape proves V8's RegExp linear on it (backtracking.ts: every pattern of the
 * Avalanche documents but one, which RE2 and ECMA-262 read alike) is V8's; RE2JS matches the rest, given `\s`, `\S`
 * and `.` as ECMA-262's explicit classes (RE2's are narrower or wider). RE2 has no lookaround and no backreferences: a
 * pattern using them does not compile, and ajv reports the compile error with the schema (the spec loader names the
 * file and pointer).
 */
import { RE2JS } from 're2js';
import { nativeIsLinear } from './backtracking.ts';
import { remembered } from './formats.ts';
import { withEcmaClasses } from './regexp-subset.ts';

export interface LinearPattern {
  test(text: string): boolean;
  /** ajv keeps one compiled pattern per distinct text of this. */
  toString(): string;
}

/** ajv's `code.regExp` option: compiles a pattern (ajv also passes its flags, which RE2 does not need). */
export interface LinearRegExp {
  (pattern: string): LinearPattern;
  code: string;
}

/**
 * Each pattern compiled once in the process: ajv keeps its compiled patterns per instance, and the same few patterns
 * (IDs, addresses, integers) recur in every endpoint and in both validators of each; RE2JS takes a millisecond or more
 * per pattern (tens for the long integer ranges, with their first matches), a good part of a method's first call.
 */
const compiledPatterns = new Map<string, LinearPattern>();

/**
 * ajv's `code.regExp` engine (its public option): V8's RegExp where backtracking.ts proves it linear, else RE2JS
 * through its translation of JavaScript's syntax. Matching costs V8 a few hundred nanoseconds and RE2JS a microsecond
 * or more, and the same IDs and addresses recur, so recent verdicts are remembered.
 */
export const linearRegExp: LinearRegExp = Object.assign(
  (pattern: string): LinearPattern => {
    let linear = compiledPatterns.get(pattern);
    if (!linear) {
      const test = nativeIsLinear(pattern) ? nativeTest(pattern) : re2Test(pattern);
      linear = { test: remembered(test), toString: () => `/${pattern}/` };
      compiledPatterns.set(pattern, linear);
    }
    return linear;
  },
  // Only ajv's standalone code would print this; validators are compiled at run time.
  { code: 're2js' },
);

/**
 * The server's engine: each pattern compiled on its first test, so that a pattern only a value of another kind would
 * reach (the string branch of a "string or integer" param called with an integer) costs a method's first call nothing.
 * The spec loader compiled every pattern of the document with linearRegExp, so a pattern here never fails to compile.
 */
export const deferredLinearRegExp: LinearRegExp = Object.assign(
  (pattern: string): LinearPattern => {
    let linear: LinearPattern | undefined;
    return { test: (text) => (linear ??= linearRegExp(pattern)).test(text), toString: () => `/${pattern}/` };
  },
  { code: 're2js' },
);

/** V8's RegExp, for a pattern proven linear on it: compiled in microseconds. RE2JS for one V8 refuses. */
function nativeTest(pattern: string): (text: string) => boolean {
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'u');
  } catch {
    return re2Test(pattern);
  }
  return (text) => compiled.test(text);
}

function re2Test(pattern: string): (text: string) => boolean {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(withEcmaClasses(pattern)));
  } catch (error) {
    throw new Error(
      `pattern ${JSON.stringify(pattern)} is not supported: patterns are matched by RE2 in linear time, which has ` +
        `no lookaround or backreferences (${(error as Error).message})`,
    );
  }
  return (text) => compiled.test(text);
}
