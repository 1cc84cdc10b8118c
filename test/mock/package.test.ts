/**
 * The mock as a real package: build it (npm run build:mock), `npm pack` it, install the tarball offline into a
 * consumer project outside the repository, and run a program there that starts a node with startMockNode and one
 * with the `avalanche-mock` bin. Its own files read like the generated packages' (no line over 120 columns); the
 * minified bundles of the mock and its libraries (dist/*.cjs) are for Node to start from, not for reading.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMockPackage } from '../../mock/package/build.ts';
import { startMockNode as startSourceNode } from '../../mock/package/index.ts';
import { watchOutput } from '../support/child-output.ts';
import { callRpc } from '../support/rpc.ts';
import { wideLines } from '../support/wide-lines.ts';

const temp = mkdtempSync(join(tmpdir(), 'mock-pack-'));
const pkg = join(temp, 'pkg');
const consumer = join(temp, 'consumer');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

const PROGRAM = `import { createRequire } from 'node:module';
import { startMockNode } from '@avalanche-openrpc/mock';

const node = await startMockNode({ network: 'local', accounts: 2, seed: 'consumer' });
// The files the package requires on first use (codec, BLS12-381, password dictionaries), if start-up required them.
const lazyAtStart = Object.keys(createRequire(import.meta.url).cache).filter((f) => /\\.cjs$/.test(f) && !/core\\.cjs$/.test(f));
const call = async (method, params) => {
  const response = await fetch(node.url + '/ext/bc/P', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()).result;
};
const balance = async () => (await call('platform.getBalance', { addresses: [node.keys[0].p] })).balance;
const before = await balance();
const { snapshotID } = node.dev.snapshot();
node.dev.fund({ address: node.keys[0].p, amount: '1000' });
const funded = await balance();
node.dev.revert({ snapshotID });
const after = await balance();
const overHttp = await node.devClient.fund({ address: node.keys[0].p, amount: '7' });
const { height } = await call('platform.getHeight', {});
// The wallet on the C-Chain: an EVM transfer, an export to P and its import.
await node.wallet(0).send('C', node.keys[1].c, 5n);
await node.wallet(0).exportTo('C', 'P', 1000000000n);
await node.wallet(0).importFrom('C', 'P');
const wallet = { c: String(await node.wallet(1).balance('C')), p: String(await node.wallet(0).balance('P')) };
console.log(JSON.stringify({ lazyAtStart, keys: node.keys.length, before, funded, after, overHttp: overHttp.balance, height, wallet }));
await node.close();
const defaults = await startMockNode({ accounts: 3 });
console.log(JSON.stringify(defaults.keys));
await defaults.close();
`;

beforeAll(async () => {
  await buildMockPackage(pkg);
  const packed = JSON.parse(npm(['pack', pkg, '--pack-destination', temp, '--json'], temp)) as Array<{
    filename: string;
  }>;
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', join(temp, packed[0]!.filename)], consumer);
  writeFileSync(join(consumer, 'main.js'), PROGRAM);
}, 120_000);

const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(temp, { recursive: true, force: true });
});

const spawnBin = (args: string[]): ChildProcess => {
  const child = spawn(join(consumer, 'node_modules/.bin/avalanche-mock'), args, { cwd: consumer });
  children.push(child);
  return child;
};

/** The URL a started bin prints (both pipes read, so neither fills up). */
const listening = async (child: ChildProcess) =>
  (await watchOutput(child.stdout!, child.stderr!).until(/listening on (http:\/\/\S+)/))[1]!;

describe('the mock package', () => {
  it('keeps its own files within 120 columns', () => {
    const own = ['index.d.ts', ...readdirSync(join(pkg, 'dist')).filter((name) => name.endsWith('.js'))];
    expect(own).toEqual(expect.arrayContaining(['index.d.ts', 'bin.js', 'index.js', 'load.js']));
    for (const name of own.map((file) => (file === 'index.d.ts' ? file : `dist/${file}`))) {
      expect(wideLines(readFileSync(join(pkg, name), 'utf8')), name).toEqual([]);
    }
  });

  it('startMockNode runs an isolated node whose dev controls change what the API answers', async () => {
    const [line, defaultKeys] = execFileSync(process.execPath, ['main.js'], { cwd: consumer, encoding: 'utf8' })
      .trim()
      .split('\n');
    const out = JSON.parse(line!) as Record<string, unknown>;
    expect(out.lazyAtStart).toEqual([]);
    expect(out.keys).toBe(2);
    expect(BigInt(String(out.funded))).toBe(BigInt(String(out.before)) + 1000n);
    expect(out.after).toBe(out.before);
    expect(BigInt(String(out.overHttp))).toBe(BigInt(String(out.before)) + 7n);
    expect(Number(out.height)).toBeGreaterThanOrEqual(1);
    const wallet = out.wallet as { c: string; p: string };
    expect(BigInt(wallet.c)).toBe(2_500n * 10n ** 18n + 5n);
    // The funded 2,500 AVAX and 7 nAVAX, and the import's 1 AVAX less its fee.
    expect(BigInt(wallet.p) - 2_500_000_000_007n).toBeGreaterThan(990_000_000n);
    expect(BigInt(wallet.p) - 2_500_000_000_007n).toBeLessThan(1_000_000_000n);
    // The default seed's addresses come from the table the build derived: the same keys as derived from source.
    const fromSource = await startSourceNode({ accounts: 3 });
    await fromSource.close();
    expect(JSON.parse(defaultKeys!)).toEqual(fromSource.keys);
  });

  it('the avalanche-mock bin prints its URL and answers there', async () => {
    const url = await listening(spawnBin(['--port', '0', '--accounts', '1', '--quiet']));
    expect((await callRpc(`${url}/ext/bc/X`, 'avm.getHeight')).result.height).toMatch(/^\d+$/);
  });

  it('exports at run time every value its index.d.ts declares', () => {
    const declared = [
      ...readFileSync(join(pkg, 'index.d.ts'), 'utf8').matchAll(
        /^export (?:declare )?(?:async )?(?:function|class|const) (\w+)/gm,
      ),
    ]
      .map((m) => m[1]!)
      .filter((name, i, all) => all.indexOf(name) === i)
      .sort();
    const program = `import * as mock from '@avalanche-openrpc/mock'; console.log(JSON.stringify(Object.keys(mock).sort()));`;
    const exported = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(declared).toEqual(expect.arrayContaining(['loadFixture', 'startMockNode', 'Wallet']));
    expect(JSON.parse(exported)).toEqual(declared);
  });

  it('the bin names itself in its usage and its errors', () => {
    const bin = join(consumer, 'node_modules/.bin/avalanche-mock');
    expect(execFileSync(bin, ['--help'], { encoding: 'utf8' })).toMatch(/^Usage: avalanche-mock \[options\]\n/);
    const refused = spawnSync(bin, ['--port', 'x'], { encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^avalanche-mock: --port must be a port number, not "x"\n\nUsage: avalanche-mock /);
  });

  it('the bin starts a fuji node, whose genesis holders the package carries', async () => {
    const url = await listening(spawnBin(['--port', '0', '--network', 'fuji', '--accounts', '1', '--quiet']));
    expect((await callRpc(`${url}/ext/info`, 'info.getNetworkID')).result.networkID).toBe('5');
  });
});
