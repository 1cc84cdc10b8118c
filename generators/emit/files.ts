/**
 * The one writer. Generators return files; this writes them (pruning files no generator produced any more) or, in
 * check mode, compares them with the output folder without touching it. Only files this toolkit wrote are ever
 * deleted: the manifest lists them, so pointing `--out` at a folder with other files in it loses nothing.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync, existsSync } from 'node:fs';
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

const inScope = (path: string, { folders }: Scope) =>
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
      if (entry.isDirectory()) visit(path);
      else out.push(relative(dir, path).split('\\').join('/'));
    }
  };
  visit(dir);
  return out.sort();
}

function assertUnique(files: GeneratedFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new Error(`two generators produced ${file.path}`);
    seen.add(file.path);
  }
}

/** Files out of `scope` belong to artifacts that were not generated, so they are not extra. */
export function checkFiles(outDir: string, files: GeneratedFile[], scope: Scope = {}): CheckReport {
  assertUnique(files);
  const expected = new Map(files.map((f) => [f.path, f.contents]));
  const present = listFiles(outDir);
  const report: CheckReport = { stale: [], missing: [], extra: [] };
  for (const path of present) {
    const contents = expected.get(path);
    if (contents === undefined) {
      if (inScope(path, scope)) report.extra.push(path);
    } else if (readFileSync(join(outDir, path), 'utf8') !== contents) report.stale.push(path);
  }
  const presentSet = new Set(present);
  for (const path of [...expected.keys()].sort()) if (!presentSet.has(path)) report.missing.push(path);
  return report;
}

export function writeFiles(outDir: string, files: GeneratedFile[], scope: Scope = {}): WriteReport {
  const { stale, missing, extra: leftovers } = checkFiles(outDir, files, scope);
  const ours = readManifest(outDir);
  const extra = leftovers.filter((path) => ours.has(path));
  const kept = leftovers.filter((path) => !ours.has(path));
  const byPath = new Map(files.map((f) => [f.path, f.contents]));
  for (const path of [...stale, ...missing]) {
    const target = join(outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, byPath.get(path)!);
  }
  for (const path of extra) {
    rmSync(join(outDir, path));
    removeEmptyParents(outDir, dirname(join(outDir, path)));
  }
  return {
    written: [...stale, ...missing].sort(),
    removed: extra,
    kept,
    unchanged: files.length - stale.length - missing.length,
  };
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
  return { path, contents: JSON.stringify(value, null, 2) + '\n' };
}
