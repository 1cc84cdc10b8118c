/**
 * `--watch` never misses a save: 20 saves in a row, by turns written in place, renamed, edited with `sed -i` and saved
 * the way editors do (write a temp file, rename it over). Every other save breaks the spec, so each run's outcome
 * proves the watcher saw that save's content; each run names what changed and how long it took, and a broken spec
 * leaves it watching.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const runs = () => output.match(/^run \d+ (done|failed) in \d+ ms/gm) ?? [];
    const until = async (done: () => boolean) => {
      for (const deadline = Date.now() + 15_000; !done(); await new Promise((next) => setTimeout(next, 25))) {
        if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${output}`);
      }
    };

    try {
      await until(() => output.includes('watching '));
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
        const before = output.length;
        const name = () => file.slice(spec.length + 1);
        const previous = name();
        save();
        if (kind !== 'rename') broken = !broken;
        // The error text comes on stderr and the run's line on stdout: two pipes, so either may be read first.
        await until(() => runs().length === i + 1 && (!broken || output.slice(before).includes('OpenRPC meta-schema')));
        const run = output.slice(before);
        expect(run, `save ${i + 1} (${kind})`).toContain(
          kind === 'rename' ? `${previous} removed` : `${name()} changed`,
        );
        if (kind === 'rename') expect(run).toContain(`${name()} added`);
        expect(run, `save ${i + 1} (${kind})`).toMatch(
          broken ? /run \d+ failed in \d+ ms; still watching/ : /spec ok: .*\nrun \d+ done in \d+ ms; watching/,
        );
        if (broken) expect(run).toContain('OpenRPC meta-schema: must be string');
      }
      // Settle: nothing is run twice or late.
      await new Promise((next) => setTimeout(next, 400));
      expect(runs()).toHaveLength(20);
      expect(existsSync(out)).toBe(false);
    } finally {
      child.kill();
    }
  }, 120_000);
});
