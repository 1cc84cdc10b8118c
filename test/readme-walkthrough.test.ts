/**
 * README.md's walkthrough as a user follows it: `npm run mock` (on a free port instead of 9650, which another run may
 * hold), the curl of step 2, step 3's send.mjs verbatim but for its URL, and step 4's `npm run conform`, whose output
 * must show every line the README shows, in the README's order (its "..." lines stand for rows left out). The conform
 * README's sample is held to the same run.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, type RunningCli, runCli, startCli } from './support/cli.ts';
import { send } from './support/rpc.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The first fenced block in `lang` ('' for none) that follows `after` in `text`. */
const blockAfter = (text: string, after: string, lang = '') => {
  const at = text.indexOf(after);
  expect(at, after).toBeGreaterThanOrEqual(0);
  const block = [...text.slice(at).matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].find((m) => m[1] === lang);
  expect(block, `a ${lang || 'plain'} block after ${after}`).toBeDefined();
  return block![2]!;
};

/** Every line of `sample` but "...", found in `output` in this order (trailing blanks ignored). */
function expectShown(output: string, sample: string) {
  const lines = output.split('\n').map((l) => l.trimEnd());
  let from = 0;
  for (const line of sample.split('\n').map((l) => l.trimEnd())) {
    if (line === '...' || line === '') continue;
    const found = lines.indexOf(line, from);
    expect(found, `not in the output (or out of order): ${line}\n\n${output}`).toBeGreaterThanOrEqual(0);
    from = found + 1;
  }
}

let mock: RunningCli;
let url: string;
beforeAll(async () => {
  mock = startCli('mock/cli.ts', ['--port', '0']);
  url = (await mock.stdout.until(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  await mock.stdout.until(/holds the local genesis funds/);
});
afterAll(() => mock.stop());

it('starts the mock as step 1 shows', async () => {
  const [first, second] = blockAfter(readme, '**1. Start the mock node.**').split('\n');
  expect(mock.stdout.text).toContain(first!.replace('http://127.0.0.1:9650', url));
  expect(mock.stdout.text).toContain(second!.replace(/, \.\.\.$/, ''));
});

it("answers step 2's curl", async () => {
  const curl = blockAfter(readme, '**2. Ask it something**', 'sh');
  const body = /-d '([^']+)'/.exec(curl)![1]!;
  const path = /http:\/\/127\.0\.0\.1:9650(\S+)/.exec(curl)![1]!;
  const response = await send(url + path, { body });
  expect(JSON.parse(response.text)).toEqual({ jsonrpc: '2.0', result: { height: '1' }, id: 1 });
});

it("issues step 3's signed transaction with send.mjs", async () => {
  const program = blockAfter(readme, '**3. Send a signed transaction.**', 'js');
  expect(program).toContain("const url = 'http://127.0.0.1:9650';");
  // In the repository, as the README says, so that it resolves the repository's @avalabs/avalanchejs.
  const file = `test/.send-${process.pid}.mjs`;
  writeFileSync(join(ROOT, file), program.replace("'http://127.0.0.1:9650'", `'${url}'`));
  try {
    const { code, stdout, stderr } = await runCli(file, []);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50} Accepted\n$/);
  } finally {
    rmSync(join(ROOT, file), { force: true });
  }
});

it('checks the mock as step 4 and conform/README.md show, exit code 0', async () => {
  const { code, stdout } = await runCli('conform/cli.ts', ['--url', url]);
  expect(code).toBe(0);
  expectShown(
    stdout,
    blockAfter(readme, '**4. Check a node against the spec.**').replaceAll('http://127.0.0.1:9650', url),
  );
  const conformReadme = readFileSync(join(ROOT, 'conform/README.md'), 'utf8');
  expectShown(stdout, blockAfter(conformReadme, 'A report against the mock'));
});
