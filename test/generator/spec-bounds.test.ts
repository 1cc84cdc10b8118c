/**
 * Bounded work on a spec of any size: a file larger than any OpenRPC document of the field is refused unread, a
 * document of more JSON values than the generator can turn into packages in reasonable time is refused once parsed,
 * and so is an `enum` longer than a TypeScript union can hold. Each refusal names the file and the JSON pointer, and
 * the output folder keeps what it had.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENUM, MAX_FILE_BYTES, MAX_VALUES } from '../../generators/load/depth.ts';
import { SpecError } from '../../generators/load/index.ts';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'spec-bounds-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const method = (name: string, schema: object = { type: 'string' }) => ({
  name,
  params: [{ name: 'p', schema }],
  result: { name: 'r', schema: { type: 'string' } },
});
const documentOf = (methods: object[]) => ({ openrpc: '1.3.2', info: { title: 't', version: '1.0.0' }, methods });

/** Generates from `spec` into an output folder holding a file of its own; the refusal's problems. */
async function refusal(name: string, write: (file: string) => void) {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(spec, { recursive: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'mine.txt'), 'mine');
  write(join(spec, 't.json'));
  const error = await generate({ spec, out }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecError);
  expect(readdirSync(out)).toEqual(['mine.txt']);
  return (error as SpecError).problems;
}

describe('a spec too large to generate in bounded time', () => {
  it('refuses a 100 MB file unread, naming it', async () => {
    const problems = await refusal('large', (file) => {
      // A valid document followed by 100 MB of whitespace: only its size is wrong.
      const fd = openSync(file, 'w');
      writeSync(fd, JSON.stringify(documentOf([method('a')])));
      const spaces = Buffer.alloc(1 << 20, 0x20);
      for (let i = 0; i < 100; i++) writeSync(fd, spaces);
      closeSync(fd);
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toMatch(/t\.json$/);
    expect(problems[0]!.pointer).toBe('');
    expect(problems[0]!.message).toContain(`${MAX_FILE_BYTES / 2 ** 20} MiB`);
  });

  it('refuses an enum of a million values at the enum', async () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => `v${i}`);
    const problems = await refusal('enum', (file) =>
      writeFileSync(file, JSON.stringify(documentOf([method('a', { type: 'string', enum: values })]))),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        pointer: '/methods/0/params/0/schema/enum',
        message: expect.stringContaining(`${MAX_ENUM.toLocaleString('en')} values`),
      }),
    ]);
  });

  it('refuses a document of more values than the budget, naming the largest collection in it', async () => {
    const count = Math.ceil(MAX_VALUES / 7) + 1;
    const problems = await refusal('methods', (file) =>
      writeFileSync(file, JSON.stringify(documentOf(Array.from({ length: count }, (_, i) => method(`m${i}`))))),
    );
    expect(problems).toEqual([
      expect.objectContaining({ pointer: '/methods', message: expect.stringContaining(`${count} items`) }),
    ]);
  });

  it('reads an enum and a document just inside the bounds', async () => {
    const spec = join(temp, 'inside');
    mkdirSync(spec);
    const values = Array.from({ length: MAX_ENUM }, (_, i) => `v${i}`);
    writeFileSync(join(spec, 't.json'), JSON.stringify(documentOf([method('a', { enum: values })])));
    const result = await generate({ spec, out: join(temp, 'inside-out'), artifacts: ['openrpc'] });
    expect(result).toBeDefined();
  });
});
