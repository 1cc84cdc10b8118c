/**
 * The client is a real package: `npm pack` it, install the tarball (offline) into a consumer project outside the
 * repository, type-check a consumer program against it with tsc, and run it against a local server.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeStub, answer, startNodeStub } from './node-stub.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'client-pack-'));
const consumer = join(temp, 'consumer');
let tarball: string;
let node: NodeStub;

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

const PROGRAM = `import {
  JsonRpcError,
  PChainClient,
  XChainClient,
  toBigInt,
  type PlatformGetBalanceResult,
} from '@avalanche-openrpc/client';

const baseUrl = process.argv[2];
const pchain = new PChainClient({ baseUrl, timeoutMs: 5000 });
const { height } = await pchain.getHeight();
const next: bigint = toBigInt(height) + 1n;
const addresses = ['P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5'];
const balance: PlatformGetBalanceResult = await pchain.getBalance({ addresses });
const utxos: number = balance.utxoIDs?.length ?? 0;
export function wrongCall(): Promise<unknown> {
  // @ts-expect-error blockID is a string: the installed types must say so
  return pchain.getBlock({ blockID: 42 });
}
let failure = '';
try {
  const xchain = new XChainClient({ baseUrl, blockchainID: 'X' });
  await xchain.getTx({ txID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm' });
} catch (error) {
  if (error instanceof JsonRpcError) failure = \`\${error.method} \${error.code}\`;
}
console.log(JSON.stringify({ height, next: next.toString(), balance: balance.balance, utxos, failure }));
`;

beforeAll(async () => {
  const packed = JSON.parse(
    npm(['pack', join(ROOT, 'generated/client'), '--pack-destination', temp, '--json'], temp),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(temp, packed[0]!.filename);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', tarball], consumer);
  writeFileSync(join(consumer, 'main.ts'), PROGRAM);
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        outDir: 'out',
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['main.ts'],
    }),
  );
  node = await startNodeStub();
});

afterAll(async () => {
  await node?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe('the client package', () => {
  it('packs its ESM JavaScript, declarations, sources, README and package.json, and depends on nothing', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listing).toContain('package/package.json');
    expect(listing).toContain('package/README.md');
    // The README tells how to install what is not published: from the folder or the tarball `npm pack` wrote.
    const readme = readFileSync(join(ROOT, 'generated/client/README.md'), 'utf8');
    expect(readme).toContain(`npm install ./${basename(tarball)}\n`);
    expect(readme).not.toMatch(/npm install @avalanche-openrpc/);
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/src/p-chain.ts');
    const installed = JSON.parse(
      readFileSync(join(consumer, 'node_modules/@avalanche-openrpc/client/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(installed).toMatchObject({ name: '@avalanche-openrpc/client', type: 'module', types: './dist/index.d.ts' });
    expect(installed.dependencies).toBeUndefined();
    expect(installed.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    });
  });

  it('type-checks a consumer program with tsc, and the program runs against a local server', async () => {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
      encoding: 'utf8',
    });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);

    node.respond((request, response) => {
      const { method } = JSON.parse(request.body) as { method: string };
      if (method === 'platform.getHeight') return answer({ height: '18446744073709551614' })(request, response);
      if (method === 'platform.getBalance')
        return answer({ balance: '30000000000000000', utxoIDs: null })(request, response);
      const { id } = JSON.parse(request.body) as { id: number };
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'not found', data: null }, id }));
    });
    // Asynchronously: the local server answers from this process's event loop.
    const run = await promisify(execFile)(process.execPath, [join(consumer, 'out/main.js'), node.url], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(run.stdout)).toEqual({
      height: '18446744073709551614',
      next: '18446744073709551615',
      balance: '30000000000000000',
      utxos: 0,
      failure: 'avm.getTx -32000',
    });
    expect(node.requests.map((r) => r.path)).toEqual(['/ext/bc/P', '/ext/bc/P', '/ext/bc/X']);
  });
});
