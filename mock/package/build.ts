/**
 * `npm run build:mock -- <dir>`: the mock node as an installable package in <dir> (default dist/mock), like the
 * client and server packages: `avalanche-mock` (the same flags as `npm run mock`) and `startMockNode` for test
 * suites. esbuild bundles it into plain JavaScript, avalanchejs and the spec's documents included, so the package
 * has no dependencies and starts without compiling anything.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import { type Plugin, build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The loader (ajv, ajv-formats) and the mock's password scoring (zxcvbn, on first use) require CommonJS packages
 * through createRequire, which a bundler cannot follow: as plain `require` calls they are bundled (the banner gives
 * the bundle a `require`; esbuild evaluates a bundled CommonJS module on its first require). esbuild itself, required
 * by the generators' emit step that the mock never runs, is left out.
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
    // transaction) live in files of their own (LAZY_FILES), so start-up does not even parse them.
    b.onLoad({ filter: /[\\/]mock[\\/](password|engine[\\/]avalanche)\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(
        /createRequire\(import\.meta\.url\)\(\s*'([^']+)',?\s*\)/g,
        (_, name: string) => {
          const file = Object.keys(LAZY_FILES).find((f) => LAZY_FILES[f]!.includes(name));
          if (!file) throw new Error(`no lazily required file bundles ${name}`);
          return `require('./${file}')['${name}']`;
        },
      ),
      loader: 'ts',
    }));
  },
};

/** Files beside the bundle, each the packages it holds by name, required when the mock first needs one. */
const LAZY_FILES: Record<string, string[]> = {
  'zxcvbn.cjs': ['@zxcvbn-ts/core', '@zxcvbn-ts/language-common', '@zxcvbn-ts/language-en'],
  'avalanchejs.cjs': ['@avalabs/avalanchejs'],
};

/** The runtime's module and export names, read from runtime/ at build time (the package has no runtime/ folder). */
const runtimeNames: Plugin = {
  name: 'runtime-names',
  setup(b) {
    b.onLoad({ filter: /[\\/]generators[\\/]emit[\\/]runtime\.ts$/ }, async () => {
      const runtime = await import('../../generators/emit/runtime.ts');
      const table = Object.fromEntries(
        (['client', 'server'] as const).map((pkg) => [
          pkg,
          { modules: runtime.runtimeModules(pkg), exports: runtime.runtimeExports(pkg) },
        ]),
      );
      const unavailable = "() => { throw new Error('the mock package does not generate code'); }";
      return {
        contents: `const NAMES = ${JSON.stringify(table)};
export const runtimeModules = (pkg) => NAMES[pkg].modules;
export const runtimeExports = (pkg) => NAMES[pkg].exports;
export const runtimeFiles = ${unavailable};
export const runtimeDependencies = ${unavailable};`,
        loader: 'js',
      };
    });
  },
};

/**
 * Start-up is mostly V8 reading the bundle's source, so the bundle is minified; names are kept, so that stack traces
 * and error messages name the mock's functions and classes.
 */
const SMALL = { minify: true, keepNames: true } as const;

const MODEL_FILE = 'model.bin';

/** The packaged mock reads the model the build serialized (MODEL_FILE) instead of building it at start-up. */
const prebuiltModel: Plugin = {
  name: 'prebuilt-model',
  setup(b) {
    b.onLoad({ filter: /[\\/]mock[\\/]package[\\/]prebuilt-model\.ts$/ }, () => ({
      contents: `import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
export function prebuiltModel() {
  // A file the running Node cannot read (a serializer of a newer Node): the model is built from the documents.
  try {
    return deserialize(readFileSync(new URL('./${MODEL_FILE}', import.meta.url)));
  } catch {
    return undefined;
  }
}`,
      loader: 'js',
    }));
  },
};

export async function buildMockPackage(outDir: string): Promise<void> {
  mkdirSync(join(outDir, 'dist'), { recursive: true });
  await build({
    entryPoints: { index: join(ROOT, 'mock/package/index.ts'), bin: join(ROOT, 'mock/cli.ts') },
    outdir: join(outDir, 'dist'),
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Bundled CommonJS code (ajv) may require Node's built-ins.
    banner: {
      js:
        "#!/usr/bin/env node\nimport { createRequire as __mockRequire } from 'node:module'; " +
        'const require = __mockRequire(import.meta.url);',
    },
    plugins: [staticRequires, runtimeNames, prebuiltModel],
    external: Object.keys(LAZY_FILES).map((file) => `./${file}`),
    logLevel: 'error',
    legalComments: 'none',
    ...SMALL,
  });
  for (const [file, packages] of Object.entries(LAZY_FILES)) {
    await build({
      stdin: {
        contents: `module.exports = { ${packages.map((p) => `'${p}': require('${p}')`).join(', ')} };`,
        resolveDir: ROOT,
        loader: 'js',
      },
      outfile: join(outDir, 'dist', file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
      legalComments: 'none',
      ...SMALL,
    });
  }
  // The bundle embeds these same documents (generated/server), so the model matches what it serves.
  const { mockModel } = await import('../spec.ts');
  writeFileSync(join(outDir, 'dist', MODEL_FILE), serialize(mockModel()));
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
    engines: { node: '>=20' },
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'index.d.ts'), readFileSync(join(ROOT, 'mock/package/public.d.ts'), 'utf8'));
  writeFileSync(join(outDir, 'README.md'), readFileSync(join(ROOT, 'mock/package/README.md'), 'utf8'));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await buildMockPackage(resolve(process.argv[2] ?? join(ROOT, 'dist/mock')));
}
