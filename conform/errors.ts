/**
 * Matching an error answer against a method's documented errors. The spec writes a message with a variable part as
 * one concrete instance ("couldn't get block with id d7WY...: not found"), so the parts that vary between calls (IDs,
 * addresses, numbers, quoted names, hex, the spec's `my...` stand-in names) are wildcards; everything else must match
 * word for word.
 */
import type { MethodModel } from '../generators/model/types.ts';

export interface DocumentedError {
  code: number;
  message: string;
  pattern: RegExp;
}

const VARIABLE_PARTS: Array<[RegExp, string]> = [
  [/"[^"]*"/y, '"[^"]*"'],
  [/'[^']*'/y, "'[^']*'"],
  [/NodeID-[1-9A-HJ-NP-Za-km-z]+/y, 'NodeID-[1-9A-HJ-NP-Za-km-z]+'],
  [/0x[0-9a-fA-F]*/y, '0x[0-9a-fA-F]*'],
  [/[A-Za-z0-9]+-[a-z0-9]+1[02-9ac-hj-np-z]{6,}/y, '[A-Za-z0-9]+-[a-z0-9]+1[02-9ac-hj-np-z]+'],
  [/[1-9A-HJ-NP-Za-km-z]{20,}/y, '[1-9A-HJ-NP-Za-km-z]+'],
  [/\d+/y, '\\d+'],
  // The spec's stand-in names (`myChain`, `myUsername`, `/ext/myAlias`): any name, even an empty one.
  [/my[A-Z][A-Za-z0-9]*/y, '\\S*'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function messagePattern(message: string): RegExp {
  let source = '';
  let i = 0;
  let literal = '';
  while (i < message.length) {
    // A variable part starts at a word boundary, so "v1" or "sha256" inside a word stays literal.
    const boundary = i === 0 || !/[A-Za-z0-9]/.test(message[i - 1]!);
    const part = boundary ? VARIABLE_PARTS.find(([re]) => ((re.lastIndex = i), re.test(message))) : undefined;
    if (part) {
      source += escapeRegExp(literal) + part[1];
      literal = '';
      i = part[0].lastIndex;
    } else {
      literal += message[i];
      i += 1;
    }
  }
  return new RegExp(`^${source}${escapeRegExp(literal)}$`);
}

export function documentedErrorsOf(method: MethodModel): DocumentedError[] {
  return method.errors.map((error) => ({ code: error.code, message: error.message, pattern: messagePattern(error.message) }));
}

export function findDocumentedError(documented: DocumentedError[], code: number, message: string): DocumentedError | undefined {
  return documented.find((d) => d.code === code && (d.message === message || d.pattern.test(message)));
}
