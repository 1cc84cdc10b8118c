/** The mock's Info and Health APIs: answers that agree with the rest of the mock, the node's errors, the GET forms. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, CAvaxClient, HealthClient, InfoClient } from '../../generated/client/dist/index.js';
import { healthGetReply } from '../../mock/health.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { P_CHAIN_ID, X_CHAIN_ID } from '../../mock/state.ts';
import { rpc, send } from '../support/rpc.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';

let node: RunningMockNode;
let port: number;
let info: InfoClient;
let health: HealthClient;
beforeAll(async () => {
  node = await startMockNode({ port: 0, validateResults: true });
  port = Number(new URL(node.url).port);
  info = new InfoClient({ baseUrl: node.url });
  health = new HealthClient({ baseUrl: node.url });
});
afterAll(() => node.close());

/** The error a call gets, as code and message on the wire. */
async function refusal(method: string, params: object) {
  const answer = JSON.parse((await send(port, { path: '/ext/info', body: rpc(method, params) })).text) as {
    error?: { code: number; message: string };
  };
  return answer.error && [answer.error.code, answer.error.message];
}

describe('info', () => {
  it('names the chains the mock serves, as admin.getChainAliases does', async () => {
    const admin = new AdminClient({ baseUrl: node.url });
    for (const [alias, id] of [
      ['X', X_CHAIN_ID],
      ['avm', X_CHAIN_ID],
      ['P', P_CHAIN_ID],
      [X_CHAIN_ID, X_CHAIN_ID],
    ] as const) {
      expect((await info.getBlockchainID({ alias })).blockchainID).toBe(id);
      expect((await admin.getChainAliases({ chain: id })).aliases).toContain(alias);
    }
    await admin.aliasChain({ chain: 'X', alias: 'myX' });
    expect((await info.getBlockchainID({ alias: 'myX' })).blockchainID).toBe(X_CHAIN_ID);
    expect(await info.isBootstrapped({ chain: 'myX' })).toEqual({ isBootstrapped: true });
  });

  it("refuses unknown aliases and chains with the node's texts", async () => {
    expect(await refusal('info.getBlockchainID', { alias: 'Y' })).toEqual([-32000, 'there is no ID with alias: Y']);
    expect(await refusal('info.isBootstrapped', { chain: 'Y' })).toEqual([
      -32000,
      "there is no chain with alias/ID 'Y'",
    ]);
    expect(await refusal('info.isBootstrapped', {})).toEqual([-32000, "argument 'chain' not given"]);
    expect(await refusal('info.getBlockchainID', {})).toEqual([-32000, 'there is no ID with alias: ']);
    expect((await refusal('info.isBootstrapped', { chain: 1 }))?.[1]).toBe(INVALID_ARGUMENT);
  });

  it('is the node its headers name, on a local network', async () => {
    const { nodeID } = await info.getNodeID();
    expect(nodeID).toBe(node.nodeID);
    const answer = await send(port, {
      path: '/ext/info',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNetworkID' }),
    });
    expect(answer.headers['node-id']).toBe(nodeID);
    expect(await info.getNetworkID()).toEqual({ networkID: '12345' });
    expect(await info.getNetworkName()).toEqual({ networkName: 'local' });
  });

  it('reports the release it stands for, built from its tag, and its VMs as each reported itself then', async () => {
    const { version, rpcProtocolVersion, gitCommit, vmVersions } = await info.getNodeVersion();
    expect([version, rpcProtocolVersion, gitCommit, vmVersions]).toEqual([
      'avalanchego/1.14.2',
      '45',
      '6e5acf909c7a16b991142d6b3979bac5699bdb68',
      { avm: 'avalanchego/1.14.2', evm: 'v1.14.2', platform: 'avalanchego/1.14.2' },
    ]);
    // Each era: coreth's own version and avm/platform as `v…`; the grafted coreth still `v0.15.4`, avm/platform as
    // `avalanchego/…` (v1.14.1); the evm as the node's release (from v1.14.2). The RPCChainVM protocol of each
    // (version/compatibility.json), the commit of its tag; the client named `avalanche` before v1.10.18
    // (version/application.go), a Fuji release by its numbers alone (version/constants.go), no commit for a release
    // never tagged.
    const eras = {
      'v1.10.17': [
        'avalanche/1.10.17',
        '30',
        '7623ffd4be915a5185c9ed5e11fa9be15a6e1f00',
        { avm: 'v1.10.17', evm: 'v0.12.9', platform: 'v1.10.17' },
      ],
      'v1.11.3': [
        'avalanchego/1.11.3',
        '35',
        '7a67e5a8933891a9ad45a252467d6cdae4c63779',
        { avm: 'v1.11.3', evm: 'v0.13.2', platform: 'v1.11.3' },
      ],
      'v1.13.5': [
        'avalanchego/1.13.5',
        '43',
        'c2563d13031197962d20f25b576560d029c5125c',
        { avm: 'v1.13.5', evm: 'v0.15.4', platform: 'v1.13.5' },
      ],
      'v1.14.0': [
        'avalanchego/1.14.0',
        '44',
        'dce38e90b1542fafa3c2b8efa8ef864d7a370eb6',
        { avm: 'v1.14.0', evm: 'v0.15.4', platform: 'v1.14.0' },
      ],
      'v1.14.1': [
        'avalanchego/1.14.1',
        '44',
        '1a59a6f646ef18167dde10d24d4efbf05e3de177',
        { avm: 'avalanchego/1.14.1', evm: 'v0.15.4', platform: 'avalanchego/1.14.1' },
      ],
      'v1.15.0-fuji': [
        'avalanchego/1.15.0',
        '46',
        'e8f9781ee57de048bbfde5be0fa632e9efdf1448',
        { avm: 'avalanchego/1.15.0', evm: 'v1.15.0', platform: 'avalanchego/1.15.0' },
      ],
      'v1.14.3': [
        'avalanchego/1.14.3',
        '45',
        '',
        { avm: 'avalanchego/1.14.3', evm: 'v1.14.3', platform: 'avalanchego/1.14.3' },
      ],
    } as const;
    for (const [release, expected] of Object.entries(eras)) {
      const old = await startMockNode({ port: 0, nodeVersion: release });
      try {
        const answer = await new InfoClient({ baseUrl: old.url }).getNodeVersion();
        expect([answer.version, answer.rpcProtocolVersion, answer.gitCommit, answer.vmVersions], release).toEqual(
          expected,
        );
        // Where avax.version is served (up to v1.13.5), the C-Chain's atomic API names the same coreth.
        if (release === 'v1.11.3' || release === 'v1.13.5')
          expect((await new CAvaxClient({ baseUrl: old.url }).version()).version, release).toBe(expected[3].evm);
      } finally {
        await old.close();
      }
    }
  });

  it('filters peers by node ID and leaves out those it is not connected to', async () => {
    const all = await info.peers();
    expect(all.numPeers).toBe(String(all.peers.length));
    expect(all.peers.map((p) => p.nodeID)).not.toContain(node.nodeID);
    const one = all.peers[1]!.nodeID;
    expect(await info.peers({ nodeIDs: [one, node.nodeID] })).toEqual({ numPeers: '1', peers: [all.peers[1]] });
    expect(await info.peers({ nodeIDs: [] })).toEqual(all);
  });
});

describe('health', () => {
  it('answers the reports over JSON-RPC, filtered by tag as the node filters', async () => {
    const full = await health.health();
    expect(full.healthy).toBe(true);
    expect(Object.keys(full.checks)).toEqual(expect.arrayContaining(['P', 'X', 'bootstrapped', 'network']));
    expect(await health.health({ tags: [P_CHAIN_ID] })).toEqual(full);
    const other = await health.health({ tags: ['29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL'] });
    expect(Object.keys(other.checks)).not.toContain('P');
    expect(Object.keys(other.checks)).toContain('bootstrapped');
    expect(await health.liveness()).toEqual({ checks: {}, healthy: true });
  });

  it.each([
    ['/ext/health', 'health'],
    ['/ext/health/health', 'health'],
    ['/ext/health/readiness', 'readiness'],
    ['/ext/health/liveness', 'liveness'],
  ] as const)('GET %s answers the %s report with 200', async (path, kind) => {
    const answer = await send(port, { path, method: 'GET', contentType: null });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['node-id']).toBe(node.nodeID);
    expect(answer.text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(answer.text)).toEqual(await health[kind]());
  });

  it('GET takes tags as repeated query parameters; other methods reach JSON-RPC only at /ext/health', async () => {
    const filtered = await send(port, {
      path: '/ext/health?tag=29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL&tag=x',
      method: 'GET',
      contentType: null,
    });
    expect(Object.keys((JSON.parse(filtered.text) as { checks: object }).checks)).not.toContain('P');
    const put = await send(port, { path: '/ext/health', method: 'PUT', contentType: null });
    expect([put.status, put.text]).toEqual([405, 'rpc: POST method required, received PUT']);
    // The node's /readiness, /liveness and /health routes are GET handlers that never look at the method.
    const post = await send(port, { path: '/ext/health/readiness', body: '{}' });
    expect(JSON.parse(post.text)).toEqual(await health.readiness());
  });

  it("answers an unhealthy report with 503, written as Go's encoder writes it", () => {
    const reply = healthGetReply({
      checks: { network: { error: 'no <peers> & no messages', timestamp: '2026-11-24T04:10:02Z', duration: 12 } },
      healthy: false,
    });
    expect(reply.status).toBe(503);
    expect(reply.body).toBe(
      '{"checks":{"network":{"error":"no \\u003cpeers\\u003e \\u0026 no ' +
        'messages","timestamp":"2026-11-24T04:10:02Z","duration":12}},"healthy":false}\n',
    );
  });
});
