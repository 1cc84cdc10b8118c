/**
 * Private keys through the recording proxy: secrets (passwords, exported users, private keys) never reach a
 * transcript, and dev.listAccounts answers the funded accounts' private keys (x-sensitive in its document).
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const validator = new SpecValidator(loadSpecModel());
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('private keys through the proxy', () => {
  it('records dev.listAccounts without the private keys it answers', async () => {
    const mock = await startMockNode({ port: 0 });
    closers.push(() => mock.close());
    const dir = mkdtempSync(join(tmpdir(), 'proxy-secrets-'));
    const proxy = await startProxy({ upstream: mock.url, validator, record: dir });
    closers.push(() => proxy.close());
    const answer = await send(`${proxy.url}/ext/dev`, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'dev.listAccounts', params: {} }),
    });
    const keys = (
      JSON.parse(answer.text) as { result: { accounts: Array<{ privateKey: string }> } }
    ).result.accounts.map((account) => account.privateKey);
    expect(keys.length).toBeGreaterThan(0);
    await proxy.settled();
    const files = readdirSync(dir);
    expect(files.length).toBe(1);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    expect(text).toContain('listAccounts');
    for (const key of keys) expect(text).not.toContain(key.slice('PrivateKey-'.length));
  });
});
