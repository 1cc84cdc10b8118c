/**
 * What `npm run generate` leaves ready for the first `npm run mock` after it (the README's quick start: `npm ci &&
 * npm run generate`, then `npm run mock`): the mock's stripped sources and its spec model, in the compile-cache folder
 * where that start looks for them. Without them that start strips about a hundred sources and builds the model from
 * the documents, over a second of CPU (bench/mock-start.bench.ts). Made by the mock's own functions under the mock's
 * own keys, each the content it comes from (generators/compile-cache.js, mock/model-cache.ts): what is left here is
 * exactly what that start would have made, and a source or document changed after it is still seen.
 */
import { getCompileCacheDir } from 'node:module';
import { resolve } from 'node:path';
import { importClosure } from '../mock/model-cache.ts';
import { stripAhead } from './compile-cache.js';

const MOCK_CLI = resolve(import.meta.dirname, '../mock/cli.ts');

/**
 * Fills the caches, once per process and after the packages are written: the model is built from the server package
 * as this process first imports it, and stored under the key of the files as they are on disk, which must be the
 * same files. A failure costs the mock's first start its speed only, so it is reported and not thrown.
 */
export async function readyMockCaches(): Promise<void> {
  // Compile cache turned off (NODE_DISABLE_COMPILE_CACHE): the mock keeps no model either, and is not to start warm.
  if (!getCompileCacheDir()) return;
  try {
    // Stripped first, so that the mock's modules loaded below to build the model are read from the cache.
    stripAhead(importClosure(MOCK_CLI));
    const { mockModel } = await import('../mock/spec.ts');
    mockModel();
  } catch (error) {
    console.warn(`note: npm run mock's first start will be slower: ${(error as Error).message}`);
  }
}
