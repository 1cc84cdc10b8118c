/**
 * The one writer. Generators return files; this writes them (pruning files no generator produced any more) or, in
 * check mode, compares them with the output folder without touching it.
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
  unchanged: number;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
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

export function checkFiles(outDir: string, files: GeneratedFile[]): CheckReport {
  assertUnique(files);
  const expected = new Map(files.map((f) => [f.path, f.contents]));
  const present = listFiles(outDir);
  const report: CheckReport = { stale: [], missing: [], extra: [] };
  for (const path of present) {
    const contents = expected.get(path);
    if (contents === undefined) report.extra.push(path);
    else if (readFileSync(join(outDir, path), 'utf8') !== contents) report.stale.push(path);
  }
  const presentSet = new Set(present);
  for (const path of [...expected.keys()].sort()) if (!presentSet.has(path)) report.missing.push(path);
  return report;
}

export function writeFiles(outDir: string, files: GeneratedFile[]): WriteReport {
  const { stale, missing, extra } = checkFiles(outDir, files);
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
  return { written: [...stale, ...missing].sort(), removed: extra, unchanged: files.length - stale.length - missing.length };
}

function removeEmptyParents(root: string, dir: string): void {
  let current = dir;
  while (relative(root, current) && !relative(root, current).startsWith('..') && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}

/** Generated text files all end in exactly one newline and use LF. */
export function textFile(path: string, contents: string): GeneratedFile {
  return { path, contents: contents.replace(/\r\n/g, '\n').replace(/\s*$/, '\n') };
}

/** JSON output: two-space indent, final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: JSON.stringify(value, null, 2) + '\n' };
}
