// The output (emit/output.ts): files are staged, then moved into place; a check writes nothing.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, STAGING_DIR, checkOutput, writeOutput } from '../../generators/emit/output.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'output-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (path: string, contents: string) => ({ path, contents });

describe('writeOutput and checkOutput', () => {
  it('stage the files, move them into place and report them', () => {
    const out = join(root, 'out');
    const report = writeOutput(out, [file('a/x.ts', 'x\n'), file('b/y.ts', 'y\n')], 'header');
    expect(report).toMatchObject({ written: [MANIFEST_PATH, 'a/x.ts', 'b/y.ts'], removed: [], unchanged: 0 });
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('x\n');
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('count unchanged files, remove their own leftovers and keep files they did not write', () => {
    const out = join(root, 'out');
    writeOutput(out, [file('a/x.ts', 'x\n'), file('a/old.ts', 'old\n')], 'header');
    writeFileSync(join(out, 'a/mine.ts'), 'mine\n');
    const report = writeOutput(out, [file('a/x.ts', 'x\n')], 'header');
    expect(report).toMatchObject({ written: [MANIFEST_PATH], removed: ['a/old.ts'], kept: ['a/mine.ts'] });
    expect(report.unchanged).toBe(1);
    expect(existsSync(join(out, 'a/old.ts'))).toBe(false);
  });

  it('in check mode report stale, missing and extra files and write nothing', () => {
    const out = join(root, 'out');
    writeOutput(out, [file('a/x.ts', 'x\n'), file('a/gone.ts', 'g\n')], 'header');
    const report = checkOutput(out, [file('a/x.ts', 'changed\n'), file('a/new.ts', 'n\n')], 'header');
    expect(report).toEqual({ stale: [MANIFEST_PATH, 'a/x.ts'], missing: ['a/new.ts'], extra: ['a/gone.ts'] });
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('x\n');
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('create no folder when a path comes twice', () => {
    const out = join(root, 'fresh');
    expect(() => writeOutput(out, [file('a/x.ts', 'x\n'), file('a/x.ts', 'y\n')], 'header')).toThrow(
      'two generators produced a/x.ts',
    );
    expect(() => checkOutput(out, [file('a/x.ts', 'x\n'), file('a/x.ts', 'y\n')], 'header')).toThrow(
      'two generators produced a/x.ts',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('leave the folder as it was when a file cannot be staged', () => {
    const out = join(root, 'out');
    writeOutput(out, [file('a/x.ts', 'old\n')], 'header');
    // A file where a folder is due: staging b/c.ts fails after a/x.ts is staged.
    expect(() =>
      writeOutput(out, [file('a/x.ts', 'new\n'), file('b', 'b\n'), file('b/c.ts', 'c\n')], 'header'),
    ).toThrow();
    expect(readdirSync(out).sort()).toEqual([MANIFEST_PATH, 'a']);
    expect(readFileSync(join(out, 'a/x.ts'), 'utf8')).toBe('old\n');
  });
});

describe('a scope', () => {
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

describe('a symbolic link inside the output folder', () => {
  /** `out` with `link` inside it pointing at a folder outside, holding one file of its own. */
  function linkedOut(link: string) {
    const victim = join(root, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'theirs.txt'), 'theirs\n');
    const out = join(root, 'out');
    mkdirSync(out);
    symlinkSync(victim, join(out, link));
    return { out, victim };
  }

  it('on the way to a generated file is refused, naming it; nothing is written there or anywhere', () => {
    const { out, victim } = linkedOut('client');
    const files = [file('client/src/index.ts', 'x\n'), file('server/a.ts', 'a\n')];
    expect(() => writeOutput(out, files, 'header')).toThrow(`${join(out, 'client')} is a symbolic link`);
    expect(readdirSync(victim)).toEqual(['theirs.txt']);
    expect(readdirSync(out)).toEqual(['client']);
    expect(lstatSync(join(out, 'client')).isSymbolicLink()).toBe(true);
    expect(() => checkOutput(out, files, 'header')).toThrow(`${join(out, 'client')} is a symbolic link`);
  });

  it('where a generated file goes is refused too (the manifest read through it would list what to delete)', () => {
    const { out, victim } = linkedOut(MANIFEST_PATH);
    expect(() => writeOutput(out, [file('a.ts', 'a\n')], 'header')).toThrow('is a symbolic link');
    expect(readdirSync(victim)).toEqual(['theirs.txt']);
  });

  it('that no generated file passes is left alone', () => {
    const { out, victim } = linkedOut('mine');
    expect(writeOutput(out, [file('client/a.ts', 'a\n')], 'header').kept).toEqual(['mine']);
    expect(readdirSync(victim)).toEqual(['theirs.txt']);
  });
});
