/**
 * A string that matches a regular expression, for the string patterns of the spec's schemas (decimal integers,
 * percentages, hex without checksum, encodings...). Handles what those patterns use: anchors, literals, escapes,
 * classes with ranges, groups with alternation, and quantifiers. Returns undefined for anything else.
 */
import type { Random } from './random.ts';

type Node =
  | { kind: 'chars'; chars: string[] }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const CLASSES: Record<string, string[]> = {
  d: [...'0123456789'],
  w: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'],
  s: [' '],
};

class Parser {
  pos = 0;
  private readonly source: string;
  constructor(source: string) {
    this.source = source;
  }

  alternatives(): Node[][] {
    const out: Node[][] = [[]];
    while (this.pos < this.source.length && this.source[this.pos] !== ')') {
      const ch = this.source[this.pos]!;
      if (ch === '|') {
        this.pos++;
        out.push([]);
      } else if (ch === '^' || ch === '$') this.pos++;
      else out[out.length - 1]!.push(this.quantified(this.atom()));
    }
    return out;
  }

  private atom(): Node {
    const ch = this.source[this.pos++]!;
    if (ch === '(') {
      if (this.source.startsWith('?:', this.pos)) this.pos += 2;
      else if (this.source[this.pos] === '?') throw new Error('lookaround');
      const alternatives = this.alternatives();
      this.pos++;
      return { kind: 'group', alternatives };
    }
    if (ch === '[') return { kind: 'chars', chars: this.set() };
    if (ch === '\\') return { kind: 'chars', chars: this.escape() };
    if (ch === '.') return { kind: 'chars', chars: PRINTABLE };
    return { kind: 'chars', chars: [ch] };
  }

  private escape(): string[] {
    const ch = this.source[this.pos++]!;
    if (CLASSES[ch]) return CLASSES[ch];
    if (ch === 'u' || ch === 'x') {
      const length = ch === 'u' ? 4 : 2;
      const code = parseInt(this.source.slice(this.pos, this.pos + length), 16);
      this.pos += length;
      return [String.fromCharCode(code)];
    }
    if ('DWSbB'.includes(ch)) throw new Error(`\\${ch}`);
    return [ch];
  }

  private set(): string[] {
    const negated = this.source[this.pos] === '^';
    if (negated) this.pos++;
    const chars = new Set<string>();
    while (this.source[this.pos] !== ']') {
      if (this.pos >= this.source.length) throw new Error('unterminated class');
      let from: string[];
      if (this.source[this.pos] === '\\') {
        this.pos++;
        from = this.escape();
      } else from = [this.source[this.pos++]!];
      if (from.length === 1 && this.source[this.pos] === '-' && this.source[this.pos + 1] !== ']') {
        this.pos++;
        const escaped = this.source[this.pos] === '\\';
        if (escaped) this.pos++;
        const to = escaped ? this.escape()[0]! : this.source[this.pos++]!;
        for (let code = from[0]!.charCodeAt(0); code <= to.charCodeAt(0); code++) chars.add(String.fromCharCode(code));
      } else from.forEach((c) => chars.add(c));
    }
    this.pos++;
    return negated ? PRINTABLE.filter((c) => !chars.has(c)) : [...chars];
  }

  private quantified(node: Node): Node {
    const ch = this.source[this.pos];
    let range: [number, number] | undefined;
    if (ch === '?') range = [0, 1];
    else if (ch === '*') range = [0, 3];
    else if (ch === '+') range = [1, 3];
    else if (ch === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (match) {
        const min = Number(match[1]);
        const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : min + 3;
        this.pos += match[0].length - 1;
        range = [min, max];
      }
    }
    if (!range) return node;
    this.pos++;
    if (this.source[this.pos] === '?') this.pos++;
    return { kind: 'repeat', node, min: range[0], max: Math.min(range[1], range[0] + 8) };
  }
}

function render(node: Node, random: Random): string {
  if (node.kind === 'chars') return random.pick(node.chars);
  if (node.kind === 'group')
    return random
      .pick(node.alternatives)
      .map((n) => render(n, random))
      .join('');
  let out = '';
  const count = random.int(node.min, node.max);
  for (let i = 0; i < count; i++) out += render(node.node, random);
  return out;
}

/** A string matching `pattern`, or undefined when the pattern uses something this generator does not know. */
export function stringMatching(pattern: string, random: Random): string | undefined {
  try {
    const parser = new Parser(pattern);
    const alternatives = parser.alternatives();
    const regex = new RegExp(pattern, 'u');
    for (let attempt = 0; attempt < 8; attempt++) {
      const text = random
        .pick(alternatives)
        .map((node) => render(node, random))
        .join('');
      if (regex.test(text)) return text;
    }
  } catch {
    // An unsupported construct: the caller picks a value from the examples instead.
  }
  return undefined;
}
