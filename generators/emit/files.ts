/**
 * What generators return (files) and what the one writer, emit/output.ts, needs to know about an output folder: the
 * manifest of the files this toolkit wrote (only those are ever deleted, so pointing `--out` at a folder with other
 * files in it loses nothing), its listing, and the scope of a run.
 */
import { existsSync, readFileSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface GeneratedFile {
  /** Path relative to the output folder, with forward slashes. */
  path: string;
  contents: string;
}

/**
 * A file too large to hold as one string (a 10,000-method endpoint's docs page is 68 MB): its text comes piece by
 * piece, and the output (emit/output.ts) writes each piece as it comes. Every piece is small and dies young, where one
 * large string (and the pieces it was built from) outlives the young generation and stays until a full collection.
 */
export interface StreamedFile {
  path: string;
  /** The text, in order; called once per run. */
  pieces: () => Iterable<string>;
}

/** What a generator returns: files held whole, and files written piece by piece. */
export type OutputFile = GeneratedFile | StreamedFile;

export const isStreamed = (file: OutputFile): file is StreamedFile => 'pieces' in file;

/** The file as one string, for library callers and tests that look at contents. */
export function wholeFile(file: OutputFile): GeneratedFile {
  return isStreamed(file) ? { path: file.path, contents: [...file.pieces()].join('') } : file;
}

export interface CheckReport {
  stale: string[];
  missing: string[];
  extra: string[];
}

export interface WriteReport {
  written: string[];
  removed: string[];
  /** Files in the output folder that no generator produced and that the manifest does not list: left alone. */
  kept: string[];
  unchanged: number;
}

/** Where a run writes when no `--out` is given. */
export const DEFAULT_OUT = 'generated';

/** The list of every file of the last run, so the next run knows which leftovers it may delete. */
export const MANIFEST_PATH = '.generated-files';

/** Where a run stages the files it writes (emit/output.ts) until every artifact has succeeded; never listed. */
export const STAGING_DIR = '.generating';

/**
 * What part of the output folder a run answers for: all of it, or with `--artifact` only the folders of the chosen
 * artifacts (`client/`, ...); files elsewhere belong to artifacts this run did not generate.
 */
export interface Scope {
  folders?: string[];
}

/** Whether `path` is one of the files a run with this scope answers for. */
export const inScope = (path: string, { folders }: Scope): boolean =>
  folders === undefined || folders.some((folder) => path.startsWith(`${folder}/`));

/** Out of scope, the files that the previous manifest lists (and that still exist) stay listed. */
export function manifestFile(
  outDir: string,
  header: string,
  paths: Iterable<string>,
  scope: Scope = {},
): GeneratedFile {
  const previous = scope.folders
    ? [...readManifest(outDir)].filter((path) => !inScope(path, scope) && existsSync(join(outDir, path)))
    : [];
  const listed = [...new Set([...previous, ...paths])].filter((p) => p !== MANIFEST_PATH).sort();
  return {
    path: MANIFEST_PATH,
    contents:
      [`# ${header}`, '# Files listed here are rewritten or deleted by the next run.', ...listed].join('\n') + '\n',
  };
}

export function readManifest(outDir: string): Set<string> {
  const path = join(outDir, MANIFEST_PATH);
  if (!existsSync(path)) return new Set();
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#')),
  );
}

export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      // Installing a generated package in place (npm install in generated/client) must not make it look stale.
      if (entry.isDirectory() && entry.name === 'node_modules') continue;
      if (entry.isDirectory() && current === dir && entry.name === STAGING_DIR) continue;
      // A folder with a manifest of its own is another run's output (generated/c-chain inside generated/).
      if (entry.isDirectory() && existsSync(join(path, MANIFEST_PATH))) continue;
      if (entry.isDirectory()) visit(path);
      else out.push(relative(dir, path).split('\\').join('/'));
    }
  };
  visit(dir);
  return out.sort();
}

export function removeEmptyParents(root: string, dir: string): void {
  let current = dir;
  while (relative(root, current) && !relative(root, current).startsWith('..') && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}

/** Generated text files all end in exactly one newline and use LF. */
export function textFile(path: string, contents: string): GeneratedFile {
  // Text already in shape is kept as it is: a copy of a 50 MB module would be garbage as large, left for a full GC.
  if (contents.endsWith('\n') && !WHITESPACE.test(contents.at(-2) ?? '') && !contents.includes('\r'))
    return { path, contents };
  // trimEnd, not /\s*$/: the regex retries every run of whitespace in a large file, in quadratic time.
  return { path, contents: `${contents.replace(/\r\n/g, '\n').trimEnd()}\n` };
}

/**
 * `textFile`'s text, piece by piece: CRLF to LF, trailing whitespace dropped, one final newline. Whatever the pieces'
 * boundaries, the result is the same as `textFile` of their concatenation; each piece costs time linear in its length.
 */
export function* textPieces(pieces: Iterable<string>): Generator<string> {
  // CRs left open at the very end are trailing whitespace, dropped with the rest of it.
  const lf = piecewise(
    pieces,
    (c) => c === '\r',
    (text) => text.replace(/\r\n/g, '\n'),
  );
  yield* piecewise(lf, (c) => WHITESPACE.test(c));
  yield '\n';
}

/**
 * A rule over whole text, applied to text that comes in pieces: the rule may depend on a run of characters (`inRun`)
 * that a piece's end leaves open, so each stretch is passed to it once it ends in a character outside such a run,
 * the open run carried into the next piece. The run still open at the end is returned, for the caller to settle.
 * The result does not depend on where the pieces break; each piece costs time linear in its length.
 */
export function* piecewise(
  pieces: Iterable<string>,
  inRun: (c: string) => boolean,
  rule: (text: string) => string = (text) => text,
): Generator<string, string> {
  let open = '';
  for (const piece of pieces) {
    let end = piece.length;
    while (end > 0 && inRun(piece[end - 1]!)) end--;
    if (end === 0) {
      open += piece;
      continue;
    }
    yield rule(open + piece.slice(0, end));
    open = piece.slice(end);
  }
  return open;
}

const WHITESPACE = /\s/;

/** JSON output: two-space indent, final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: JSON.stringify(value, null, 2) + '\n' };
}
