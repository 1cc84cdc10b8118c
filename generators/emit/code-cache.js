// Where the toolkit keeps what it derives from its own code between runs (never anything derived from a spec), and
// a loader that keeps V8's compiled code of a large CommonJS file there. Node 20 has no compile cache of its own
// (module.enableCompileCache is Node 22); the TypeScript compiler is 9 MB of JavaScript, and compiling it again on
// every start is a good part of a generation. V8 checks that cached code fits the source, the V8 version and its
// flags, and rejects it otherwise; the loader then compiles from source and writes a fresh cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

/** The toolkit's cache folder, in its own node_modules as build tools keep theirs. */
export const CACHE_DIR = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'avalanche-openrpc');

// CommonJS's module wrapper, as Node's loader puts it around a file.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';

/**
 * `require(file)` through V8's code cache. `save()` writes the cache when there was none to use; called after the
 * module has done some work, the cache also holds the functions compiled on the way, so the next start skips those too.
 */
export function requireWithCodeCache(file) {
  // The wrapper goes around the file's bytes before they become a string: wrapping a 9 MB string would keep a second
  // copy of it.
  const source = Buffer.concat([Buffer.from(WRAPPER_HEAD), readFileSync(file), Buffer.from('\n});')]).toString('utf8');
  const { size, mtimeMs } = statSync(file);
  const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const prefix = `v8-${hash(file)}-`;
  const cacheFile = join(CACHE_DIR, `${prefix}${hash(`${size}\n${mtimeMs}\n${process.version}\n${process.arch}`)}.bin`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: compile from source.
  }
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    save() {
      if (fromCache) return;
      try {
        mkdirSync(CACHE_DIR, { recursive: true });
        const partial = `${cacheFile}.${process.pid}-${threadId}.tmp`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
        // Caches of other versions of the file are of no more use, nor are writes a finished process left half done.
        for (const old of readdirSync(CACHE_DIR))
          if (old.startsWith(prefix) && join(CACHE_DIR, old) !== cacheFile)
            rmSync(join(CACHE_DIR, old), { force: true });
      } catch {
        // A read-only install runs without the cache.
      }
    },
  };
}
