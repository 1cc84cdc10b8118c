/**
 * Loads the packaged mock, dist/core.cjs, once per process for both entry points. Node's compile cache keeps V8's
 * code of the 1.2 MB bundle between starts (in NODE_COMPILE_CACHE, or the system's temporary folder).
 */
import { createRequire, enableCompileCache } from 'node:module';

type Core = typeof import('./core.ts');

enableCompileCache();

export function loadCore(): Core {
  return createRequire(import.meta.url)('./core.cjs') as Core;
}
