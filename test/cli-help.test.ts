/**
 * Every command package.json runs answers `--help` (and `-h`) with its usage on stdout and exit code 0, naming the
 * command as a user types it, and does nothing else: `build:mock --help` once built a package into `./--help`, and
 * `bench --help` ran no bench and printed nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, runCli } from './support/cli.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
/** Each script that runs one of the project's CLIs: its name and the file it runs. */
const CLIS = Object.entries(scripts).flatMap(([name, command]) => {
  const file = /^node (?:--import \S+ )?(\S+\.(?:ts|js))$/.exec(command)?.[1];
  return file && name !== 'postinstall' ? [[name, file] as const] : [];
});

it('finds every CLI in package.json', () => {
  expect(CLIS.map(([name]) => name).sort()).toEqual(
    ['bench', 'build:mock', 'conform', 'diff', 'docs', 'fork-source', 'generate', 'mock', 'proxy'].sort(),
  );
});

it.each(CLIS)('npm run %s -- --help prints its usage and exits 0', async (name, file) => {
  for (const flag of ['--help', '-h']) {
    const { code, stdout, stderr } = await runCli(file, [flag]);
    expect([code, stderr], `${name} ${flag}`).toEqual([0, '']);
    const command = name === 'generate' ? 'avalanche-openrpc' : `npm run ${name}`;
    expect(stdout.split('\n')[0], `${name} ${flag}`).toMatch(/^[Uu]sage: /);
    expect(stdout.split('\n')[0], `${name} ${flag}`).toContain(command);
  }
  expect(existsSync(join(ROOT, '--help')) || existsSync(join(ROOT, '-h'))).toBe(false);
});
