/**
 * What `npm run generate` prints about a hostile document reaches the user's terminal: a string of the document (a
 * method or component name, a `$ref`, a property name in a pointer) must not carry the terminal's control sequences
 * there. ESC `]52;c;...` writes the clipboard in many terminals, `ESC[2J` clears the screen to hide what came before.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'terminal-output-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const ESCAPES = '\u001b[2J\u001b]52;c;ZWNobyBwd25lZA==\u0007\u009b31m';

function cli(name: string, document: object): string {
  const dir = join(temp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(document));
  const run = spawnSync(process.execPath, [join(ROOT, 'generators/bin.js'), '--spec', dir, '--validate'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return run.stdout + run.stderr;
}

describe("the CLI's messages about a hostile document", () => {
  // The loader's messages quote the document's strings (`broken $ref "..."`, pointers through property names);
  // generators/cli.ts prints every line through forTerminal (conform/cli-common.ts), which writes them as escapes.
  it('shows control characters of a broken $ref as escapes, not as control sequences', () => {
    const output = cli('escapes', {
      openrpc: '1.3.2',
      info: { title: 'Escapes', version: '1.0.0' },
      methods: [
        {
          name: 'get',
          params: [],
          result: { name: 'r', schema: { $ref: `#/components/schemas/X${ESCAPES}` } },
        },
      ],
    });
    expect(output).toContain('broken $ref');
    expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("shows a wrong example's pointer through a property named with control characters as escapes", () => {
    const output = cli('advice', {
      openrpc: '1.3.2',
      info: { title: 'Advice', version: '1.0.0' },
      methods: [
        {
          name: 'get',
          params: [],
          result: { name: 'r', schema: { type: 'object', properties: { [ESCAPES]: { type: 'string' } } } },
          examples: [{ name: 'e', params: [], result: { name: 'r', value: { [ESCAPES]: 1 } } }],
        },
      ],
    });
    expect(output).toContain('must be string');
    expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
