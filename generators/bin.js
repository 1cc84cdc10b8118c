#!/usr/bin/env node
// The CLI is TypeScript. tsx runs it without a build step, but its loader costs about half a second per start (a
// loader thread, a round trip per module); so the CLI is bundled into one JavaScript module, kept in
// node_modules/.cache and rebuilt whenever a source file changes. Where that cannot be done (no esbuild, nowhere to
// write), tsx runs the sources as they are.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE_DIR as CACHE } from './emit/code-cache.js';

const SOURCES = import.meta.dirname;
const require = createRequire(import.meta.url);

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sourceFiles(join(dir, entry.name))
        : /\.[cm]?[jt]s$/.test(entry.name)
          ? [join(dir, entry.name)]
          : [],
    )
    .sort();
}

/** The bundle of the sources as they are now: its name is a hash of everything it is built from. */
async function bundle() {
  const esbuildPackage = require.resolve('esbuild/package.json');
  const hash = createHash('sha256').update(`${SOURCES}\n${readFileSync(esbuildPackage, 'utf8')}\n${process.version}`);
  // The runtime is bundled where generators import it (formats, shapes) and read where packages copy it.
  for (const file of [...sourceFiles(SOURCES), ...sourceFiles(join(SOURCES, '../runtime'))])
    hash.update(`${file}\n`).update(readFileSync(file));
  const bundleFile = join(CACHE, `cli-${hash.digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(bundleFile)) return bundleFile;

  const { build } = require('esbuild');
  // Each module's import.meta is its own file's, as under tsx: where the worker script and the templates live.
  const ownImportMeta = {
    name: 'own-import-meta',
    setup(builder) {
      builder.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => ({
        loader: path.endsWith('ts') ? 'ts' : 'js',
        contents: readFileSync(path, 'utf8')
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
      }));
    },
  };
  const { outputFiles } = await build({
    entryPoints: [join(SOURCES, 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMeta],
  });
  mkdirSync(CACHE, { recursive: true });
  const partial = `${bundleFile}.${process.pid}.tmp`;
  writeFileSync(partial, outputFiles[0].contents);
  renameSync(partial, bundleFile);
  for (const old of readdirSync(CACHE))
    if (old.startsWith('cli-') && join(CACHE, old) !== bundleFile && !old.endsWith('.tmp'))
      rmSync(join(CACHE, old), { force: true });
  return bundleFile;
}

let bundled;
try {
  bundled = await bundle();
} catch {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
}
if (bundled) {
  // The CLI runs on a thread of its own only to cap V8's young generation, which no API sets for the main thread
  // (flags set at run time come too late): by default each isolate grows it to 32 MB and keeps it, although a
  // generation's young objects need a few MB; capped, a run peaks about 30 MB lower at no measurable CPU cost. This
  // thread stays idle (its heap is a few MB); the worker's exit code is the process's.
  const { Worker } = await import('node:worker_threads');
  const cli = new Worker(bundled, { argv: process.argv.slice(2), resourceLimits: { maxYoungGenerationSizeMb: 12 } });
  cli.on('error', (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  });
  cli.on('exit', (code) => {
    process.exitCode ||= code;
  });
}
