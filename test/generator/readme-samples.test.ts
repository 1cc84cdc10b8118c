/**
 * The generated packages' READMEs are true for the spec they were generated from. Foreign documents (the OpenRPC
 * petstore, ERC-4337's bundler API) are generated as a new user does, with the CLI and a relative `--out`: each README
 * names the folder written and the package's name, every ```ts sample type-checks against the generated package
 * installed as `npm install <folder>` installs it (a link), and nothing speaks of AvalancheGo or Go. This project's own
 * packages' samples are held to the same check.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPath } from '../../generators/emit/package.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'readme-samples-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const FOREIGN = [
  { spec: 'test/fixtures/corpus/openrpc-petstore/petstore.json', out: 'apis/pet', packageName: 'petz' },
  { spec: 'test/fixtures/corpus/erc4337-bundler/openrpc.json', out: 'bundler', packageName: undefined },
];

/** The packages' folders, as absolute paths, with the README each holds. */
const packages: Array<{ folder: string; readme: string; foreign: boolean; out: string }> = [];

beforeAll(() => {
  // The generated server's dependencies (and @types/node) resolve from here, as from a consumer's own install.
  symlinkSync(join(ROOT, 'node_modules'), join(temp, 'node_modules'));
  for (const { spec, out, packageName } of FOREIGN) {
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'generators/bin.js'),
        '--spec',
        join(ROOT, spec),
        '--out',
        out,
        '--artifact',
        'client',
        '--artifact',
        'server',
        ...(packageName ? ['--package-name', packageName] : []),
      ],
      { cwd: temp, encoding: 'utf8' },
    );
    for (const pkg of ['client', 'server']) {
      const folder = join(temp, out, pkg);
      packages.push({ folder, readme: readFileSync(join(folder, 'README.md'), 'utf8'), foreign: true, out });
    }
  }
  for (const folder of ['generated/client', 'generated/server']) {
    const at = join(ROOT, folder);
    packages.push({
      folder: at,
      readme: readFileSync(join(at, 'README.md'), 'utf8'),
      foreign: false,
      out: 'generated',
    });
  }
}, 300_000);

const nameOf = (folder: string) =>
  (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name: string }).name;

describe('the generated packages’ READMEs', () => {
  it('name the folder written, from where the generator ran, and the package name used', () => {
    for (const { folder, readme, out } of packages) {
      const cwd = folder.startsWith(temp) ? temp : ROOT;
      const installs = [...readme.matchAll(/^npm (?:install|pack) (\S+)$/gm)].map((m) => m[1]!);
      expect(installs.length, folder).toBe(3);
      const [install, pack, tarball] = installs;
      expect(pack).toBe(install);
      expect(install).toBe(`./${out}/${folder.endsWith('client') ? 'client' : 'server'}`);
      expect(resolve(cwd, install!)).toBe(folder);
      const name = nameOf(folder);
      expect(readme).toContain(`# ${name}\n`);
      expect(tarball).toBe(
        `./${name.replace(/^@/, '').replace('/', '-')}-${JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version}.tgz`,
      );
      expect(readme).not.toContain('/path/to/');
    }
    expect(nameOf(join(temp, 'apis/pet/client'))).toBe('petz-client');
    // Without --package-name, the name comes from the spec's title.
    expect(nameOf(join(temp, 'bundler/server'))).toMatch(/-server$/);
  });

  it('write an --out that a shell would split or expand as one quoted word, and no control character', () => {
    expect(installPath('my-api/', 'client')).toBe('./my-api/client');
    expect(installPath('./a/../b', 'server')).toBe('./b/server');
    expect(installPath('../apis', 'client')).toBe('../apis/client');
    expect(installPath('/tmp/pet', 'client')).toBe('/tmp/pet/client');
    expect(installPath("my api's $HOME", 'client')).toBe("'./my api'\\''s $HOME/client'");
    expect(installPath('a\u001b[2Jb', 'client')).toBe('<the client folder of the output folder (--out)>');
  });

  it('say nothing of AvalancheGo, Go or the node for a foreign spec', () => {
    for (const { folder, readme } of packages.filter((p) => p.foreign)) {
      // avalanche-openrpc is the toolkit that generated the package; the error class is the runtime's RpcError.
      const wording = readme
        .replace(/avalanche-openrpc/g, '')
        .match(
          /Avalanche|\bGo\b|Go's|gorilla|\bthe node\b|\bnode's\b|\ba node\b|keystore|9650|npm run generate|mock node/i,
        );
      expect(wording, `${folder}/README.md`).toBeNull();
    }
  });

  it('show only code that type-checks against the generated packages', () => {
    const consumer = join(temp, 'consumer');
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    const files: string[] = [];
    packages.forEach(({ folder, readme }, i) => {
      const link = join(consumer, 'node_modules', nameOf(folder));
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(folder, link);
      const samples = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
      expect(samples.length, folder).toBeGreaterThan(0);
      samples.forEach((sample, j) => {
        const file = `sample-${i}-${j}.ts`;
        // Each sample is a module of its own, as a user pastes it into a file.
        writeFileSync(join(consumer, file), `${sample}\nexport {};\n`);
        files.push(file);
      });
    });
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          skipLibCheck: true,
        },
        files,
      }),
    );
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
        cwd: consumer,
        encoding: 'utf8',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 300_000);
});
