/**
 * The client's tables of documented errors, written to be read: each distinct error (code and message pattern) once,
 * in `DOCUMENTED_ERRORS` under its name, and each method's errors as a list of those names, one a line where a line
 * would pass 120 columns. The same pattern no longer repeats once per method that may answer it.
 */
import { messagePattern } from '../model/errors.ts';
import type { EndpointModel } from '../model/types.ts';
import { WIDTH, stringText } from '../shared/lines.ts';

export interface ErrorsTableView {
  /** The entries of `DOCUMENTED_ERRORS`, each its lines (without the trailing comma). */
  documented: string[];
  /** Each method's entry of `ERRORS`, by its client name, as the value's text. */
  byMethod: Map<string, string>;
}

export function errorsTable(endpoint: EndpointModel): ErrorsTableView {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  const documented: string[] = [];
  const byMethod = new Map<string, string>();
  for (const method of endpoint.methods) {
    const entries = method.errors.map((error) => {
      const source = messagePattern(error.message).source;
      const identity = `${error.code} ${source}`;
      let key = keys.get(identity);
      if (!key) {
        key = error.name;
        for (let n = 2; taken.has(key); n++) key = `${error.name}${n}`;
        taken.add(key);
        keys.set(identity, key);
        documented.push(`  ${key}: ${entry(key, error.code, source)}`);
      }
      return [error.name, `DOCUMENTED_ERRORS.${key}`] as const;
    });
    const line = entries.length === 0 ? '{}' : `{ ${entries.map(([name, value]) => `${name}: ${value}`).join(', ')} }`;
    const fits = `  ${method.shortName}: ${line},`.length <= WIDTH;
    byMethod.set(
      method.shortName,
      fits ? line : `{\n${entries.map(([name, value]) => entryLine(name, value)).join('')}  }`,
    );
  }
  return { documented, byMethod };
}

/** One error of a method's table, its value on a line of its own where the two would pass WIDTH (long spec names). */
function entryLine(name: string, value: string): string {
  const line = `    ${name}: ${value},\n`;
  return line.length - 1 <= WIDTH ? line : `    ${name}:\n      ${value},\n`;
}

/**
 * `[code, /pattern/]`, over several lines where one would pass WIDTH, the pattern as string pieces where even its own
 * line would.
 */
function entry(key: string, code: number, source: string): string {
  const line = `[${code}, /${source}/]`;
  if (`  ${key}: ${line},`.length <= WIDTH) return line;
  if (`    /${source}/,`.length <= WIDTH) return `[\n    ${code},\n    /${source}/,\n  ]`;
  const regExp = `new RegExp(\n      ${stringText(source, '      '.length, '      ')},\n    )`;
  return `[\n    ${code},\n    ${regExp},\n  ]`;
}
