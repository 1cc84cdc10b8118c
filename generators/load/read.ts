import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { SpecError } from './problems.ts';

/** How files appear in messages: relative to the working directory, with forward slashes. */
export function displayPath(file: string): string {
  return relative(process.cwd(), file).split('\\').join('/') || file;
}

/** Reads and parses one spec file; a syntax error names the file and the line and column. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SpecError([{ file: displayPath(file), pointer: '', message: `cannot read the file: ${(error as Error).message}` }]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // Node 20 names no position when the text simply ends too early.
    const position = /position (\d+)/.exec(message)?.[1] ?? (/end of JSON input/.test(message) ? String(text.length) : undefined);
    let where = '';
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split('\n').length;
      where = ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
    }
    throw new SpecError([{ file: displayPath(file), pointer: '', message: `invalid JSON${where}: ${message}` }]);
  }
}
