/**
 * Generated code within 120 columns, as the hand-written code is: a call or signature with its arguments one a line,
 * a union type with its members one a line, an object type with its fields one a line, a long string as pieces, a JSON
 * value an entry a line, where one line would be wider.
 */
import { jsLiteral } from '../emit/literal.ts';
import { jsonScalar } from './escape.ts';

export const WIDTH = 120;

/**
 * `head(a, b)tail`, written at `indent` (which the caller's template puts before it), or with each argument on a
 * line of its own, one level deeper, where the one line would pass WIDTH.
 */
export function callText(indent: string, head: string, args: string[], tail: string): string {
  const line = `${head}(${args.join(', ')})${tail}`;
  if ((indent.length + line.length <= WIDTH && !line.includes('\n')) || args.length === 0) return line;
  return `${head}(\n${args.map((arg) => `${indent}  ${arg},\n`).join('')}${indent})${tail}`;
}

/**
 * `key: value,` at `indent`, or the value on the next line, one level deeper, where one line would pass WIDTH (a
 * namespace member whose method names are long: Celestia's `header.GetVerifiedRangeByHeight`).
 */
export function propertyText(indent: string, key: string, value: string): string {
  const line = `${key}: ${value},`;
  return indent.length + line.length <= WIDTH ? line : `${key}:\n${indent}  ${value},`;
}

/** `key: A | B;` at `indent`, or each member on a line of its own where one line would pass WIDTH. */
export function unionMember(indent: string, key: string, members: string[]): string {
  return `${key}:${unionAfter(indent.length + key.length + 1, indent, members, ';')};`;
}

/**
 * ` A | B` from `column`, followed by `end`, or each member on a line of its own at `indent`, one level deeper,
 * where one line would pass WIDTH.
 */
export function unionAfter(column: number, indent: string, members: string[], end = ''): string {
  const line = ` ${members.join(' | ')}`;
  if (column + line.length + end.length <= WIDTH) return line;
  return members.map((member) => `\n${indent}  | ${member}`).join('');
}

/**
 * Printed declarations with each line that would pass WIDTH and declares a union (`export type X = A | B;`,
 * `key?: A | B;`) written with the union's members one a line.
 */
export function wrapWideUnions(text: string): string {
  return text.replace(new RegExp(`^.{${WIDTH + 1},}$`, 'gm'), (line) => {
    // An index signature's union (`[k: string]: A | B;`) too, and one whose last member opens an object type that goes
    // on below (`... | B | {`), as json-schema-to-typescript prints the OpenRPC meta-schema's extension members.
    const declaration =
      /^(\s*)((?:export )?type [\w$]+ =|(?:[\w$]+|"(?:[^"\\]|\\.)*"|\[[\w$]+: string\])\??:) (.+?)(;| \| \{)$/.exec(
        line,
      );
    const members = declaration ? topLevelMembers(declaration[3]!) : [];
    if (members.length < (declaration?.[4] === ';' ? 2 : 1)) return line;
    const [, indent, head, , end] = declaration as unknown as [string, string, string, string, string];
    const last = end === ';' ? ';' : `\n${indent}  | {`;
    return `${indent}${head}\n${members.map((member) => `${indent}  | ${member}`).join('\n')}${last}`;
  });
}

/** The members of a union type written on one line, split at the `|`s outside brackets and quotes. */
function topLevelMembers(type: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch) && type[i - 1] !== '=') depth--;
    else if (depth === 0 && type.startsWith(' | ', i)) {
      members.push(type.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  members.push(type.slice(start));
  return members;
}

/**
 * `base & { a; b }`, a param's type written at `indent` between `params?: ` and ` = {},`; or with each field on a line
 * of its own, one level deeper, where that line would pass WIDTH.
 */
export function paramsIntersection(indent: string, base: string, fields: string[]): string {
  if (fields.length === 0) return base;
  const line = `${base} & { ${fields.join('; ')} }`;
  if (indent.length + 'params?: '.length + line.length + ' = {},'.length <= WIDTH) return line;
  return `${base} & {\n${fields.map((field) => `${indent}  ${field};\n`).join('')}${indent}}`;
}

/**
 * A string literal starting at column `column`: on one line where it fits WIDTH, else as pieces joined by `+`, cut
 * after spaces (inside a word only where the word alone is wider than a line), each further piece on a line of its
 * own at `indent`. `quote` writes each piece's literal, one character's escape at a time.
 */
export function stringText(
  text: string,
  column: number,
  indent: string,
  quote: (text: string) => string = jsLiteral,
): string {
  const whole = quote(text);
  if (column + whole.length + 1 <= WIDTH) return whole;
  const pieces: string[] = [];
  let piece = '';
  // The width of `piece` as quoted, without the quotes: escapes are per character, so widths add up.
  let width = 0;
  const room = (first: boolean) => WIDTH - (first ? column : indent.length) - ' +'.length - 2;
  const add = (part: string, partWidth: number) => {
    if (piece && width + partWidth > room(pieces.length === 0)) {
      pieces.push(piece);
      [piece, width] = ['', 0];
    }
    piece += part;
    width += partWidth;
  };
  for (const word of text.split(/(?<= )/)) {
    const wordWidth = quote(word).length - 2;
    // Where the word would start a line (the next one, when it does not fit this one), and fit it.
    if (wordWidth <= room(!piece && pieces.length === 0)) add(word, wordWidth);
    else for (const char of word) add(char, quote(char).length - 2);
  }
  pieces.push(piece);
  return pieces.map((p) => quote(p)).join(` +\n${indent}`);
}

/**
 * A JSON value as JavaScript source starting at column `column`: JSON is JavaScript but for a `__proto__` key, which
 * an object literal takes as its prototype, and line separators, escaped for tools older than ES2019. Short values on
 * one line, longer ones an entry a line, and strings too wide for their line cut into pieces, so that lines stay
 * within WIDTH (but for keys wider than a line).
 */
export function jsonAsJavaScript(value: unknown, indent = '', column = indent.length): string {
  if (typeof value === 'string') return stringText(value, column, `${indent}  `, jsonScalar);
  if (value === null || typeof value !== 'object') return jsonScalar(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => jsonAsJavaScript(item, inner))
    : Object.entries(value).map(([key, item]) => {
        const head = `${key === '__proto__' ? '["__proto__"]' : jsonScalar(key)}: `;
        return head + jsonAsJavaScript(item, inner, inner.length + head.length);
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const line = `${open}${entries.join(', ')}${close}`;
  if (column + line.length <= 100 && !line.includes('\n')) return line;
  return `${open.trim()}\n${entries.map((entry) => `${inner}${entry},`).join('\n')}\n${indent}${close.trim()}`;
}
