import { type Stats, closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { SpecError, type SpecProblem } from '../common/problems.ts';
import { MAX_FILE_BYTES, boundsProblem } from './depth.ts';
import { lossyValues } from './json-text.ts';

/** How files appear in messages: relative to the working directory, with forward slashes. */
export function displayPath(file: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) return file; // a URL the toolkit knows (known-schemas.ts)
  return relative(process.cwd(), file).split('\\').join('/') || file;
}

/** A YAML file's name: OpenRPC documents are published as YAML too, which the toolkit does not read. */
export const YAML_FILE = /\.ya?ml$/i;

/**
 * What a path that is not a regular file is (`a FIFO`), or undefined for a regular file. Reading a FIFO, a socket or
 * a terminal waits for a writer that never comes, and a device may never end: a spec file is only ever a regular file.
 */
export function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : 'not a file';
}

/**
 * Reads and parses one spec file; a syntax error names the file and the line and column, and so does a value JSON.parse
 * would silently change (./json-text.ts).
 */
export function readJsonFile(file: string): unknown {
  const refuse = (message: string) => new SpecError([{ file: displayPath(file), pointer: '', message }]);
  if (YAML_FILE.test(file)) throw refuse('the toolkit reads JSON only, not YAML: convert it to JSON');
  let text: string;
  let fd: number | undefined;
  try {
    // Opened without waiting (a FIFO's open would wait for a writer) and checked as opened, so a file swapped for a
    // FIFO after a check is caught too.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stats = fstatSync(fd);
    const kind = notRegular(stats);
    if (kind) throw refuse(`is ${kind}, not a regular file: a spec file must be one`);
    if (stats.size > MAX_FILE_BYTES)
      throw refuse(
        `is ${(stats.size / 2 ** 20).toFixed(1)} MiB; the toolkit reads spec files of up to ${MAX_FILE_BYTES / 2 ** 20} MiB`,
      );
    // RFC 8259 lets a parser skip a byte order mark, and editors on Windows write one.
    text = readFileSync(fd, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof SpecError) throw error;
    throw refuse(`cannot read the file: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SpecError([
      { file: displayPath(file), pointer: '', message: syntaxError(text, (error as Error).message) },
    ]);
  }
  const tooLarge = boundsProblem(value, displayPath(file));
  if (tooLarge) throw new SpecError([tooLarge]);
  const lossy = lossyValues(text, displayPath(file));
  if (lossy.length > 0) throw new SpecError(lossy);
  return value;
}

/**
 * `read`, each file once: undefined for a file that does not exist or cannot be read or parsed, and the latter is
 * reported to `problems` once, however many references it has.
 */
export function readOnce(
  read: (file: string) => unknown,
  problems: SpecProblem[],
): (file: string) => { value: unknown } | undefined {
  const cache = new Map<string, { value: unknown } | { failed: true }>();
  return (file) => {
    let entry = cache.get(file);
    if (!entry && !existsSync(file)) return undefined;
    if (!entry) {
      try {
        entry = { value: read(file) };
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        problems.push(...error.problems);
        entry = { failed: true };
      }
      cache.set(file, entry);
    }
    return 'value' in entry ? entry : undefined;
  };
}

/**
 * Where the text stops being JSON, by line and column, and the one character found there. The engine's own message is
 * not passed on: newer engines quote a stretch of the file, which could be anything (a file is only read from inside
 * the spec's folder, but a message must never carry more than the author needs).
 */
function syntaxError(text: string, engineMessage: string): string {
  const position = Number(/position (\d+)/.exec(engineMessage)?.[1] ?? text.length);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const found = position >= text.length ? 'the file ends too early' : `unexpected ${JSON.stringify(text[position])}`;
  return `invalid JSON (line ${line}, column ${column}): ${found}`;
}
