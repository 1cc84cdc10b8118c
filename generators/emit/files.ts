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
    contents: `${[`# ${header}`, '# Files listed here are rewritten or deleted by the next run.', ...listed].join('\n')}\n`,
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
  // trimEnd, not /\s*$/: the regex retries every run of whitespace in a large file, in quadratic time.
  return { path, contents: `${contents.replace(/\r\n/g, '\n').trimEnd()}\n` };
}

/** JSON output: two-space indent, final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}
