// The streaming output (emit/output.ts): files are staged as artifacts end, and reach the folder only on finish.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, STAGING_DIR } from '../../generators/emit/files.ts';
import { checkOutput, openOutput, writeOutput } from '../../generators/emit/output.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'output-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (path: string, contents: string) => ({ path, contents });

describe('openOutput', () => {
  it('writes nothing into the folder until finish, then moves staged files in and reports them', () => {
    const out = join(root, 'out');
    const output = openOutput(out, 'write');
    output.add([file('a/x.ts', 'x\n'), file('b/y.ts', 'y\n')]);
    expect(existsSync(join(out, 'a/x.ts'))).toBe(false);
    const { report, files } = output.finish('header', {});
    expect(files).toBe(3);
    expect(report).toMatchObject({ written: [MANIFEST_PATH, 'a/x.ts', 'b/y.ts'], removed: [], unchanged: 0 });
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('x\n');
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('leaves the folder as it was when the run is aborted', () => {
    const out = join(root, 'out');
    mkdirSync(join(out, 'a'), { recursive: true });
    writeFileSync(join(out, 'a/x.ts'), 'old\n');
    const output = openOutput(out, 'write');
    output.add([file('a/x.ts', 'new\n'), file('a/z.ts', 'z\n')]);
    output.abort();
    expect(readdirSync(out)).toEqual(['a']);
    expect(readdirSync(join(out, 'a'))).toEqual(['x.ts']);
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('old\n');
  });

  it('removes a folder it created when the run is aborted', () => {
    const out = join(root, 'fresh');
    const output = openOutput(out, 'write');
    output.add([file('a/x.ts', 'x\n')]);
    output.abort();
    expect(existsSync(out)).toBe(false);
  });

  it('counts unchanged files, removes its own leftovers and keeps files it did not write', () => {
    const out = join(root, 'out');
    const first = openOutput(out, 'write');
    first.add([file('a/x.ts', 'x\n'), file('a/old.ts', 'old\n')]);
    first.finish('header', {});
    writeFileSync(join(out, 'a/mine.ts'), 'mine\n');
    const second = openOutput(out, 'write');
    second.add([file('a/x.ts', 'x\n')]);
    const { report } = second.finish('header', {});
    expect(report).toMatchObject({ written: [MANIFEST_PATH], removed: ['a/old.ts'], kept: ['a/mine.ts'] });
    expect((report as { unchanged: number }).unchanged).toBe(1);
    expect(existsSync(join(out, 'a/old.ts'))).toBe(false);
  });

  it('in check mode reports stale, missing and extra files and writes nothing', () => {
    const out = join(root, 'out');
    const first = openOutput(out, 'write');
    first.add([file('a/x.ts', 'x\n'), file('a/gone.ts', 'g\n')]);
    first.finish('header', {});
    const check = openOutput(out, 'check');
    check.add([file('a/x.ts', 'changed\n'), file('a/new.ts', 'n\n')]);
    const { report } = check.finish('header', {});
    expect(report).toEqual({ stale: [MANIFEST_PATH, 'a/x.ts'], missing: ['a/new.ts'], extra: ['a/gone.ts'] });
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('x\n');
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('refuses a path two generators produced', () => {
    const output = openOutput(join(root, 'out'), 'check');
    output.add([file('a/x.ts', 'x\n')]);
    expect(() => output.add([file('a/x.ts', 'y\n')])).toThrow('two generators produced a/x.ts');
  });
});

describe('writeOutput and checkOutput (one run in one call)', () => {
  it('answer for the scope only: files of other artifacts are neither extra nor removed', () => {
    const out = join(root, 'out');
    writeOutput(out, [file('client/a.ts', 'a\n'), file('server/b.ts', 'b\n')], 'header');
    expect(checkOutput(out, [file('client/a.ts', 'a\n')], 'header', { folders: ['client'] })).toEqual({
      stale: [],
      missing: [],
      extra: [],
    });
    expect(checkOutput(out, [file('client/a.ts', 'a\n')], 'header').extra).toEqual(['server/b.ts']);
    const report = writeOutput(out, [file('client/c.ts', 'c\n')], 'header', { folders: ['client'] });
    expect(report).toMatchObject({ written: [MANIFEST_PATH, 'client/c.ts'], removed: ['client/a.ts'] });
    expect(readFileSync(join(out, 'server/b.ts'), 'utf8')).toBe('b\n');
    expect(readFileSync(join(out, MANIFEST_PATH), 'utf8')).toContain('server/b.ts');
  });

  it('leaves the folder as it was when two files share a path', () => {
    const out = join(root, 'out');
    writeOutput(out, [file('a/x.ts', 'x\n')], 'header');
    expect(() => writeOutput(out, [file('a/x.ts', 'new\n'), file('a/x.ts', 'y\n')], 'header')).toThrow(
      'two generators produced a/x.ts',
    );
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('x\n');
    expect(readdirSync(out).sort()).toEqual([MANIFEST_PATH, 'a']);
  });
});
