/**
 * generators/compile-cache.js, the preload of every npm script: a `.ts` file's stripped source is kept by the hash of
 * its text and read back by the next start, and the ExperimentalWarning of Node's stripping API is the one warning
 * it keeps quiet.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ROOT, cliArgs } from '../support/cli.ts';

let dir: string;
const script = () => join(dir, 'script.ts');
const stripped = () => readdirSync(join(dir, 'cache', 'stripped')).filter((file) => file.endsWith('.js'));

const start = () =>
  spawnSync(process.execPath, cliArgs(relative(ROOT, script())), {
    encoding: 'utf8',
    env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache'), NODE_OPTIONS: '' },
  });

function run() {
  const child = start();
  expect(child.status, child.stderr).toBe(0);
  return child;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(
    script(),
    "const greeting: string = 'types stripped';\n" +
      "process.emitWarning('a warning of the script', 'ExperimentalWarning');\n" +
      'console.log(greeting);\n',
  );
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the stripped source, reads it on the next start and strips a changed source again', () => {
  expect(run().stdout).toBe('types stripped\n');
  expect(stripped()).toHaveLength(1);
  const file = join(dir, 'cache', 'stripped', stripped()[0]!);
  // What the next start runs is the kept file (after its line naming the source), not a new stripping.
  const [header] = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, `${header}\nconsole.log('read from the cache');\n`);
  expect(run().stdout).toBe('read from the cache\n');
  // A changed source is stripped again, into the same file: the cache grows with the sources, not with their edits.
  writeFileSync(script(), "const changed: number = 2;\nconsole.log('changed', changed);\n");
  expect(run().stdout).toBe('changed 2\n');
  expect(stripped()).toHaveLength(1);
  expect(run().stdout).toBe('changed 2\n');
});

it('keeps quiet the stripping API warning only, and passes on every other warning', () => {
  const { stderr } = run();
  expect(stderr).toContain('ExperimentalWarning: a warning of the script');
  expect(stderr).not.toContain('stripTypeScriptTypes');
});

it('leaves a source that does not strip to Node, whose error names the file', () => {
  writeFileSync(script(), 'enum Unsupported { A }\nconsole.log(Unsupported.A);\n');
  const child = start();
  expect(child.status).not.toBe(0);
  expect(child.stderr).toContain(`${pathToFileURL(script()).href}:1`);
  expect(child.stderr).toContain('ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX');
});
