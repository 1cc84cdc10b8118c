/**
 * `--watch` never misses a save: 20 saves in a row, by turns written in place, renamed, edited with `sed -i` and saved
 * the way editors do (write a temp file, rename it over). Every other save breaks the spec, so each run's outcome
 * proves the watcher saw that save's content; each run names what changed and how long it took, and a broken spec
 * leaves it watching. Every wait is on the output, under a deadline.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchOutput } from '../support/child-output.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'watch-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const VALID = '"openrpc": "1.3.2"';
const BROKEN = '"openrpc": 132';

describe('generate --watch', () => {
  it('runs once per save for 20 saves of four kinds, each run seeing that save', async () => {
    const spec = join(temp, 'spec');
    cpSync(join(ROOT, 'test/fixtures/golden/by-name-params'), spec, {
      recursive: true,
      filter: (path) => !path.includes('output'),
    });
    const out = join(temp, 'out');
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [join(ROOT, 'generators/bin.js'), '--spec', spec, '--out', out, '--validate', '--watch'],
      { cwd: temp },
    );
    // Both pipes read at once: a run's error comes on stderr and its line on stdout, either may arrive first.
    const watched = watchOutput(child.stdout, child.stderr);
    const runs = () => watched.text.match(/^run \d+ (done|failed) in \d+ ms/gm) ?? [];
    const until = (done: () => boolean) => watched.when(done, 30_000, 'the next run');
    try {
      await watched.until(/watching /);
      let file = join(spec, 'ledger.json');
      let broken = false;
      const toggled = () => readFileSync(file, 'utf8').replace(broken ? BROKEN : VALID, broken ? VALID : BROKEN);
      const saves: Array<[string, () => void]> = [
        ['in place', () => writeFileSync(file, toggled())],
        [
          'rename',
          () => {
            const renamed = join(spec, `ledger-${Math.random().toString(36).slice(2, 8)}.json`);
            renameSync(file, renamed);
            file = renamed;
          },
        ],
        [
          'sed -i',
          () =>
            expect(
              spawnSync('sed', ['-i', `s/${broken ? BROKEN : VALID}/${broken ? VALID : BROKEN}/`, file]).status,
            ).toBe(0),
        ],
        [
          'atomic',
          () => {
            const partial = `${file}.tmp-${process.pid}~`;
            writeFileSync(partial, toggled());
            renameSync(partial, file);
          },
        ],
      ];
      for (let i = 0; i < 20; i += 1) {
        const [kind, save] = saves[i % saves.length]!;
        const before = watched.text.length;
        const name = () => file.slice(spec.length + 1);
        const previous = name();
        save();
        if (kind !== 'rename') broken = !broken;
        await until(
          () => runs().length === i + 1 && (!broken || watched.text.slice(before).includes('OpenRPC meta-schema')),
        );
        const run = watched.text.slice(before);
        expect(run, `save ${i + 1} (${kind})`).toContain(
          kind === 'rename' ? `${previous} removed` : `${name()} changed`,
        );
        if (kind === 'rename') expect(run).toContain(`${name()} added`);
        expect(run, `save ${i + 1} (${kind})`).toMatch(
          broken ? /run \d+ failed in \d+ ms; still watching/ : /spec ok: .*\nrun \d+ done in \d+ ms; watching/,
        );
        if (broken) expect(run).toContain('OpenRPC meta-schema: must be string');
      }
      // Nothing is run twice or late: one more save (a rename) is the 21st run, and the last.
      const last = join(spec, 'ledger-last.json');
      renameSync(file, last);
      await watched.until(/ledger-last\.json added.*\n(.*\n)*?run \d+ (done|failed) in \d+ ms/);
      expect(runs()).toHaveLength(21);
      expect(existsSync(out)).toBe(false);
    } finally {
      child.kill();
    }
  }, 120_000);
});
