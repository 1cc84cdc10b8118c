/**
 * The server artifact: deterministic, in sync with the spec, strict-TypeScript clean, and a working package when
 * generated from another spec (the fixture), imported from a temporary folder and called over HTTP.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutput } from '../../generators/emit/output.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { listen, rpc, send } from '../support/rpc.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const STRICT = [
  '--noEmit',
  '--strict',
  '--noUncheckedIndexedAccess',
  '--exactOptionalPropertyTypes',
  '--target',
  'ES2022',
  '--module',
  'NodeNext',
  '--moduleResolution',
  'NodeNext',
  '--types',
  'node',
  '--skipLibCheck',
];

const RUNTIME_DEPENDENCIES = ['ajv', 'ajv-formats', '@noble/hashes', '@scure/base', 'base-x', 're2js'];

const render = async (spec: string) =>
  (await renderArtifacts(loadModel(spec), { artifacts: ['server'] })).map((f) => ({
    ...f,
    path: f.path.replace(/^server\//, ''),
  }));

describe('server artifact', () => {
  const temp = mkdtempSync(join(tmpdir(), 'server-artifact-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('is what generated/server holds, file for file', async () => {
    const files = await render(join(ROOT, 'openrpc'));
    for (const file of files)
      expect(readFileSync(join(ROOT, 'generated/server', file.path), 'utf8'), file.path).toBe(file.contents);
    expect(files.some((f) => f.path === 'dist/index.d.ts')).toBe(true);
    const pkg = JSON.parse(files.find((f) => f.path === 'package.json')!.contents) as {
      name: string;
      dependencies?: unknown;
    };
    expect(pkg.name).toBe('@avalanche-openrpc/server');
    // The runtime's dependencies, at the toolkit's own versions: SHA-256 for the checksummed formats, ajv and
    // ajv-formats for the validators, RE2 for their patterns.
    const toolkit = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies).toEqual(
      Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, toolkit.dependencies[name]])),
    );
  });

  it('type-checks under strict TypeScript', () => {
    const result = spawnSync(process.execPath, [TSC, ...STRICT, join(ROOT, 'generated/server/src/index.ts')], {
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('generates a working package from another spec, the same way twice', async () => {
    const spec = join(ROOT, 'test/fixtures/spec/valid');
    const [first, second] = [await render(spec), await render(spec)];
    expect(second).toEqual(first);
    writeOutput(temp, first, 'generate.test');
    // As `npm install` would leave it: the package's dependencies beside it.
    for (const scope of ['@noble', '@scure']) mkdirSync(join(temp, 'node_modules', scope), { recursive: true });
    for (const name of RUNTIME_DEPENDENCIES)
      symlinkSync(join(ROOT, 'node_modules', name), join(temp, 'node_modules', name));
    const tsc = spawnSync(process.execPath, [TSC, ...STRICT, join(temp, 'src/index.ts')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');

    const pkg = (await import(join(temp, 'dist/index.js'))) as Record<string, (...args: never[]) => unknown> & {
      createRouter: (routes: object) => { node: unknown };
    };
    const create = Object.entries(pkg).find(
      ([name]) => /^create.+Endpoint$/.test(name) && name !== 'createEndpoint',
    )![1] as (handlers: object, options: object) => object;
    const model = loadModel(spec);
    const method = model.endpoints[0]!.methods.find((m) => m.examples.length > 0 && m.params.length > 0)!;
    const example = method.examples[0]!;
    const handlers = Object.fromEntries(
      model.endpoints[0]!.methods.map((m) => [m.shortName, () => m.examples[0]!.result]),
    );
    const server = await listen(
      pkg.createRouter({ '/rpc': create(handlers, { validateResults: true }) }).node as never,
    );
    try {
      const answer = JSON.parse(
        (await send(server.port, { path: '/rpc', body: rpc(method.name, example.params) })).text,
      ) as { result: unknown };
      expect(answer.result).toEqual(example.result);
      const refused = JSON.parse(
        (
          await send(server.port, {
            path: '/rpc',
            body: rpc(method.name, { [method.params[0]!.name]: { not: 'valid' } }),
          })
        ).text,
      ) as { error: { code: number } };
      expect(refused.error.code).toBe(-32000);
      const discovered = JSON.parse((await send(server.port, { path: '/rpc', body: rpc('rpc.discover') })).text) as {
        result: { methods: unknown[] };
      };
      expect(discovered.result.methods).toHaveLength(model.endpoints[0]!.methods.length);
    } finally {
      await server.close();
    }
  });
});
