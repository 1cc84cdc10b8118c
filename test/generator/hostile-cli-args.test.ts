/**
 * Mistyped command lines given to `npm run generate`: an unknown option, an option without its value. Like the
 * project's other CLIs (mock, conform, diff), the generator should answer in one sentence naming the option, with its
 * usage, exit non-zero and write nothing; a stack trace only with --debug (README: "--debug prints a failure's stack
 * trace").
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function generate(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('npm run generate with a mistyped command line', () => {
  // Was a bug: generators/cli.ts line 99 calls util.parseArgs outside any try, so Node prints the TypeError
  // (ERR_PARSE_ARGS_UNKNOWN_OPTION / ERR_PARSE_ARGS_INVALID_OPTION_VALUE) with its stack trace and
  // "Node.js v22…". mock/cli.ts, conform/cli.ts and diff/cli.ts catch it and print `<cli>: <message>` and their usage.
  // Fix: the same catch around parseArgs in generators/cli.ts.
  it.each([
    [['--spc', 'openrpc'], '--spc'],
    [['--out'], '--out'],
    [['--package-name'], '--package-name'],
  ])('%j is refused in a sentence naming %s, without a stack trace', (args, option) => {
    const { status, stderr } = generate(...args);
    expect(status).not.toBe(0);
    expect(stderr).toContain(option);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('Node.js v');
  });
});
