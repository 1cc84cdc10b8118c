/**
 * Loads the packaged mock, dist/core.cjs, with V8's code cache. Compiling the 1.2 MB bundle was the largest part of
 * `avalanche-mock`'s start-up, and Node 20 has no compile cache of its own (module.enableCompileCache came in Node
 * 22), so the bundle is a CommonJS script compiled here by node:vm with the cache V8 made of it in an earlier run
 * (what v8-compile-cache does for CommonJS). The cache lives beside the bundle, one file per bundle and V8 build:
 * the package's build ships the one of the Node that built it (./build.ts); with any other Node the first start
 * compiles the bundle and leaves its own cache there (if the package's folder is writable) for the next ones. V8
 * checks a cache against its own version and flags and ignores one that does not match; the bundle's hash in the
 * file name keeps a cache from meeting another bundle of the same length (V8 compares only lengths).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type Core = typeof import('./core.ts');

/** The bundle's SHA-256, in hex, set by the package's build (esbuild's define). */
declare const CORE_HASH: string;

const DIR = fileURLToPath(new URL('.', import.meta.url));
const CORE = join(DIR, 'core.cjs');

/** The cache of this bundle for the running V8 (its version and the machine's architecture). */
export const cacheFile = (): string =>
  join(DIR, `core-${CORE_HASH.slice(0, 16)}-v8-${process.versions.v8}-${process.arch}.cache`);

/** When a start without a usable cache writes one (see loadCore). */
const SAVE_AFTER_MS = 1000;

let script: Script | undefined;
let core: Core | undefined;
let cacheUsed = false;

/** Whether V8 took the bundle's code from the cache (false: compiled from source, no cache or a rejected one). */
export const codeCacheUsed = (): boolean => cacheUsed;

export function loadCore(): Core {
  if (core) return core;
  const file = cacheFile();
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(file);
  } catch {}
  // The CommonJS wrapper, as Node's own loader gives every module. The bundle is ASCII (the build checks), so it is
  // read as Latin-1: a plain copy into a one-byte string, where Node 20's UTF-8 decoding took several times longer.
  script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(CORE, 'latin1')}\n})`,
    { filename: CORE, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as Core };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(CORE), module, CORE, DIR);
  core = module.exports;
  cacheUsed = cachedData !== undefined && script.cachedDataRejected !== true;
  if (!cacheUsed) {
    // Serializing takes about as long as compiling did, so it waits until start-up and the first calls are over (and
    // the cache holds the functions they compiled); a process that ends sooner saves it as it exits. Not much later:
    // a cache made after the mock's idle collection has set --expose-gc would not match a fresh process's flags.
    let saved = false;
    const save = () => {
      if (!saved) saveCodeCache(file);
      saved = true;
    };
    setTimeout(save, SAVE_AFTER_MS).unref();
    process.once('exit', save);
  }
  return core;
}

/** Writes V8's cache of the bundle as compiled so far; a folder that is not writable keeps none. */
export function saveCodeCache(file = cacheFile()): void {
  if (!script) throw new Error('the mock bundle is not loaded');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    // A rename, so that a process starting meanwhile reads either no cache or a whole one.
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
