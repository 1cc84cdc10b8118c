/** The mock node around its endpoints: paths and aliases, versions, options, HTTP behaviour, answers, CLI. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { avalancheFormats, bech32Encode } from '../../generators/formats.ts';
import { type MockNodeOptions, type RunningMockNode, startMockNode } from '../../mock/node.ts';
import type { EndpointName } from '../../mock/spec.ts';
import { P_CHAIN_ID, X_CHAIN_ID } from '../../mock/state.ts';
import { runCli, startCli } from '../support/cli.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});
async function start(options: MockNodeOptions = {}) {
  node = await startMockNode({ port: 0, nodeVersion: 'all', validateResults: true, ...options });
  return Number(new URL(node.url).port);
}
async function call(port: number, path: string, method: string, params?: unknown) {
  const response = await send(port, { path, body: rpc(method, params) });
  return {
    status: response.status,
    headers: response.headers,
    json:
      response.status === 200 && response.text
        ? (JSON.parse(response.text) as { result?: unknown; error?: { message: string } })
        : undefined,
  };
}

describe('paths', () => {
  it.each([
    ['/ext/bc/X', 'avm.getHeight'],
    ['/ext/X', 'avm.getHeight'],
    ['/ext/bc/avm', 'avm.getHeight'],
    ['/ext/avm', 'avm.getHeight'],
    [`/ext/bc/${X_CHAIN_ID}`, 'avm.getHeight'],
    ['/ext/X/wallet', 'rpc.discover'],
    ['/ext/bc/P', 'platform.getHeight'],
    ['/ext/P', 'platform.getHeight'],
    ['/ext/bc/platform', 'platform.getHeight'],
    ['/ext/platform', 'platform.getHeight'],
    [`/ext/bc/${P_CHAIN_ID}`, 'platform.getHeight'],
    ['/ext/vm/avm', 'rpc.discover'],
    ['/ext/admin', 'admin.lockProfile'],
    ['/ext/keystore', 'keystore.listUsers'],
    ['/ext/info', 'info.getNetworkID'],
    ['/ext/health', 'health.liveness'],
  ])('serves %s', async (path, method) => {
    const port = await start();
    const answer = await call(port, path, method);
    expect(answer.status).toBe(200);
    expect(answer.json).toHaveProperty('result');
    expect(answer.headers['node-id']).toBe(node!.nodeID);
  });

  it("answers 404 elsewhere, and on the P-Chain path for an X-Chain method the node's error", async () => {
    const port = await start();
    expect((await call(port, '/ext/bc/C', 'avm.getHeight')).status).toBe(404);
    expect((await call(port, '/ext/bc/X/', 'avm.getHeight')).status).toBe(404);
    expect((await call(port, '/ext/P', 'avm.getHeight')).json?.error?.message).toBe(
      'rpc: can\'t find service "avm.GetHeight"',
    );
  });

  it("returns every endpoint's bundled document from rpc.discover", async () => {
    const port = await start({ indexEnabled: true });
    const paths: Record<EndpointName, string> = {
      dev: '/ext/dev',
      'x-chain': '/ext/bc/X',
      'x-wallet': '/ext/bc/X/wallet',
      'avm-static': '/ext/vm/avm',
      'c-avax': '/ext/bc/C/avax',
      'p-chain': '/ext/P',
      admin: '/ext/admin',
      keystore: '/ext/keystore',
      info: '/ext/info',
      health: '/ext/health',
      indexer: '/ext/index/X/tx',
      proposervm: '/ext/bc/C/proposervm',
    };
    for (const [name, path] of Object.entries(paths)) {
      const published = JSON.parse(
        readFileSync(new URL(`../../generated/openrpc/${name}.json`, import.meta.url), 'utf8'),
      ) as unknown;
      expect((await call(port, path, 'rpc.discover')).json?.result).toEqual(published);
    }
  });
});

describe('node options', () => {
  it('serves only what v1.12.1 serves: the keystore, no avm.getTxFee, no /ext/vm/avm', async () => {
    const port = await start({ nodeVersion: 'v1.12.1' });
    expect((await call(port, '/ext/keystore', 'keystore.listUsers')).json?.result).toEqual({ users: [] });
    expect((await call(port, '/ext/bc/X', 'avm.getTxFee')).json?.error?.message).toBe(
      'rpc: can\'t find method "avm.GetTxFee"',
    );
    expect((await call(port, '/ext/bc/P', 'platform.getValidatorFeeConfig')).json?.error?.message).toBe(
      'rpc: can\'t find method "platform.GetValidatorFeeConfig"',
    );
    expect((await call(port, '/ext/vm/avm', 'avm.buildGenesis')).status).toBe(404);
  });

  it('has no keystore after v1.12.1, no avm.getAddressTxs after v1.13.0, and /ext/vm/avm up to v1.10.17', async () => {
    let port = await start({ nodeVersion: 'v1.13.1' });
    expect((await call(port, '/ext/keystore', 'keystore.listUsers')).status).toBe(404);
    expect((await call(port, '/ext/bc/X', 'avm.getAddressTxs')).json?.error?.message).toBe(
      'rpc: can\'t find method "avm.GetAddressTxs"',
    );
    expect((await call(port, '/ext/bc/X', 'avm.getTxFee')).json).toHaveProperty('result');
    await node!.close();
    port = await start({ nodeVersion: 'v1.10.17' });
    expect((await call(port, '/ext/vm/avm', 'rpc.discover')).status).toBe(200);
  });

  it('turns the admin and keystore APIs off', async () => {
    const port = await start({ adminEnabled: false, keystoreEnabled: false });
    expect((await call(port, '/ext/admin', 'admin.lockProfile')).status).toBe(404);
    expect((await call(port, '/ext/keystore', 'keystore.listUsers')).status).toBe(404);
  });

  it('refuses host names it does not allow, as the node does, and answers CORS preflights', async () => {
    const port = await start();
    const refused = await send(port, {
      path: '/ext/bc/X',
      headers: { host: 'evil.example' },
      body: rpc('avm.getHeight'),
    });
    expect([refused.status, refused.text]).toEqual([403, 'invalid host specified\n']);
    // Go's http.Error: a small answer goes with its length, not chunked.
    expect([refused.headers['content-length'], refused.headers['transfer-encoding']]).toEqual(['23', undefined]);
    const liveness = await send(port, { path: '/ext/health/liveness', method: 'GET', contentType: null });
    expect([liveness.status, liveness.headers['content-length']]).toEqual([200, String(liveness.body.length)]);
    expect(
      (await send(port, { path: '/ext/bc/X', headers: { host: `localhost:${port}` }, body: rpc('avm.getHeight') }))
        .status,
    ).toBe(200);
    // Right after an allowed host (the one the node remembers last), the refused one is refused again.
    expect(
      (await send(port, { path: '/ext/bc/X', headers: { host: 'evil.example' }, body: rpc('avm.getHeight') })).status,
    ).toBe(403);
    const preflight = await send(port, {
      path: '/ext/bc/X',
      method: 'OPTIONS',
      contentType: null,
      headers: {
        origin: 'http://app.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('POST');
    const actual = await send(port, {
      path: '/ext/bc/X',
      headers: { origin: 'http://app.test' },
      body: rpc('avm.getHeight'),
    });
    expect(actual.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('answers beyond the examples', () => {
  it('answer from a deterministic world: the same on two fresh nodes, and per address', async () => {
    const ewoq = `X-${bech32Encode('local', Buffer.from('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c', 'hex'))}`;
    const params = (address: string) => ({ address, assetID: 'AVAX' });
    const first = await call(await start(), '/ext/bc/X', 'avm.getBalance', params(ewoq));
    expect((first.json!.result as { balance: string }).balance).toBe('300000000000000000');
    await node!.close();
    const port = await start();
    expect((await call(port, '/ext/bc/X', 'avm.getBalance', params(ewoq))).json).toEqual(first.json);
    const other = await call(
      port,
      '/ext/bc/X',
      'avm.getBalance',
      params(`X-${bech32Encode('local', new Uint8Array(20).fill(2))}`),
    );
    expect(other.json?.result).toEqual({ balance: '0', utxoIDs: [] });
    const txs = ((first.json!.result as { utxoIDs: Array<{ txID: string }> }).utxoIDs ?? []).map((u) => u.txID);
    for (const txID of txs) expect(avalancheFormats['avax-cb58']!(txID)).toBe(true);
  });

  it('echo the requested encoding with bytes in it', async () => {
    const port = await start();
    const avax = node!.world.network.avaxAssetID;
    const hexnc = (await call(port, '/ext/bc/X', 'avm.getTx', { txID: avax, encoding: 'hexnc' })).json?.result as {
      tx: string;
      encoding: string;
    };
    expect(hexnc.encoding).toBe('hexnc');
    expect(hexnc.tx).toMatch(/^0x[0-9a-f]+$/);
    const json = (await call(port, '/ext/bc/X', 'avm.getTx', { txID: avax, encoding: 'JSON' })).json?.result as {
      tx: object;
      encoding: string;
    };
    expect([typeof json.tx, json.encoding]).toEqual(['object', 'json']);
  });
});

describe('npm run mock', () => {
  it('prints its URL and answers there', async () => {
    const cli = startCli('mock/cli.ts', [
      ...['--port', '0', '--node-version', 'v1.12.1'],
      ...['--api-admin-enabled=false', '--index-enabled'],
    ]);
    try {
      const [, url] = await cli.stdout.until(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const port = Number(new URL(url!).port);
      expect((await call(port, '/ext/keystore', 'keystore.listUsers')).json?.result).toEqual({ users: [] });
      expect((await call(port, '/ext/admin', 'admin.lockProfile')).status).toBe(404);
      expect((await call(port, '/ext/index/X/tx', 'index.isAccepted', {})).json?.result).toEqual({ isAccepted: false });
    } finally {
      await cli.stop();
    }
  });

  it('refuses a malformed option with its usage', async () => {
    const { code, stderr } = await runCli('mock/cli.ts', ['--node-version', '1.12']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--node-version must look like v1.12.1/);
  });
});
