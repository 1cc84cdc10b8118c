/**
 * A spec folder is untrusted input, and so are the kinds of file in it: a FIFO (named pipe) named like a document, or
 * one a `$ref` points at, is inside the folder, so the "outside the folder" rule does not catch it. Reading it blocks
 * until some writer opens it, which no one ever does: the generator, the diff and conform (and the proxy, which loads
 * the spec as conform does) refuse it as a spec problem naming the file (and where the `$ref` is written), never wait
 * on it. Each CLI runs as a child with a generous deadline that only a hang reaches, so a hang fails the test instead
 * of stalling the suite. A directory or a device is no spec file either; reading those cannot hang, so they are
 * loaded in-process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError, loadSpec } from '../../generators/load/index.ts';
import { specFiles } from '../../generators/pipeline.ts';
import { startCli } from '../support/cli.ts';

const temp = mkdtempSync(join(tmpdir(), 'spec-file-kinds-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Far longer than a one-method document takes to load on a loaded machine; only a hang reaches it. */
const DEADLINE_MS = 60_000;

const documentText = (ref: string) =>
  JSON.stringify({
    openrpc: '1.3.2',
    info: { title: 'Fifo', version: '1.0.0' },
    methods: [
      {
        name: 'fifo_get',
        params: [{ name: 'x', schema: { $ref: ref } }],
        result: { name: 'r', schema: { type: 'string' } },
      },
    ],
    components: { schemas: { Plain: { type: 'string' } } },
  });

/** A spec folder with `p.json` (its param typed by `ref`) and a FIFO at `fifo` (a path inside the folder). */
function specFolder(name: string, ref: string, fifo: string): string {
  const spec = join(temp, name, 'spec');
  mkdirSync(join(spec, 'lib'), { recursive: true });
  writeFileSync(join(spec, 'p.json'), documentText(ref));
  execFileSync('mkfifo', [join(spec, fifo)]);
  return spec;
}

/** Runs `script` with `args`; kills it at the deadline. Its exit code (null when killed), output and whether it hung. */
async function runBounded(script: string, args: string[]) {
  const cli = startCli(script, args);
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    void cli.stop('SIGKILL');
  }, DEADLINE_MS);
  const [code, stdout, stderr] = await Promise.all([cli.exited, cli.stdout.ended, cli.stderr.ended]);
  clearTimeout(timer);
  return { code, stdout, stderr, hung };
}

describe('a FIFO in the spec folder', () => {
  it('generate refuses a $ref to a FIFO inside the folder, naming it and the $ref, and writes nothing', async () => {
    const spec = specFolder('ref', './lib/pipe.json', 'lib/pipe.json');
    const out = join(temp, 'ref', 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const run = await runBounded('generators/bin.js', ['--spec', spec, '--out', out]);
    expect(run.hung, 'generate still reading the FIFO at the deadline').toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pipe.json');
    expect(run.stderr).toContain('/methods/0/params/0/schema/$ref');
    expect(readdirSync(out)).toEqual(['keep.txt']);
  });

  it('generate refuses a FIFO named *.json beside the documents, naming it, and writes nothing', async () => {
    const spec = specFolder('doc', '#/components/schemas/Plain', 'q.json');
    const out = join(temp, 'doc', 'out');
    const run = await runBounded('generators/bin.js', ['--spec', spec, '--out', out]);
    expect(run.hung, 'generate still reading the FIFO at the deadline').toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('q.json');
    expect(() => readdirSync(out)).toThrow();
  });

  it('--validate refuses a $ref to a FIFO instead of waiting on it', async () => {
    const spec = specFolder('validate', './lib/pipe.json', 'lib/pipe.json');
    const run = await runBounded('generators/bin.js', ['--spec', spec, '--validate']);
    expect(run.hung, '--validate still reading the FIFO at the deadline').toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pipe.json');
  });

  it('the diff refuses a revision with a FIFO named *.json instead of waiting on it', async () => {
    const spec = specFolder('diff', '#/components/schemas/Plain', 'q.json');
    const old = join(temp, 'diff', 'old.json');
    writeFileSync(old, documentText('#/components/schemas/Plain'));
    const run = await runBounded('diff/cli.ts', [old, spec]);
    expect(run.hung, 'the diff still reading the FIFO at the deadline').toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('q.json');
  });

  it('conform refuses a spec whose $ref is a FIFO before calling anything', async () => {
    const spec = specFolder('conform', './lib/pipe.json', 'lib/pipe.json');
    // Nothing listens there: conform must stop at the spec, never reach the URL.
    const run = await runBounded('conform/cli.ts', ['--spec', spec, '--url', 'http://127.0.0.1:9/']);
    expect(run.hung, 'conform still reading the FIFO at the deadline').toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('pipe.json');
  });

  it('the proxy refuses a spec whose $ref is a FIFO before it listens', async () => {
    const spec = specFolder('proxy', './lib/pipe.json', 'lib/pipe.json');
    const run = await runBounded('conform/proxy-cli.ts', [
      '--spec',
      spec,
      '--upstream',
      'http://127.0.0.1:9/',
      '--port',
      '0',
    ]);
    expect(run.hung, 'the proxy still reading the FIFO at the deadline').toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('pipe.json');
    expect(run.stdout).not.toMatch(/listening/i);
  });
});

/** The message of the SpecError loading `spec` throws. */
function refusal(spec: string): string {
  try {
    loadSpec(specFiles(spec));
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as Error).message;
  }
  throw new Error(`${spec} loaded`);
}

describe('other files that are no regular file', () => {
  it('a $ref to a directory is refused at the $ref, naming the directory', () => {
    const spec = join(temp, 'directory', 'spec');
    mkdirSync(join(spec, 'lib/defs.json'), { recursive: true });
    writeFileSync(join(spec, 'p.json'), documentText('./lib/defs.json'));
    const message = refusal(spec);
    expect(message).toContain('p.json#/methods/0/params/0/schema/$ref');
    expect(message).toMatch(/defs\.json, which is a directory, not a regular file/);
  });

  it('a document that is a link to a device is refused naming it, not read', () => {
    const spec = join(temp, 'device', 'spec');
    mkdirSync(spec, { recursive: true });
    writeFileSync(join(spec, 'p.json'), documentText('#/components/schemas/Plain'));
    symlinkSync('/dev/null', join(spec, 'q.json'));
    expect(refusal(spec)).toMatch(/q\.json#: is a device, not a regular file/);
  });
});
