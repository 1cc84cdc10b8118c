/**
 * `npm run build:mock -- <dir>`: the mock node as an installable package in <dir> (default dist/mock), like the
 * client and server packages: `avalanche-mock` (the same flags as `npm run mock`) and `startMockNode` for test
 * suites. esbuild bundles it into plain JavaScript, avalanchejs and the spec's documents included, so the package
 * depends only on the native modules it cannot bundle (EDR, secp256k1) and starts without compiling any TypeScript:
 * dist/core.cjs, the whole mock, which the two entry points (dist/bin.js, dist/index.js) load through dist/load.js
 * (./load.ts). The default folder is git-ignored.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type Plugin, build } from 'esbuild';
import { exitWithUsage, parseCli } from '../../conform/cli-common.ts';
import { writeModelFile } from '../model-cache.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The loader (ajv, ajv-formats) and the mock's password scoring (zxcvbn, on first use) require CommonJS packages
 * through createRequire, which a bundler cannot follow: as plain `require` calls they are bundled (esbuild evaluates
 * a bundled CommonJS module on its first require). esbuild itself, required by the generators' emit step that the
 * mock never runs, is left out.
 */
const staticRequires: Plugin = {
  name: 'static-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]generators[\\/](load|server)[\\/][^\\/]+\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
        .replaceAll('createRequire(import.meta.url)(', 'require('),
      loader: 'ts',
    }));
    // Packages the mock requires on first use (the password dictionaries, 1.7 MB; avalanchejs, needed by the first
    // transaction; BLS12-381, by the first BLS key) live in files of their own
    // (LAZY_FILES), so start-up does not even parse them.
    b.onLoad(
      {
        filter: /[\\/]mock[\\/](password|shared[\\/]avalanche|world[\\/]bls12-381|cchain[\\/]ws)\.ts$/,
      },
      (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(
          /createRequire\(import\.meta\.url\)\(\s*'([^']+)',?\s*\)/g,
          (_, name: string) => {
            const file = Object.keys(LAZY_FILES).find((f) => LAZY_FILES[f]!.includes(name));
            if (!file) throw new Error(`no lazily required file bundles ${name}`);
            return `require('./${file}')['${name}']`;
          },
        ),
        loader: 'ts',
      }),
    );
  },
};

/** Files beside the bundle, each the packages it holds by name, required when the mock first needs one. */
const LAZY_FILES: Record<string, string[]> = {
  'zxcvbn.cjs': ['@zxcvbn-ts/core', '@zxcvbn-ts/language-common', '@zxcvbn-ts/language-en'],
  'avalanchejs.cjs': ['@avalabs/avalanchejs'],
  'bls12-381.cjs': ['@noble/curves/bls12-381'],
  'ws.cjs': ['ws'],
};

/** The native packages the mock requires, not bundled, at the exact versions the project pins. */
function nativeDependencies(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.fromEntries(['@nomicfoundation/edr', 'secp256k1'].map((name) => [name, manifest.dependencies[name]!]));
}

/** The runtime's module and export names, read from runtime/ at build time (the package has no runtime/ folder). */
const runtimeNames: Plugin = {
  name: 'runtime-names',
  setup(b) {
    b.onLoad({ filter: /[\\/]generators[\\/]model[\\/]runtime-names\.ts$/ }, async () => {
      const runtime = await import('../../generators/model/runtime-names.ts');
      const table = Object.fromEntries(
        (['client', 'server'] as const).map((pkg) => [
          pkg,
          { modules: runtime.runtimeModules(pkg), exports: runtime.runtimeExports(pkg) },
        ]),
      );
      return {
        contents: `const NAMES = ${JSON.stringify(table)};
export const RUNTIME_ROOT = undefined;
export const runtimeModules = (pkg) => NAMES[pkg].modules;
export const runtimeExports = (pkg) => NAMES[pkg].exports;`,
        loader: 'js',
      };
    });
  },
};

/**
 * Start-up was mostly V8 reading the bundle's source, so the bundle is minified (fewer bytes to read, hash and
 * pre-parse, a smaller code cache); names are kept, so that stack traces and error messages name the mock's
 * functions and classes.
 */
const SMALL = { minify: true, keepNames: true } as const;

const MODEL_FILE = 'model.bin';

/** The mock's default seed (mock/world/genesis.ts), and how many of its keys the package knows without deriving. */
const DEFAULT_SEED = 'avalanche-mock';
const KNOWN_ACCOUNTS = 100;

/** The packaged mock knows the default seed's first addresses (mock/world/known-keys.ts), derived here once. */
const knownKeys: Plugin = {
  name: 'known-keys',
  setup(b) {
    b.onLoad({ filter: /[\\/]mock[\\/]world[\\/]known-keys\.ts$/ }, async () => {
      const { deriveKeys } = await import('../world/genesis.ts');
      const addresses = deriveKeys(DEFAULT_SEED, KNOWN_ACCOUNTS).map((key) => key.address);
      return {
        contents: `const ADDRESSES = ${JSON.stringify(addresses)};
export function knownAddresses(seed) {
  return seed === ${JSON.stringify(DEFAULT_SEED)} ? ADDRESSES : undefined;
}`,
        loader: 'js',
      };
    });
  },
};

/** The packaged mock reads the model the build stored (MODEL_FILE) instead of building it at start-up. */
const prebuiltModel: Plugin = {
  name: 'prebuilt-model',
  setup(b) {
    b.onLoad({ filter: /[\\/]mock[\\/]package[\\/]prebuilt-model\.ts$/ }, () => ({
      // A file the running Node cannot read (a serializer of a newer Node): the model is built from the documents.
      contents: `import { readModelFile } from '../model-cache.ts';
export const prebuiltModel = () => readModelFile(new URL('./${MODEL_FILE}', import.meta.url));`,
      resolveDir: import.meta.dirname,
      loader: 'js',
    }));
  },
};

/** The entry points' import of ./load.ts is the package's dist/load.js, one loader (and one core) per process. */
const sharedLoader: Plugin = {
  name: 'shared-loader',
  setup(b) {
    b.onResolve({ filter: /^\.\/load\.ts$/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: './load.js', external: true },
    );
  },
};

export async function buildMockPackage(outDir: string): Promise<void> {
  const dist = join(outDir, 'dist');
  mkdirSync(dist, { recursive: true });
  const core = join(dist, 'core.cjs');
  await build({
    entryPoints: [join(ROOT, 'mock/package/core.ts')],
    outfile: core,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    define: { 'import.meta.url': '__mockUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "const __mockUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [staticRequires, runtimeNames, prebuiltModel, knownKeys],
    external: Object.keys(LAZY_FILES).map((file) => `./${file}`),
    logLevel: 'error',
    legalComments: 'none',
    ...SMALL,
  });
  await build({
    entryPoints: { load: 'load.ts', bin: 'bin.ts', index: 'main.ts' },
    absWorkingDir: import.meta.dirname,
    outdir: dist,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    plugins: [sharedLoader],
    logLevel: 'error',
    legalComments: 'none',
  });
  for (const [file, packages] of Object.entries(LAZY_FILES)) {
    await build({
      stdin: {
        contents: `module.exports = { ${packages.map((p) => `'${p}': require('${p}')`).join(', ')} };`,
        resolveDir: ROOT,
        loader: 'js',
      },
      outfile: join(dist, file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      logLevel: 'error',
      legalComments: 'none',
      ...SMALL,
    });
  }
  // Fuji's and Mainnet's genesis holders, which the world reads beside its code (import.meta.dirname: dist/).
  cpSync(join(ROOT, 'mock/world/data'), join(dist, 'data'), { recursive: true });
  // The bundle embeds these same documents (generated/server), so the model matches what it serves.
  const { mockModel } = await import('../spec.ts');
  writeModelFile(join(dist, MODEL_FILE), mockModel());
  const version = (JSON.parse(readFileSync(join(ROOT, 'generated/server/package.json'), 'utf8')) as { version: string })
    .version;
  const manifest = {
    name: '@avalanche-openrpc/mock',
    version,
    description:
      'A mock AvalancheGo node simulating one network (X- and P-Chain transactions, blocks, staking, development ' +
      "controls), for apps' test suites.",
    license: 'Apache-2.0',
    type: 'module',
    main: './dist/index.js',
    types: './index.d.ts',
    exports: { '.': { types: './index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    bin: { 'avalanche-mock': './dist/bin.js' },
    files: ['dist', 'index.d.ts', 'README.md'],
    // The C-Chain's EVM (mock/cchain/evm.ts) and signature recovery (mock/world/signers.ts) are native, required on
    // first use: not bundled.
    dependencies: nativeDependencies(),
    engines: { node: '>=22.18.0' },
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'index.d.ts'), readFileSync(join(ROOT, 'mock/package/public.d.ts'), 'utf8'));
  writeFileSync(join(outDir, 'README.md'), readFileSync(join(ROOT, 'mock/package/README.md'), 'utf8'));
}

/** The package's files under `dir`, each with its size, for the build's closing lines. */
function listing(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listing(path, base);
    return [`  ${relative(base, path).padEnd(24)} ${(statSync(path).size / 1024).toFixed(0).padStart(6)} KB`];
  });
}

const USAGE = `Usage: npm run build:mock -- [<dir>]
  <dir>         the folder to build the package in (default dist/mock, git-ignored)
  --help, -h    this text`;

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const dirs: string[] = [];
  parseCli('build:mock', USAGE, {}, { positionals: dirs });
  if (dirs.length > 1) exitWithUsage('build:mock', USAGE, `one folder, not ${dirs.length}`);
  const outDir = resolve(dirs[0] ?? join(ROOT, 'dist/mock'));
  await buildMockPackage(outDir);
  console.log(`built @avalanche-openrpc/mock in ${relative(process.cwd(), outDir) || '.'}:`);
  for (const line of listing(outDir)) console.log(line);
  console.log(`install it with: npm install ${outDir} (or npm pack ${outDir})`);
}
