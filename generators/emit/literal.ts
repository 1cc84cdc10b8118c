/**
 * JavaScript literals for generated code and examples: one escaping, so no generator writes a string that breaks its
 * file.
 */
import type { Json } from '../model/types.ts';
import { jsString, propertyKey } from '../shared/escape.ts';

/**
 * A JSON value as a TypeScript literal: single quotes, bare keys where they are identifiers, short arrays on one line.
 * Strings and keys are written by shared/escape.ts.
 */
export function jsLiteral(value: Json, indent = ''): string {
  if (typeof value === 'string') return jsString(value);
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
  const lines = entries.map(([key, item]) => `${inner}${propertyKey(key)}: ${jsLiteral(item, inner)},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}
