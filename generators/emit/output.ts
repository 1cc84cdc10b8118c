/**
 * The output of one run, taken file by file as the artifacts finish: each file is compared with the output folder
 * at once and, where it differs, written to a staging folder inside it. Only when every artifact has succeeded do the
 * staged files move into place (one rename each) and leftovers of earlier runs go; a failed run removes its staging
 * folder and leaves the output as it was. In check mode nothing is written: stale and missing files are noted as they
 * come.
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

export interface OutputSession {
  /** Takes an artifact's files; their contents may be dropped once this returns. */
  add(files: GeneratedFile[]): void;
  /** Adds the manifest of every path taken and completes the run (moves staged files into place when writing). */
  finish(header: string, scope: Scope): { report: WriteReport | CheckReport; files: number };
  /** Drops whatever was staged; the output folder is as it was. */
  abort(): void;
  /** The top folders of the paths taken so far: the scope of a run that generated only these. */
  folders(): string[];
}

export function openOutput(outDir: string, mode: 'write' | 'check'): OutputSession {
  const staging = join(outDir, STAGING_DIR);
  const createdOut = !existsSync(outDir);
  // A staging folder left by a run that was killed holds nothing anyone needs.
  if (mode === 'write') rmSync(staging, { recursive: true, force: true });
  const paths = new Set<string>();
  const changed: string[] = [];
  const missing: string[] = [];
  let unchanged = 0;

  const add = (files: GeneratedFile[]) => {
    for (const { path, contents } of files) {
      if (paths.has(path)) throw new Error(`two generators produced ${path}`);
      paths.add(path);
      const target = join(outDir, path);
      const present = existsSync(target);
      if (present && readFileSync(target, 'utf8') === contents) {
        unchanged++;
        continue;
      }
      (present ? changed : missing).push(path);
      if (mode === 'write') {
        const staged = join(staging, path);
        mkdirSync(dirname(staged), { recursive: true });
        writeFileSync(staged, contents);
      }
    }
  };

  const abort = () => {
    if (mode !== 'write') return;
    rmSync(staging, { recursive: true, force: true });
    if (createdOut) rmSync(outDir, { recursive: true, force: true });
  };

  const finish = (header: string, scope: Scope) => {
    add([manifestFile(outDir, header, paths, scope)]);
    const present = listFiles(outDir);
    const extra = present.filter((path) => !paths.has(path) && inScope(path, scope));
    if (mode === 'check') {
      return { report: { stale: changed.sort(), missing: missing.sort(), extra }, files: paths.size };
    }
    const ours = readManifest(outDir);
    const written = [...changed, ...missing].sort();
    for (const path of written) {
      const target = join(outDir, path);
      mkdirSync(dirname(target), { recursive: true });
      renameSync(join(staging, path), target);
    }
    rmSync(staging, { recursive: true, force: true });
    const removed = extra.filter((path) => ours.has(path));
    for (const path of removed) {
      rmSync(join(outDir, path));
      removeEmptyParents(outDir, dirname(join(outDir, path)));
    }
    const report: WriteReport = {
      written,
      removed,
      kept: extra.filter((path) => !ours.has(path)),
      unchanged,
    };
    return { report, files: paths.size };
  };

  const folders = () => [...new Set([...paths].map((path) => path.split('/')[0]!))].sort();
  return { add, finish, abort, folders };
}

/** Writes `files` to `outDir` as one run would (staged, then moved into place, with a manifest): a library call. */
export function writeOutput(outDir: string, files: GeneratedFile[], header: string, scope: Scope = {}): WriteReport {
  const output = openOutput(outDir, 'write');
  try {
    output.add(files);
  } catch (error) {
    output.abort();
    throw error;
  }
  return output.finish(header, scope).report as WriteReport;
}

/** Compares `files` (and their manifest) with `outDir` without touching it. */
export function checkOutput(outDir: string, files: GeneratedFile[], header: string, scope: Scope = {}): CheckReport {
  const output = openOutput(outDir, 'check');
  output.add(files);
  return output.finish(header, scope).report as CheckReport;
}
