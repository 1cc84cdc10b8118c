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

/** Code points as sorted, disjoint, inclusive ranges. */
type Chars = ReadonlyArray<readonly [number, number]>;
type Node =
  | { kind: 'chars'; chars: Chars }
  | { kind: 'sequence'; items: Node[] }
  | { kind: 'choice'; options: Node[]; capturing: boolean }
  | { kind: 'repeat'; body: Node; min: number; max: number };

const LIMIT = 10_000;
const MAX_CODE_POINT = 0x10ffff;
/** Code points written as in a character class, without escapes: `a-z0-9_`. */
function ranges(text: string): Chars {
  const points = [...text].map((char) => char.codePointAt(0)!);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < points.length; i++)
    if (points[i + 1] === 0x2d && i + 2 < points.length) out.push([points[i]!, points[(i += 2)]!]);
    else out.push([points[i]!, points[i]!]);
  return union(out);
}
// \s and `.` as ECMAScript defines them.
const SPACE = ranges('\t-\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff');
const LINE_ENDS = ranges('\n\r\u2028\u2029');
const CLASS_ESCAPES: Record<string, Chars> = { d: ranges('0-9'), w: ranges('0-9A-Z_a-z'), s: SPACE };
const CONTROL_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

function union(...sets: Chars[]): Chars {
  const sorted = sets.flat().sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function complement(chars: Chars): Chars {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [from, to] of union(chars)) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const overlap = (a: Chars, b: Chars) => a.some(([from, to]) => b.some(([f, t]) => from <= t && f <= to));

/** Thrown for anything outside the parsed subset or the bounds: the pattern goes to RE2JS. */
class Unproven extends Error {}

/** A recursive-descent parser of the subset, after the leading `^`; `$` only as the last character. */
function parse(source: string): Node {
  let at = 1;
  const peek = () => source[at];
  const code = () => {
    const point = source.codePointAt(at);
    if (point === undefined) throw new Unproven();
    at += point > 0xffff ? 2 : 1;
    return point;
  };
  const number = () => {
    const digits = /^[0-9]+/.exec(source.slice(at))?.[0];
    if (!digits) throw new Unproven();
    at += digits.length;
    return Number(digits);
  };
  function escaped(inClass: boolean): Chars {
    const letter = source[at++] ?? '';
    const set = CLASS_ESCAPES[letter.toLowerCase()];
    if (set) return letter === letter.toLowerCase() ? set : complement(set);
    if (letter in CONTROL_ESCAPES) return [[CONTROL_ESCAPES[letter]!, CONTROL_ESCAPES[letter]!]];
    if ('^$\\.*+?()[]{}|/'.includes(letter) || (inClass && letter === '-')) {
      const point = letter.charCodeAt(0);
      return [[point, point]];
    }
    throw new Unproven();
  }
  function classChar(): Chars {
    if (peek() === '\\') {
      at++;
      return escaped(true);
    }
    const point = code();
    return [[point, point]];
  }
  function characterClass(): Chars {
    const negated = peek() === '^';
    if (negated) at++;
    const parts: Chars[] = [];
    while (peek() !== ']') {
      const from = classChar();
      if (peek() === '-' && source[at + 1] !== ']') {
        at++;
        const to = classChar();
        if (from.length !== 1 || to.length !== 1 || from[0]![0] !== from[0]![1] || to[0]![0] !== to[0]![1])
          throw new Unproven();
        if (from[0]![0] > to[0]![0]) throw new Unproven();
        parts.push([[from[0]![0], to[0]![0]]]);
      } else parts.push(from);
    }
    at++;
    return negated ? complement(union(...parts)) : union(...parts);
  }
  function atom(depth: number): Node {
    const char = peek();
    if (char === '(') {
      const capturing = !source.startsWith('(?', at);
      if (!capturing && !source.startsWith('(?:', at)) throw new Unproven();
      at += capturing ? 1 : 3;
      const inner = choice(depth + 1);
      if (peek() !== ')') throw new Unproven();
      at++;
      return { kind: 'choice', options: inner.kind === 'choice' ? inner.options : [inner], capturing };
    }
    at++;
    if (char === '[') return { kind: 'chars', chars: characterClass() };
    if (char === '.') return { kind: 'chars', chars: complement(LINE_ENDS) };
    if (char === '\\') return { kind: 'chars', chars: escaped(false) };
    if (char === undefined || '^$)]{}|*+?'.includes(char)) throw new Unproven();
    at--;
    const point = code();
    return { kind: 'chars', chars: [[point, point]] };
  }
  function quantified(depth: number): Node {
    const body = atom(depth);
    let min: number;
    let max: number;
    const char = peek();
    if (char === '*' || char === '+' || char === '?') {
      at++;
      [min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
    } else if (char === '{') {
      at++;
      min = number();
      max = min;
      if (peek() === ',') {
        at++;
        max = peek() === '}' ? Infinity : number();
      }
      if (peek() !== '}' || max < min) throw new Unproven();
      at++;
    } else return body;
    if (peek() === '?') throw new Unproven(); // lazy: other search order, not modelled
    return { kind: 'repeat', body, min, max };
  }
  function choice(depth: number): Node {
    const options: Node[] = [];
    let items: Node[] = [];
    for (;;) {
      const char = peek();
      if (char === undefined || char === ')') break;
      if (char === '|') {
        at++;
        options.push({ kind: 'sequence', items });
        items = [];
      } else if (char === '$' && depth === 0 && at === source.length - 1) {
        at++;
        // The end of the text: no character can follow, so it is an empty set of next characters.
        items.push({ kind: 'chars', chars: [] });
      } else items.push(quantified(depth));
    }
    options.push({ kind: 'sequence', items });
    return options.length === 1 ? options[0]! : { kind: 'choice', options, capturing: false };
  }
  if (source[0] !== '^') throw new Unproven();
  const top = choice(0);
  // A top-level `|` would leave its other options unanchored; `)` unopened.
  if (at !== source.length || top.kind === 'choice') throw new Unproven();
  return top;
}

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

const nullable = (node: Node): boolean =>
  node.kind === 'sequence'
    ? node.items.every(nullable)
    : node.kind === 'choice'
      ? node.options.some(nullable)
      : node.kind === 'repeat'
        ? node.min === 0 || nullable(node.body)
        : false;

/** The characters `node` can start with; `$` (an empty set) and the end of the pattern add none. */
function first(node: Node): Chars {
  if (node.kind === 'chars') return node.chars;
  if (node.kind === 'repeat') return first(node.body);
  if (node.kind === 'choice') return union(...node.options.map(first));
  const sets: Chars[] = [];
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
const fixedText = (node: Node): boolean =>
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
function cost(node: Node, follow: () => Chars, patternSize: number): Cost {
  switch (node.kind) {
    case 'chars':
      return { ways: 1, steps: 1, perChar: 0 };
    case 'choice':
      return node.options.map((option) => cost(option, follow, patternSize)).reduce(either);
    case 'sequence': {
      const { items } = node;
      // What follows item i: the first characters of the items after it, up to one that cannot be empty.
      const after = (i: number): Chars => {
        const sets: Chars[] = [];
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
        if (!fixedText(body) || overlap(first(body), follow())) throw new Unproven();
        const once = cost(body, follow, patternSize);
        // Each iteration, and each given back, where the rest fails on its first character.
        const loop = { ways: 1, steps: once.steps + 1, perChar: capped(once.steps + patternSize) };
        return then(repeated(once, Math.min(min, LIMIT)), loop);
      }
      if (max > LIMIT) throw new Unproven();
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
