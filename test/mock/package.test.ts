/**
 * The mock as a real package: build it (npm run build:mock), `npm pack` it, install the tarball offline into a
 * consumer project outside the repository, and run a program there that starts a node with startMockNode and one
 * with the `avalanche-mock` bin.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMockPackage } from '../../mock/package/build.ts';

const temp = mkdtempSync(join(tmpdir(), 'mock-pack-'));
const consumer = join(temp, 'consumer');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

const PROGRAM = `import { startMockNode } from '@avalanche-openrpc/mock';

const node = await startMockNode({ network: 'local', accounts: 2, seed: 'consumer' });
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
console.log(JSON.stringify({ keys: node.keys.length, before, funded, after, overHttp: overHttp.balance, height }));
await node.close();
`;

beforeAll(async () => {
  const pkg = join(temp, 'pkg');
  await buildMockPackage(pkg);
  const packed = JSON.parse(npm(['pack', pkg, '--pack-destination', temp, '--json'], temp)) as Array<{
    filename: string;
  }>;
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', join(temp, packed[0]!.filename)], consumer);
  writeFileSync(join(consumer, 'main.js'), PROGRAM);
}, 120_000);

afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the mock package', () => {
  it('startMockNode runs an isolated node whose dev controls change what the API answers', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: consumer, encoding: 'utf8' })) as Record<
      string,
      unknown
    >;
    expect(out.keys).toBe(2);
    expect(BigInt(String(out.funded))).toBe(BigInt(String(out.before)) + 1000n);
    expect(out.after).toBe(out.before);
    expect(BigInt(String(out.overHttp))).toBe(BigInt(String(out.before)) + 7n);
    expect(Number(out.height)).toBeGreaterThanOrEqual(1);
  });

  it('the avalanche-mock bin prints its URL and answers there', async () => {
    const child = spawn(
      join(consumer, 'node_modules/.bin/avalanche-mock'),
      ['--port', '0', '--accounts', '1', '--quiet'],
      { cwd: consumer },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const response = await fetch(`${url}/ext/bc/X`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.getHeight', params: {} }),
      });
      expect(((await response.json()) as { result: { height: string } }).result.height).toMatch(/^\d+$/);
    } finally {
      child.kill();
    }
  });
});
