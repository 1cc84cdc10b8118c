/**
 * What `npm run generate` (and `npm ci`, as the package's postinstall) leaves ready for the first `npm run mock` after
 * it: the caches that start would otherwise fill itself, in the compile-cache folder where it looks for them (V8's
 * code and the stripped source of every module it loads at start, generators/compile-cache.js; the spec model,
 * mock/model-cache.ts). Made as the start and its first calls make them, by importing the mock's modules under this
 * process's preload: what is left here is exactly what the start would have made, and a source or document changed
 * after it is still seen (each cache is keyed by the content it comes from).
 */
import { getCompileCacheDir } from 'node:module';

/**
 * Fills the caches, once per process and after the packages are written: the model is built from the server package
 * as this process first imports it, and stored under the key of the files as they are on disk, which must be the
 * same files. A failure costs the mock's first start its speed only, so it is reported and not thrown.
 */
export async function readyMockCaches(): Promise<void> {
  // Compile cache turned off (NODE_DISABLE_COMPILE_CACHE): the mock keeps no model either, and is not to start warm.
  if (!getCompileCacheDir()) return;
  try {
    await import('../mock/cli.ts');
    const { mockModel } = await import('../mock/spec.ts');
    mockModel();
    // And the modules the node loads once idle, or on a first C-Chain call (mock/lazy-cchain.ts).
    const { C_CHAIN_MODULES } = await import('../mock/lazy-cchain.ts');
    for (const step of C_CHAIN_MODULES) await step();
  } catch (error) {
    console.warn(`note: npm run mock's first start will be slower: ${(error as Error).message}`);
  }
}

// `npm ci` runs this (package.json postinstall), so that `npm run mock` starts warm before any `npm run generate`.
if (import.meta.main) await readyMockCaches();
