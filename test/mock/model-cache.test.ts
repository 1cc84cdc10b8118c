/**
 * The mock's stored spec model (mock/model-cache.ts): `npm run mock` reads the model a previous start built from the
 * same documents and code, builds again when a document changed, and never trusts a damaged file; `npm run generate`
 * leaves it, with V8's code and the stripped source of the mock's modules, for the mock's first start
 * (generators/cli-mock-caches.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../generated/server/dist/index.js';
import { buildModel } from '../../generators/model/build.ts';
import type { SpecModel } from '../../generators/model/types.ts';
import { cachedModel, importClosure, readModelFile, writeModelFile } from '../../mock/model-cache.ts';
import { ROOT, cliArgs, startCli } from '../support/cli.ts';
import { rpc, send } from '../support/rpc.ts';

let dir: string;
let documentFile: string;
let builds: number;

/** The model of the health document in `documentFile`, as mock/spec.ts builds its own, counting the builds. */
function build(): SpecModel {
  builds++;
  const document = JSON.parse(readFileSync(documentFile, 'utf8')) as Record<string, unknown>;
  return buildModel([{ name: 'health', file: 'health.json', document, sources: [] }]);
}

const model = () => cachedModel(join(dir, 'cache'), () => [documentFile], build);
const stored = () => readdirSync(join(dir, 'cache')).map((file) => join(dir, 'cache', file));
const summaries = (spec: SpecModel) => spec.endpoints[0]!.methods.map((method) => method.summary);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'model-cache-'));
  documentFile = join(dir, 'health.json');
  writeFileSync(documentFile, JSON.stringify(ENDPOINTS.health.document));
  builds = 0;
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('cachedModel', () => {
  it('reads the model a previous start stored for the same sources', () => {
    const first = model();
    expect(builds).toBe(1);
    expect(stored()).toHaveLength(1);
    const second = model();
    expect(builds).toBe(1);
    expect(second).toEqual(first);
  });

  it('builds again when a document changed, and answers from the changed one', () => {
    const before = model();
    const document = JSON.parse(readFileSync(documentFile, 'utf8'));
    document.methods[0].summary = 'A summary the cache has never seen.';
    writeFileSync(documentFile, JSON.stringify(document));
    const after = model();
    expect(builds).toBe(2);
    expect(stored()).toHaveLength(1);
    expect(summaries(after)[0]).toBe('A summary the cache has never seen.');
    expect(summaries(before)[0]).not.toBe(summaries(after)[0]);
  });

  it.each([
    [
      'a byte changed',
      (file: string) => {
        const bytes = readFileSync(file);
        const middle = bytes.length >> 1;
        bytes[middle] = bytes[middle]! ^ 0xff;
        writeFileSync(file, bytes);
      },
    ],
    ['cut short', (file: string) => truncateSync(file, readFileSync(file).length >> 1)],
    ['empty', (file: string) => truncateSync(file, 0)],
  ])('ignores a stored file %s and builds the model again', (_, damage) => {
    const fresh = model();
    const [file] = stored();
    damage(file!);
    expect(readModelFile(file!)).toBeUndefined();
    expect(model()).toEqual(fresh);
    expect(builds).toBe(2);
    // Stored again whole: the next start reads it.
    expect(readModelFile(file!)).toEqual(fresh);
  });

  it('builds without storing when a source cannot be read', () => {
    const spec = cachedModel(join(dir, 'cache'), () => [join(dir, 'missing.json')], build);
    expect(summaries(spec).length).toBeGreaterThan(0);
    expect(() => stored()).toThrow();
  });
});

describe('readModelFile', () => {
  it('reads what writeModelFile wrote, and nothing from a file that is not a model', () => {
    const spec = build();
    const file = join(dir, 'model.bin');
    writeModelFile(file, spec);
    expect(readModelFile(file)).toEqual(spec);
    expect(readModelFile(join(dir, 'absent.bin'))).toBeUndefined();
    writeFileSync(file, 'not a model at all, though long enough to hold a digest');
    expect(readModelFile(file)).toBeUndefined();
  });
});

describe('importClosure', () => {
  it('lists the model-building code, so that a change to it is a change of key', () => {
    const files = importClosure('generators/model/build.ts').map((file) => file.replace(/\\/g, '/'));
    expect(files).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/generators\/model\/build\.ts$/),
        expect.stringMatching(/generators\/model\/names\.ts$/),
        expect.stringMatching(/generators\/common\/document\.ts$/),
      ]),
    );
  });
});

describe('the caches npm run generate leaves', () => {
  /** Each file in `cache` (V8's code of a module, a stripped source, the model), with the time it was last written. */
  function cached(cache: string): Map<string, number> {
    const files = new Map<string, number>();
    for (const entry of readdirSync(cache, { recursive: true, encoding: 'utf8' }))
      if (statSync(join(cache, entry)).isFile()) files.set(entry, statSync(join(cache, entry)).mtimeMs);
    return files;
  }

  it('are all the first npm run mock needs: no module compiled afresh, no source stripped, no model', async () => {
    const cache = join(dir, 'cache');
    const env = { ...process.env, NODE_COMPILE_CACHE: cache, NODE_OPTIONS: '' };
    // As `npm ci` runs it (package.json's postinstall); `npm run generate` calls the same readyMockCaches at its end.
    const generate = spawnSync(process.execPath, cliArgs('generators/cli-mock-caches.ts'), {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    expect(generate.status, generate.stderr).toBe(0);
    expect(generate.stderr).not.toContain('npm run mock');
    const left = cached(cache);
    expect([...left.keys()].filter((file) => file.endsWith('.bin'))).toHaveLength(1);

    const mock = startCli('mock/cli.ts', ['--port', '0', '--quiet'], { env });
    try {
      const [, url] = await mock.stdout.until(/listening on (http:\/\/\S+)/, 60_000);
      const answer = await send(`${url}/ext/bc/X`, { body: rpc('avm.getHeight', {}) });
      expect(answer.status).toBe(200);
    } finally {
      await mock.stop();
    }
    // A module compiled without V8's cached code, a source stripped or a model built would have been written: none
    // was.
    expect(cached(cache)).toEqual(left);
  }, 120_000);
});
