// Preloaded by the npm scripts (`node --import ./generators/compile-cache.js ...`) and by bin.js: Node's compile
// cache keeps V8's code of the sources and of large dependencies (the TypeScript compiler, ajv) between runs, in
// node_modules/.cache unless NODE_COMPILE_CACHE names another folder. It must be on before the modules it caches load.
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

enableCompileCache(process.env.NODE_COMPILE_CACHE ?? join(import.meta.dirname, '../node_modules/.cache/node-compile'));
