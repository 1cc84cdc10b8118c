/**
 * Whether JavaScript's own (backtracking) RegExp matches a pattern in time linear in the text, proven from the
 * pattern's shape alone. RE2JS is linear for every pattern, but compiling a long pattern and its first matches cost it
 * milliseconds of a method's first call, where V8 compiles one in microseconds. A pattern is proven when it is anchored
 * at its start (one start position), written in the subset `parse` reads, and
 * - each unbounded repetition (`*`, `+`, `{n,}`) repeats fixed-width text (`fixedText`) none of whose first
 *   characters can follow the repetition: once it stops, each iteration it gives back leaves a character the rest
 *   cannot start with, so the rest fails at its first character and the repetition has one way to go on;
 * - the paths the backtracker can take through the bounded rest (`{m,n}`, `?`, alternatives), counted from the
 *   pattern's structure (`cost`), stay under LIMIT.
 * A test then takes at most about LIMIT steps, plus LIMIT per character of text. Anything else (lookaround,
 * back-references, repeated groups with alternatives, ...) is left to RE2JS. ajv compiles patterns with the `u` flag.
 */

import { type CharRanges, type PatternNode, UnprovenPattern, overlap, parse, union } from './regexp-subset.ts';

const LIMIT = 10_000;

/** What the backtracker can do in a node: ways to leave it, steps inside it, and steps per character of text. */
interface Cost {
  ways: number;
  steps: number;
  perChar: number;
}
const capped = (n: number) => Math.min(n, LIMIT + 1);
const EMPTY: Cost = { ways: 1, steps: 0, perChar: 0 };
const then = (a: Cost, b: Cost): Cost => ({
  ways: capped(a.ways * b.ways),
  steps: capped(a.steps + a.ways * b.steps),
  perChar: capped(a.perChar + a.ways * b.perChar),
});
const either = (a: Cost, b: Cost): Cost => ({
  ways: capped(a.ways + b.ways),
  steps: capped(a.steps + b.steps),
  perChar: capped(a.perChar + b.perChar),
});

const nullable = (node: PatternNode): boolean =>
  node.kind === 'sequence'
    ? node.items.every(nullable)
    : node.kind === 'choice'
      ? node.options.some(nullable)
      : node.kind === 'repeat'
        ? node.min === 0 || nullable(node.body)
        : false;

/** The characters `node` can start with; `$` (an empty set) and the end of the pattern add none. */
function first(node: PatternNode): CharRanges {
  if (node.kind === 'chars') return node.chars;
  if (node.kind === 'repeat') return first(node.body);
  if (node.kind === 'choice') return union(...node.options.map(first));
  const sets: CharRanges[] = [];
  for (const item of node.items) {
    sets.push(first(item));
    if (!nullable(item)) break;
  }
  return union(...sets);
}

/**
 * Fixed-width text, which V8 repeats without a backtracking-stack entry per repetition: characters, non-capturing
 * groups of them, and a character repeated at most 3 times (`[0-9a-f]{2}`, which V8 unrolls; a capture or `{4}` in a
 * repeated group overflowed its stack on 10 MB of text).
 */
const fixedText = (node: PatternNode): boolean =>
  node.kind === 'chars'
    ? node.chars.length > 0
    : node.kind === 'sequence'
      ? node.items.length > 0 && node.items.every(fixedText)
      : node.kind === 'choice'
        ? !node.capturing && node.options.length === 1 && fixedText(node.options[0]!)
        : node.min === node.max && node.min > 0 && node.min <= 3 && node.body.kind === 'chars' && fixedText(node.body);

/**
 * The cost of `node`, where `follow()` gives the characters that can come next (asked only by an unbounded
 * repetition, so a pattern without one never computes it); throws if the node is unproven.
 */
function cost(node: PatternNode, follow: () => CharRanges, patternSize: number): Cost {
  switch (node.kind) {
    case 'chars':
      return { ways: 1, steps: 1, perChar: 0 };
    case 'choice':
      return node.options.map((option) => cost(option, follow, patternSize)).reduce(either);
    case 'sequence': {
      const { items } = node;
      // What follows item i: the first characters of the items after it, up to one that cannot be empty.
      const after = (i: number): CharRanges => {
        const sets: CharRanges[] = [];
        for (const item of items.slice(i + 1)) {
          sets.push(first(item));
          if (!nullable(item)) return union(...sets);
        }
        return union(...sets, follow());
      };
      return items.reduce(
        (total, item, i) =>
          then(
            total,
            cost(item, () => after(i), patternSize),
          ),
        EMPTY,
      );
    }
    case 'repeat': {
      const { body, min, max } = node;
      if (max === Infinity) {
        if (!fixedText(body) || overlap(first(body), follow())) throw new UnprovenPattern();
        const once = cost(body, follow, patternSize);
        // Each iteration, and each given back, where the rest fails on its first character.
        const loop = { ways: 1, steps: once.steps + 1, perChar: capped(once.steps + patternSize) };
        return then(repeated(once, Math.min(min, LIMIT)), loop);
      }
      if (max > LIMIT) throw new UnprovenPattern();
      const once = cost(body, () => union(first(body), follow()), patternSize);
      let optional = EMPTY;
      for (let i = min; i < max; i++) optional = either(then(once, optional), EMPTY);
      return then(repeated(once, min), optional);
    }
  }
}

function repeated(once: Cost, times: number): Cost {
  let total = EMPTY;
  for (let i = 0; i < times; i++) total = then(total, once);
  return total;
}

/**
 * Whether V8's RegExp (with the `u` flag) is proven to test any text against `pattern` in linear time. Anything the
 * check cannot read, down to groups nested deeper than its stack, is unproven.
 */
export function nativeIsLinear(pattern: string): boolean {
  try {
    const { ways, steps, perChar } = cost(parse(pattern), () => [], pattern.length);
    return ways <= LIMIT && steps <= LIMIT && perChar <= LIMIT;
  } catch {
    return false;
  }
}
