/**
 * `npm run build:mock -- <dir>`: the mock node as an installable package in <dir> (default dist/mock), like the
 * client and server packages: `avalanche-mock` (the same flags as `npm run mock`) and `startMockNode` for test
 * suites. esbuild bundles it into plain JavaScript, avalanchejs and the spec's documents included, so the package
 * has no dependencies and starts without compiling anything.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
    b.onLoad({ filter: /[\\/](generators[\\/](load|server)[\\/][^\\/]+|mock[\\/]password)\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
        .replaceAll('createRequire(import.meta.url)(', 'require('),
      loader: 'ts',
    }));
  },
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
    plugins: [staticRequires, runtimeNames],
    logLevel: 'error',
    legalComments: 'none',
  });
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
