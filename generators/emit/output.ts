/**
 * The output of one run: every file is compared with the output folder and, where it differs, staged in a folder
 * inside it; then the staged files move into place (one rename each) and leftovers of earlier runs go. A run whose
 * generators fail writes nothing, as they all finish before this is called. In check mode nothing is written: stale,
 * missing and extra files are reported.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type CheckReport,
  type GeneratedFile,
  STAGING_DIR,
  type Scope,
  type WriteReport,
  inScope,
  listFiles,
  manifestFile,
  readManifest,
  removeEmptyParents,
} from './files.ts';

/** The run's files, its manifest last, sorted by how they differ from the folder's; throws on a path given twice. */
function compare(outDir: string, files: GeneratedFile[], header: string, scope: Scope) {
  const paths = new Set<string>();
  for (const { path } of files) {
    if (paths.has(path)) throw new Error(`two generators produced ${path}`);
    paths.add(path);
  }
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
