/**
 * Generated code within 120 columns, as the hand-written code is: a call or signature with its arguments one a line,
 * a union type with its members one a line, where one line would be wider.
 */
import { jsLiteral } from '../emit/literal.ts';

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

/** `key: A | B;` at `indent`, or each member on a line of its own where one line would pass WIDTH. */
export function unionMember(indent: string, key: string, members: string[]): string {
  const line = `${key}: ${members.join(' | ')};`;
  if (indent.length + line.length <= WIDTH) return line;
  return `${key}:\n${members.map((member) => `${indent}  | ${member}`).join('\n')};`;
}

/**
 * A string literal starting at column `column`: on one line where it fits WIDTH, else as pieces joined by `+`, cut
 * after spaces, each further piece on a line of its own at `indent`.
 */
export function stringText(text: string, column: number, indent: string): string {
  const whole = jsLiteral(text);
  if (column + whole.length + 1 <= WIDTH) return whole;
  const pieces: string[] = [];
  let piece = '';
  for (const word of text.split(/(?<= )/)) {
    const room = WIDTH - (pieces.length === 0 ? column : indent.length) - ' +'.length - 2;
    if (piece && jsLiteral(piece + word).length > room) {
      pieces.push(piece);
      piece = '';
    }
    piece += word;
  }
  pieces.push(piece);
  return pieces.map((p) => jsLiteral(p)).join(` +\n${indent}`);
}
