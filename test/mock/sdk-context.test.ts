/**
 * The first calls of nearly every app, against the mock of each network: avalanchejs 5.2.0's
 * `Context.getContextFromURI` (avm.getAssetDescription, avm.getTxFee, info.getBlockchainID for X, P and C,
 * info.getNetworkID, platform.getFeeConfig) and avalanche.js v3's `Info()`; and the Info API's network-dependent
 * answers (static fees, upgrade schedule) as the node of that network gives them (api/info/service.go, upgrade/).
 */
import { Context } from '@avalabs/avalanchejs';
import { Avalanche } from 'avalanche';
import { describe, expect, it } from 'vitest';
import { startMockNode } from '../../mock/node.ts';
import type { NetworkName } from '../../mock/world/networks.ts';
import { callRpc } from '../support/rpc.ts';

const NETWORKS: Array<{
  network: NetworkName;
  networkID: number;
  hrp: string;
  x: string;
  c: string;
  avax: string;
  createSubnet: string;
  granite: string;
}> = [
  {
    network: 'local',
    networkID: 12345,
    hrp: 'local',
    x: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    c: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    avax: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    createSubnet: '100000000',
    granite: '2020-12-05T05:00:00Z',
  },
  {
    network: 'fuji',
    networkID: 5,
    hrp: 'fuji',
    x: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    c: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avax: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    createSubnet: '100000000',
    granite: '2025-10-29T15:00:00Z',
  },
  {
    network: 'mainnet',
    networkID: 1,
    hrp: 'avax',
    x: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    c: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avax: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    createSubnet: '1000000000',
    granite: '2025-11-19T16:00:00Z',
  },
];

describe.each(NETWORKS)('$network', (expected) => {
  it("gives avalanchejs 5.2.0 the network's context, and avalanche.js v3 its network ID", async () => {
    const node = await startMockNode({ port: 0, world: { network: expected.network, accounts: 0 } });
    try {
      const { world } = node;
      const context = await Context.getContextFromURI(node.url);
      // The network's real identity (genesis files of AvalancheGo), and the world's copy of it.
      expect([
        context.networkID,
        context.hrp,
        context.xBlockchainID,
        context.cBlockchainID,
        context.avaxAssetID,
      ]).toEqual([expected.networkID, expected.hrp, expected.x, expected.c, expected.avax]);
      expect(context.pBlockchainID).toBe('11111111111111111111111111111111LpoYY');
      expect(context).toMatchObject({
        networkID: world.network.networkID,
        hrp: world.network.hrp,
        xBlockchainID: world.chainIDs.X,
        pBlockchainID: world.chainIDs.P,
        cBlockchainID: world.chainIDs.C,
        avaxAssetID: world.network.avaxAssetID,
      });
      expect([context.baseTxFee, context.createAssetTxFee]).toEqual([
        world.config.txFee,
        world.config.createAssetTxFee,
      ]);
      const f = world.config.fee;
      expect(context.platformFeeConfig).toMatchObject({
        maxCapacity: f.maxCapacity,
        maxPerSecond: f.maxPerSecond,
        targetPerSecond: f.targetPerSecond,
        minPrice: f.minPrice,
        excessConversionConstant: f.excessConversionConstant,
      });

      const v3 = new Avalanche('127.0.0.1', Number(new URL(node.url).port), 'http', expected.networkID);
      // v3 hands back the node's JSON string (json.Uint32 is quoted on the wire) despite its `number` type.
      expect(Number(await v3.Info().getNetworkID())).toBe(expected.networkID);
      expect(await v3.Info().getNetworkName()).toBe(world.network.networkName);
      expect(await v3.Info().getBlockchainID('X')).toBe(expected.x);

      const info = async (method: string) => (await callRpc(`${node.url}/ext/info`, method)).result;
      expect(await info('info.getTxFee')).toMatchObject({
        txFee: String(world.config.txFee),
        createAssetTxFee: String(world.config.createAssetTxFee),
        createSubnetTxFee: expected.createSubnet,
      });
      expect((await info('info.upgrades')).graniteTime).toBe(expected.granite);
    } finally {
      await node.close();
    }
  });
});
