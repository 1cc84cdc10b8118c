/**
 * platform.getAllValidatorsAt agrees with platform.getValidatorsAt at every height; admin.getConfig reports what the
 * mock serves; admin.dbGet decodes its key as the node does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, PChainClient } from '../../generated/client/dist/index.js';
import { type MockNodeOptions, type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function start(options: MockNodeOptions = {}) {
  node = await startMockNode({ port: 0, validateResults: true, world: { network: 'fuji', accounts: 1 }, ...options });
  return node;
}

const PRIMARY = '11111111111111111111111111111111LpoYY';

describe('platform.getAllValidatorsAt', () => {
  it("holds getValidatorsAt's validators, merged by BLS key and sorted, with the set's total weight", async () => {
    const { url, state } = await start({ world: { network: 'local', accounts: 1 } });
    state.dev.mine({ chain: 'P', blocks: 2 });
    const p = new PChainClient({ baseUrl: url });
    for (const height of [0, 1, 2, 'proposed'] as const) {
      const one = (await p.getValidatorsAt({ height })) as Record<string, { publicKey: string | null; weight: string }>;
      const all = await p.getAllValidatorsAt({ height });
      const set = all.validatorSets[PRIMARY]!;
      const weights = Object.values(one).map((v) => BigInt(v.weight));
      expect(set.totalWeight).toBe(String(weights.reduce((a, b) => a + b, 0n)));
      const keyed = Object.entries(one).filter(([, v]) => v.publicKey !== null);
      expect(keyed.length).toBeGreaterThan(1);
      expect(set.validators.flatMap((v) => v.nodeIDs).sort()).toEqual(keyed.map(([nodeID]) => nodeID).sort());
      for (const v of set.validators)
        expect(v.weight).toBe(String(v.nodeIDs.reduce((sum, id) => sum + BigInt(one[id]!.weight), 0n)));
      const xs = set.validators.map(
        (v) => (Number.parseInt(v.publicKey.slice(2, 4), 16) & 0x1f) + v.publicKey.slice(4),
      );
      expect(xs).toEqual([...xs].sort());
    }
    await expect(p.getAllValidatorsAt({ height: 9 })).rejects.toThrow(
      'failed to get validator sets at 9: failed to fetch validator set at unfinalized height: ' +
        'current P-chain height (3) < requested P-Chain height (9)',
    );
  });
});

describe('admin', () => {
  it('getConfig reports the network and whether the indexes are served', async () => {
    let { url } = await start();
    const config = await new AdminClient({ baseUrl: url }).getConfig({});
    expect(config).toMatchObject({
      networkID: 5,
      httpConfig: { apiConfig: { indexerConfig: { indexAPIEnabled: false }, adminAPIEnabled: true } },
    });
    await node!.close();
    ({ url } = await start({ indexEnabled: true }));
    expect(await new AdminClient({ baseUrl: url }).getConfig({})).toMatchObject({
      httpConfig: { apiConfig: { indexerConfig: { indexAPIEnabled: true } } },
    });
  });

  it("dbGet answers not found, and refuses a key that is not 0x hex in the node's words", async () => {
    const { url } = await start();
    const admin = new AdminClient({ baseUrl: url });
    expect(await admin.dbGet({ key: '0x6b6579' })).toEqual({ value: '', errorCode: 2 });
    await expect(admin.dbGet({ key: '6b6579' })).rejects.toThrow('missing 0x prefix to hex encoding');
    await expect(admin.dbGet({ key: '0x6b657' })).rejects.toThrow('encoding/hex: odd length hex string');
    await expect(admin.dbGet({ key: '0x6g' })).rejects.toThrow("encoding/hex: invalid byte: U+0067 'g'");
    expect(await admin.stacktrace({})).toEqual({});
  });
});
