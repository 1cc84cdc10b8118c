/**
 * The Admin API's reads of the node itself (api/admin/service.go): `getConfig`, the part of config.Config the mock
 * knows (its network, and which APIs it serves, from its routes), and `dbGet`, whose key the mock decodes as the
 * node does; the mock keeps its state in no key-value database, so every key answers rpcdb's "not found" (2).
 */
import { decodeBytes } from './shared/formatting.ts';
import type { World } from './world/world.ts';

export function nodeConfig(world: World, routes: readonly string[]) {
  const served = (path: string) => routes.includes(path);
  return {
    httpConfig: {
      apiConfig: {
        indexerConfig: { indexAPIEnabled: served('/ext/index/P/block'), indexAllowIncomplete: false },
        adminAPIEnabled: served('/ext/admin'),
        infoAPIEnabled: served('/ext/info'),
        metricsAPIEnabled: false,
        healthAPIEnabled: served('/ext/health'),
      },
    },
    avaxAssetID: world.network.avaxAssetID,
    networkID: world.network.networkID,
  };
}

/** formatting.Decode(HexNC, key), then a database that holds nothing. */
export function dbGet({ key }: { key?: unknown }): { value: string; errorCode: 2 } {
  decodeBytes(typeof key === 'string' ? key : '', 'hexnc');
  return { value: '', errorCode: 2 };
}
