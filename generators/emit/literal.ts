/**
 * JavaScript literals for generated code and examples: one escaping, so no generator writes a string that breaks its
 * file.
 */
import type { Json } from '../model/types.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON value as a TypeScript literal: single quotes, bare keys where they are identifiers, short arrays on one line.
 * Strings escape line terminators too (\r, U+2028, U+2029), which would otherwise end a line comment or a string.
 */
export function jsLiteral(value: Json, indent = ''): string {
  if (typeof value === 'string')
    return `'${value
      .replace(/\\/g, '\\\\')
      .replace(/'/g, "\\'")
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => jsLiteral(item, inner));
    const oneLine = `[${items.join(', ')}]`;
    return oneLine.length <= 72 && !oneLine.includes('\n')
      ? oneLine
      : `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(
    ([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : jsLiteral(key)}: ${jsLiteral(item, inner)},`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}
