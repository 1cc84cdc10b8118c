/**
 * A reader of the part of JavaScript's regular-expression syntax (with the `u` flag) that backtracking.ts can reason
 * about: characters and classes as sets of code points, groups, alternatives and repetitions. A pattern outside it is
 * `UnprovenPattern`, and so left to RE2JS.
 */

/** Code points as sorted, disjoint, inclusive ranges. */
export type CharRanges = ReadonlyArray<readonly [number, number]>;
export type PatternNode =
  | { kind: 'chars'; chars: CharRanges }
  | { kind: 'sequence'; items: PatternNode[] }
  | { kind: 'choice'; options: PatternNode[]; capturing: boolean }
  | { kind: 'repeat'; body: PatternNode; min: number; max: number };

const MAX_CODE_POINT = 0x10ffff;
/** Code points written as in a character class, without escapes: `a-z0-9_`. */
function ranges(text: string): CharRanges {
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
const CLASS_ESCAPES: Record<string, CharRanges> = { d: ranges('0-9'), w: ranges('0-9A-Z_a-z'), s: SPACE };
const CONTROL_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/** Code points as the body of a JavaScript character class, every one escaped: `\u{9}-\u{d}\u{20}`. */
function classBody(chars: CharRanges): string {
  const point = (code: number) => `\\u{${code.toString(16)}}`;
  return chars.map(([from, to]) => (from === to ? point(from) : `${point(from)}-${point(to)}`)).join('');
}

/**
 * `source` with `\s`, `\S` and `.` written as the explicit classes ECMA-262 gives them (`\s` every Unicode space, `.`
 * anything but \n, \r, U+2028 and U+2029), for an engine that reads them otherwise (RE2: `\s` is ASCII, `.` excludes
 * \n only). Everything else is kept: `\d`, `\w` and `\b` are ASCII in both, as `^` and `$` are the text's ends.
 */
export function withEcmaClasses(source: string): string {
  const spaces = classBody(SPACE);
  let out = '';
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      const next = source[++at] ?? '';
      if (next === 's') out += inClass ? spaces : `[${spaces}]`;
      else if (next === 'S') out += inClass ? classBody(complement(SPACE)) : `[^${spaces}]`;
      else out += char + next;
    } else if (char === '.' && !inClass) out += `[^${classBody(LINE_ENDS)}]`;
    else {
      if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      out += char;
    }
  }
  return out;
}

export function union(...sets: CharRanges[]): CharRanges {
  const sorted = sets.flat().sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function complement(chars: CharRanges): CharRanges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [from, to] of union(chars)) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export const overlap = (a: CharRanges, b: CharRanges): boolean =>
  a.some(([from, to]) => b.some(([f, t]) => from <= t && f <= to));

/** Thrown for anything outside the parsed subset or the bounds: the pattern goes to RE2JS. */
export class UnprovenPattern extends Error {}

/** A recursive-descent parser of the subset, after the leading `^`; `$` only as the last character. */
export function parse(source: string): PatternNode {
  let at = 1;
  const peek = () => source[at];
  const code = () => {
    const point = source.codePointAt(at);
    if (point === undefined) throw new UnprovenPattern();
    at += point > 0xffff ? 2 : 1;
    return point;
  };
  const number = () => {
    const digits = /^[0-9]+/.exec(source.slice(at))?.[0];
    if (!digits) throw new UnprovenPattern();
    at += digits.length;
    return Number(digits);
  };
  function escaped(inClass: boolean): CharRanges {
    const letter = source[at++] ?? '';
    const set = CLASS_ESCAPES[letter.toLowerCase()];
    if (set) return letter === letter.toLowerCase() ? set : complement(set);
    if (letter in CONTROL_ESCAPES) return [[CONTROL_ESCAPES[letter]!, CONTROL_ESCAPES[letter]!]];
    if ('^$\\.*+?()[]{}|/'.includes(letter) || (inClass && letter === '-')) {
      const point = letter.charCodeAt(0);
      return [[point, point]];
    }
    throw new UnprovenPattern();
  }
  function classChar(): CharRanges {
    if (peek() === '\\') {
      at++;
      return escaped(true);
    }
    const point = code();
    return [[point, point]];
  }
  function characterClass(): CharRanges {
    const negated = peek() === '^';
    if (negated) at++;
    const parts: CharRanges[] = [];
    while (peek() !== ']') {
      const from = classChar();
      if (peek() === '-' && source[at + 1] !== ']') {
        at++;
        const to = classChar();
        if (from.length !== 1 || to.length !== 1 || from[0]![0] !== from[0]![1] || to[0]![0] !== to[0]![1])
          throw new UnprovenPattern();
        if (from[0]![0] > to[0]![0]) throw new UnprovenPattern();
        parts.push([[from[0]![0], to[0]![0]]]);
      } else parts.push(from);
    }
    at++;
    return negated ? complement(union(...parts)) : union(...parts);
  }
  function atom(depth: number): PatternNode {
    const char = peek();
    if (char === '(') {
      const capturing = !source.startsWith('(?', at);
      if (!capturing && !source.startsWith('(?:', at)) throw new UnprovenPattern();
      at += capturing ? 1 : 3;
      const inner = choice(depth + 1);
      if (peek() !== ')') throw new UnprovenPattern();
      at++;
      return { kind: 'choice', options: inner.kind === 'choice' ? inner.options : [inner], capturing };
    }
    at++;
    if (char === '[') return { kind: 'chars', chars: characterClass() };
    if (char === '.') return { kind: 'chars', chars: complement(LINE_ENDS) };
    if (char === '\\') return { kind: 'chars', chars: escaped(false) };
    if (char === undefined || '^$)]{}|*+?'.includes(char)) throw new UnprovenPattern();
    at--;
    const point = code();
    return { kind: 'chars', chars: [[point, point]] };
  }
  function quantified(depth: number): PatternNode {
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
      if (peek() !== '}' || max < min) throw new UnprovenPattern();
      at++;
    } else return body;
    if (peek() === '?') throw new UnprovenPattern(); // lazy: other search order, not modelled
    return { kind: 'repeat', body, min, max };
  }
  function choice(depth: number): PatternNode {
    const options: PatternNode[] = [];
    let items: PatternNode[] = [];
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
  if (source[0] !== '^') throw new UnprovenPattern();
  const top = choice(0);
  // A top-level `|` would leave its other options unanchored; `)` unopened.
  if (at !== source.length || top.kind === 'choice') throw new UnprovenPattern();
  return top;
}
