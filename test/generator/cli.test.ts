/**
 * The CLI as a build step runs it: `--check` on a temporary output folder (in sync, stale, missing, extra), a broken
 * spec (non-zero exit naming file and JSON pointer, output untouched), pruning of files a spec change removes (also
 * with --artifact), and --validate --watch, which must keep validating only.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';
import { watchOutput } from '../support/child-output.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/golden');
const temp = mkdtempSync(join(tmpdir(), 'cli-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every file under `dir` with its contents, to prove a folder was not touched. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) visit(path);
      else out[path.slice(dir.length)] = readFileSync(path, 'utf8');
    }
  };
  visit(dir);
  return out;
}

describe('generate --check', () => {
  const spec = join(FIXTURES, 'by-name-params');
  const out = join(temp, 'check');

  beforeAll(async () => {
    await generate({ spec, out });
  });

  it('exits 0 when the output is in sync', () => {
    const run = cli('--spec', spec, '--out', out, '--check');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^in sync: \d+ files/);
  });

  it('exits 1 listing stale, missing and extra files, and changes nothing', () => {
    writeFileSync(join(out, 'client/src/ledger.ts'), '// edited by hand\n');
    unlinkSync(join(out, 'client/dist/runtime.js'));
    writeFileSync(join(out, 'client/src/notes.ts'), 'export {};\n');
    const before = snapshot(out);
    const run = cli('--spec', spec, '--out', out, '--check');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('stale:   client/src/ledger.ts');
    expect(run.stderr).toContain('missing: client/dist/runtime.js');
    expect(run.stderr).toContain('extra:   client/src/notes.ts');
    expect(run.stderr).toContain('3 file(s) out of sync');
    expect(snapshot(out)).toEqual(before);
  });

  it('a fresh generate repairs stale and missing files, and keeps a file it did not write', async () => {
    const run = cli('--spec', spec, '--out', out);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('kept:    client/src/notes.ts');
    expect((await generate({ spec, out, check: true })).report).toEqual({
      stale: [],
      missing: [],
      extra: ['client/src/notes.ts'],
    });
  });
});

describe('a broken spec', () => {
  it('exits non-zero naming the file and JSON pointer, and leaves the output folder untouched', async () => {
    const spec = join(temp, 'broken');
    cpSync(join(FIXTURES, 'by-name-params'), spec, { recursive: true });
    const out = join(temp, 'broken-out');
    await generate({ spec, out });
    const before = snapshot(out);
    const document = JSON.parse(readFileSync(join(spec, 'ledger.json'), 'utf8'));
    document.methods[0].params[1].description = '';
    document.methods[0].examples[0].params[1].value = 'ten';
    writeFileSync(join(spec, 'ledger.json'), JSON.stringify(document, null, 2));
    const run = cli('--spec', spec, '--out', out);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('broken/ledger.json#/methods/0/params/1: param "assetID" needs a description');
    expect(run.stderr).toMatch(/broken\/ledger\.json#\/methods\/0\/examples\/0\/params\/1\/value: must match pattern/);
    expect(snapshot(out)).toEqual(before);

    writeFileSync(join(spec, 'ledger.json'), '{ "openrpc": "1.3.2",\n  "info": }');
    const syntax = cli('--spec', spec, '--out', out);
    expect(syntax.status).not.toBe(0);
    expect(syntax.stderr).toContain('broken/ledger.json#: invalid JSON');
    expect(snapshot(out)).toEqual(before);
  });
});

describe('pruning', () => {
  it('deletes the files of an endpoint the spec no longer has, and only files it wrote', async () => {
    const spec = join(temp, 'two-endpoints');
    mkdirSync(spec);
    cpSync(join(FIXTURES, 'by-name-params/ledger.json'), join(spec, 'ledger.json'));
    cpSync(join(FIXTURES, 'no-params/clock.json'), join(spec, 'clock.json'));
    const out = join(temp, 'prune-out');
    mkdirSync(join(out, 'client/src'), { recursive: true });
    writeFileSync(join(out, 'client/src/mine.ts'), 'export const mine = 1;\n');
    await generate({ spec, out });
    expect(existsSync(join(out, 'client/src/clock.ts'))).toBe(true);

    unlinkSync(join(spec, 'clock.json'));
    const result = await generate({ spec, out });
    expect(result.mode).toBe('write');
    if (result.mode !== 'write') return;
    expect(result.report.removed).toEqual(
      expect.arrayContaining(['client/src/clock.ts', 'client/dist/clock.js', 'client/dist/clock.d.ts']),
    );
    expect(result.report.kept).toEqual(['client/src/mine.ts']);
    expect(existsSync(join(out, 'client/src/clock.ts'))).toBe(false);
    expect(existsSync(join(out, 'client/src/ledger.ts'))).toBe(true);
    expect(readFileSync(join(out, 'client/src/mine.ts'), 'utf8')).toBe('export const mine = 1;\n');
    expect((await generate({ spec, out, check: true })).report).toMatchObject({
      stale: [],
      missing: [],
      extra: ['client/src/mine.ts'],
    });
  });
});

describe('pruning with --artifact', () => {
  it("deletes a removed endpoint's leftovers in the chosen artifacts' folders, leaving the others alone", async () => {
    const spec = join(temp, 'partial');
    mkdirSync(spec);
    cpSync(join(FIXTURES, 'by-name-params/ledger.json'), join(spec, 'ledger.json'));
    cpSync(join(FIXTURES, 'no-params/clock.json'), join(spec, 'clock.json'));
    const out = join(temp, 'partial-out');
    await generate({ spec, out });

    unlinkSync(join(spec, 'clock.json'));
    const check = await generate({ spec, out, artifacts: ['client'], check: true });
    expect(check.report).toMatchObject({
      extra: expect.arrayContaining(['client/src/clock.ts', 'client/dist/clock.js']),
    });
    if (check.mode !== 'check') return;
    expect(check.report.extra.filter((path) => !path.startsWith('client/'))).toEqual([]);

    const result = await generate({ spec, out, artifacts: ['client'] });
    expect(result.mode).toBe('write');
    if (result.mode !== 'write') return;
    expect(result.report.removed).toEqual(
      expect.arrayContaining(['client/src/clock.ts', 'client/dist/clock.js', 'client/dist/clock.d.ts']),
    );
    expect(result.report.removed.filter((path) => !path.startsWith('client/'))).toEqual([]);
    expect(existsSync(join(out, 'client/src/clock.ts'))).toBe(false);
    expect(existsSync(join(out, 'openrpc/clock.json'))).toBe(true);
    const manifest = readFileSync(join(out, '.generated-files'), 'utf8').split('\n');
    expect(manifest).toContain('openrpc/clock.json');
    expect(manifest).not.toContain('client/src/clock.ts');
  });
});

describe('--validate --watch', () => {
  it('validates again when the spec changes, and never writes the output', async () => {
    const spec = join(temp, 'watch');
    cpSync(join(FIXTURES, 'by-name-params'), spec, { recursive: true });
    const out = join(temp, 'watch-out');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'generators/bin.js'), '--spec', spec, '--out', out, '--validate', '--watch'],
      { cwd: ROOT },
    );
    const stdout = watchOutput(child.stdout);
    watchOutput(child.stderr);
    try {
      await stdout.until(/watching/);
      writeFileSync(join(spec, 'ledger.json'), readFileSync(join(spec, 'ledger.json'), 'utf8'));
      await stdout.until(/^spec ok.*\n(.*\n)*spec ok/m);
      expect(existsSync(out)).toBe(false);
    } finally {
      child.kill();
    }
  }, 120_000);
});
