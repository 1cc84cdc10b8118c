/**
 * The generated client and server packages as a consumer gets them: `npm pack` each, unpack both tarballs
 * into a project outside the repository, and run a program there, on the Node running the tests (22.18 or newer, as
 * the toolkit's `engines` requires), that serves a P-Chain endpoint with the server package and calls it with the
 * client package over 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'packages-install-'));
const consumer = join(temp, 'consumer');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

const PROGRAM = `import { createServer } from 'node:http';
import { PChainClient } from '@avalanche-openrpc/client';
import { createPChainEndpoint, createRouter } from '@avalanche-openrpc/server';

const endpoint = createPChainEndpoint({ getHeight: () => ({ height: '42' }) });
const server = createServer(createRouter({ '/ext/bc/P': endpoint }).node);
await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
const client = new PChainClient({ baseUrl: 'http://127.0.0.1:' + server.address().port });
const { height } = await client.getHeight();
let refused;
try {
  await client.getBalance({ addresses: ['P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] });
} catch (error) {
  refused = error.constructor.name + ': ' + error.message;
}
server.close();
console.log(JSON.stringify({ node: process.versions.node, height, refused }));
`;

beforeAll(() => {
  const tarballs = ['client', 'server'].map((pkg) => {
    const [packed] = JSON.parse(
      npm(['pack', join(ROOT, 'generated', pkg), '--pack-destination', temp, '--json'], temp),
    ) as Array<{ filename: string }>;
    return join(temp, packed!.filename);
  });
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Each tarball unpacked where npm would put it; its dependencies linked from the toolkit's own install (no registry
  // here: npm's offline mode needs metadata its cache does not keep).
  for (const tarball of tarballs) {
    const folder = join(consumer, 'node_modules', '.unpacked', basename(tarball));
    mkdirSync(folder, { recursive: true });
    execFileSync('tar', ['xzf', tarball, '-C', folder, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    for (const name of [manifest.name, ...Object.keys(manifest.dependencies ?? {})]) {
      const at = join(consumer, 'node_modules', name);
      if (existsSync(at)) continue;
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(name === manifest.name ? folder : join(ROOT, 'node_modules', name), at);
    }
  }
  writeFileSync(join(consumer, 'main.js'), PROGRAM);
}, 180_000);

afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the generated packages installed in a consumer project', () => {
  it('serve and call a method on this Node, and a method without a handler is refused as the node refuses it', () => {
    const output = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: consumer, encoding: 'utf8' })) as {
      node: string;
      height: string;
      refused: string;
    };
    const [major, minor] = output.node.split('.').map(Number) as [number, number];
    expect(major > 22 || (major === 22 && minor >= 18)).toBe(true);
    expect(output.height).toBe('42');
    expect(output.refused).toBe('JsonRpcError: rpc: can\'t find method "platform.GetBalance"');
  });
});
