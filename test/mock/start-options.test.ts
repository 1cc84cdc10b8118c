/**
 * startMockNode takes the CLI's options with its defaults and refuses what it does not know (issue 27 item 7), and
 * both print or hand out each funded key's X-, P- and C-Chain addresses.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1, utils } from '@avalabs/avalanchejs';
import { describe, expect, it } from 'vitest';
import { startMockNode } from '../../mock/package/index.ts';
import { startCli } from '../support/cli.ts';
import { callRpc, rpc, send } from '../support/rpc.ts';

/** The addresses avalanchejs derives from a `PrivateKey-…`: bech32 on `hrp`, and the C-Chain's 0x (EIP-55). */
function addressesOf(privateKey: string, hrp: string) {
  const publicKey = secp256k1.getPublicKey(utils.base58check.decode(privateKey.slice('PrivateKey-'.length)));
  const bech32 = utils.formatBech32(hrp, secp256k1.publicKeyBytesToAddress(publicKey));
  const eth = Buffer.from(secp256k1.publicKeyToEthAddress(publicKey)).toString('hex');
  return { x: `X-${bech32}`, p: `P-${bech32}`, c: `0x${eth}` };
}

describe('startMockNode options', () => {
  it('serves the release asked for, and no /ext/dev with devControls false', async () => {
    const node = await startMockNode({ nodeVersion: 'v1.11.0', devControls: false, accounts: 1 });
    try {
      const version = await callRpc(`${node.url}/ext/info`, 'info.getNodeVersion');
      expect(version.result).toMatchObject({ version: 'avalanchego/1.11.0' });
      const dev = await send(`${node.url}/ext/dev`, { body: rpc('dev.snapshot', {}) });
      expect(dev.status).toBe(404);
    } finally {
      await node.close();
    }
  });

  it('has the CLI defaults: local, 10 accounts, automine, dev controls on', async () => {
    const node = await startMockNode();
    try {
      expect([node.world.network.name, node.keys.length]).toEqual(['local', 10]);
      expect(node.dev.listAccounts().accounts).toHaveLength(11);
      const funded = (await node.dev.fund({ address: node.keys[0]!.p, amount: '5' })) as { balance: string };
      expect(BigInt(funded.balance)).toBeGreaterThan(5n);
    } finally {
      await node.close();
    }
  });

  it('refuses an unknown option and an out-of-range one by name, starting nothing', async () => {
    await expect(startMockNode({ nodeVersoin: 'v1.11.0' } as never)).rejects.toThrow(/^unknown option "nodeVersoin"/);
    await expect(startMockNode({ accounts: 5_000_000 })).rejects.toThrow(
      'startMockNode: accounts must be an integer from 0 to 1000000, not 5000000',
    );
    await expect(startMockNode({ nodeVersion: '1.11' })).rejects.toThrow('startMockNode: nodeVersion must look like');
    await expect(startMockNode({ blockTime: 10, mining: false })).rejects.toThrow('exclude each other');
    await expect(startMockNode({ devControls: 'no' } as never)).rejects.toThrow('devControls must be a boolean');
  });

  it('loads and saves the world of its state file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-start-')), 'world.json');
    const first = await startMockNode({ accounts: 1, state: file, mining: false });
    const address = first.keys[0]!.x;
    first.dev.fund({ address, amount: '77' });
    await first.close();
    expect(existsSync(file)).toBe(true);
    const second = await startMockNode({ state: file });
    try {
      const balance = await callRpc(`${second.url}/ext/bc/X`, 'avm.getBalance', { address, assetID: 'AVAX' });
      expect(BigInt(String(balance.result!.balance))).toBe(2_500_000_000_000n + 77n);
    } finally {
      await second.close();
    }
  });

  it("hands out each key's X-, P- and C-Chain addresses, derived as avalanchejs derives them", async () => {
    const node = await startMockNode({ accounts: 2, network: 'fuji' });
    try {
      for (const key of node.keys) {
        const expected = addressesOf(key.privateKey, 'fuji');
        expect([key.x, key.p, key.c.toLowerCase()]).toEqual([expected.x, expected.p, expected.c.toLowerCase()]);
        expect(key.c).toMatch(/^0x[0-9a-fA-F]{40}$/);
      }
      // ewoq's C-Chain address, as every Avalanche tool knows it.
      expect(node.dev.listAccounts().accounts.map((a) => a.cAddress)).not.toContain(
        '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
      );
    } finally {
      await node.close();
    }
    const local = await startMockNode({ accounts: 0 });
    expect(local.dev.listAccounts().accounts[0]!.cAddress).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    await local.close();
  });
});

describe('npm run mock', () => {
  it("prints each funded key's X-, P- and C-Chain addresses", async () => {
    const cli = startCli('mock/cli.ts', ['--port', '0', '--accounts', '2']);
    try {
      await cli.stdout.until(/holds the local genesis funds/);
      const out = cli.stdout.text;
      const lines = [...out.matchAll(/^\((\d)\) (\S+) (\S+) (\S+) (PrivateKey-\S+)$/gm)];
      expect(lines).toHaveLength(2);
      for (const [, , x, p, c, privateKey] of lines) {
        const expected = addressesOf(privateKey!, 'local');
        expect([x, p, c!.toLowerCase()]).toEqual([expected.x, expected.p, expected.c.toLowerCase()]);
      }
    } finally {
      await cli.stop();
    }
  });
});
