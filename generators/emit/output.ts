/**
 * The output of one run: every file is compared with the output folder and, where it differs, staged in a folder
 * inside it; then the staged files move into place (one rename each) and leftovers of earlier runs go. A run whose
 * generators fail writes nothing, as they all finish before this is called. In check mode nothing is written: stale,
 * missing and extra files are reported. A manifest lists the files this toolkit wrote: only those are ever deleted,
 * so pointing `--out` at a folder with other files in it loses nothing.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { GeneratedFile } from './files.ts';

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

/** The list of every file of the last run, so the next run knows which leftovers it may delete. */
export const MANIFEST_PATH = '.generated-files';

/** Where a run stages the files it writes until they all are written; never listed. */
export const STAGING_DIR = '.generating';

/**
 * What part of the output folder a run answers for: all of it, or with `--artifact` only the folders of the chosen
 * artifacts (`client/`, ...); files elsewhere belong to artifacts this run did not generate.
 */
export interface Scope {
  folders?: string[];
}

/** Whether `path` is one of the files a run with this scope answers for. */
const inScope = (path: string, { folders }: Scope): boolean =>
  folders === undefined || folders.some((folder) => path.startsWith(`${folder}/`));

/** Out of scope, the files that the previous manifest lists (and that still exist) stay listed. */
function manifestFile(outDir: string, header: string, paths: Iterable<string>, scope: Scope): GeneratedFile {
  const previous = scope.folders
    ? [...readManifest(outDir)].filter((path) => !inScope(path, scope) && existsSync(join(outDir, path)))
    : [];
  const listed = [...new Set([...previous, ...paths])].filter((p) => p !== MANIFEST_PATH).sort();
  return {
    path: MANIFEST_PATH,
    contents: `${[`# ${header}`, '# Files listed here are rewritten or deleted by the next run.', ...listed].join('\n')}\n`,
  };
}

function readManifest(outDir: string): Set<string> {
  const path = join(outDir, MANIFEST_PATH);
  if (!existsSync(path)) return new Set();
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#')),
  );
}

function listFiles(dir: string): string[] {
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

function removeEmptyParents(root: string, dir: string): void {
  let current = dir;
  while (relative(root, current) && !relative(root, current).startsWith('..') && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}

/**
 * Refuses a symbolic link inside `outDir` on the way to any of `paths`: writing, comparing or deleting through it
 * would reach whatever it points at, outside `--out`. It is refused rather than replaced: the link is the user's,
 * and whether they meant it is theirs to say, so the run changes nothing and names it.
 */
function refuseSymlinks(outDir: string, paths: Iterable<string>): void {
  const checked = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const part = parts.slice(0, depth).join('/');
      if (checked.has(part)) continue;
      checked.add(part);
      let isLink: boolean;
      try {
        isLink = lstatSync(join(outDir, part)).isSymbolicLink();
      } catch {
        break; // not there (or not a folder): nothing below it exists to lead anywhere
      }
      if (isLink)
        throw new Error(
          `${join(outDir, part)} is a symbolic link: the generator writes only inside ${outDir}, never through a ` +
            'link that may lead out of it; remove the link (or choose another --out) and run again',
        );
    }
  }
}

/** The run's files, its manifest last, sorted by how they differ from the folder's; throws on a path given twice. */
function compare(outDir: string, files: GeneratedFile[], header: string, scope: Scope) {
  const paths = new Set<string>();
  for (const { path } of files) {
    if (paths.has(path)) throw new Error(`two generators produced ${path}`);
    paths.add(path);
  }
  refuseSymlinks(outDir, [...paths, MANIFEST_PATH]);
  const all = [...files, manifestFile(outDir, header, paths, scope)];
  paths.add(all.at(-1)!.path);
  const changed: GeneratedFile[] = [];
  const missing: GeneratedFile[] = [];
  for (const file of all) {
    const target = join(outDir, file.path);
    if (!existsSync(target)) missing.push(file);
    else if (readFileSync(target, 'utf8') !== file.contents) changed.push(file);
  }
  const extra = listFiles(outDir).filter((path) => !paths.has(path) && inScope(path, scope));
  return { changed, missing, extra, unchanged: all.length - changed.length - missing.length };
}

const sortedPaths = (files: GeneratedFile[]) => files.map((file) => file.path).sort();

/** Writes `files` to `outDir` (staged, then moved into place, with a manifest). */
export function writeOutput(outDir: string, files: GeneratedFile[], header: string, scope: Scope = {}): WriteReport {
  const { changed, missing, extra, unchanged } = compare(outDir, files, header, scope);
  const staging = join(outDir, STAGING_DIR);
  // A staging folder left by a run that was killed holds nothing anyone needs.
  rmSync(staging, { recursive: true, force: true });
  const createdOut = !existsSync(outDir);
  const written = [...changed, ...missing];
  try {
    for (const { path, contents } of written) {
      mkdirSync(dirname(join(staging, path)), { recursive: true });
      writeFileSync(join(staging, path), contents);
    }
  } catch (error) {
    rmSync(createdOut ? outDir : staging, { recursive: true, force: true });
    throw error;
  }
  const ours = readManifest(outDir);
  for (const { path } of written) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    renameSync(join(staging, path), join(outDir, path));
  }
  rmSync(staging, { recursive: true, force: true });
  const removed = extra.filter((path) => ours.has(path));
  for (const path of removed) {
    rmSync(join(outDir, path));
    removeEmptyParents(outDir, dirname(join(outDir, path)));
  }
  return { written: sortedPaths(written), removed, kept: extra.filter((path) => !ours.has(path)), unchanged };
}

/** Compares `files` (and their manifest) with `outDir` without touching it. */
export function checkOutput(outDir: string, files: GeneratedFile[], header: string, scope: Scope = {}): CheckReport {
  const { changed, missing, extra } = compare(outDir, files, header, scope);
  return { stale: sortedPaths(changed), missing: sortedPaths(missing), extra };
}
