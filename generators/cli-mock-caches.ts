/**
 * What `npm run generate` (and `npm ci`, as the postinstall) leaves ready for the next `npm run mock`: V8's code and
 * the stripped source of every module the mock loads (generators/compile-cache.js) and its spec model
 * (mock/model-cache.ts), made by importing those modules under this process's preload. Each cache is keyed by the
 * content it comes from, so a source or document changed later is still seen.
 */
import { getCompileCacheDir } from 'node:module';

/**
 * Once per process, after the packages are written (the model is keyed by the server package on disk). A failure
 * costs the mock's first start its speed only, so it is reported, not thrown.
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
