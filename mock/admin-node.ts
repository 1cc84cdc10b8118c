/**
 * The Admin API's reads of the node itself (api/admin/service.go): `getConfig`, the part of config.Config the mock
 * knows (its network, and which APIs it serves, from its routes), and `dbGet`, whose key the mock decodes as the
 * node does; the mock keeps its state in no key-value database, so every key answers rpcdb's "not found" (2).
 */
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

const HEX_DIGIT = /^[0-9a-fA-F]$/;

/** formatting.Decode(HexNC, key), then a database that holds nothing. */
export function dbGet({ key }: { key?: unknown }): { value: string; errorCode: 2 } {
  const text = typeof key === 'string' ? key : '';
  if (text !== '') {
    if (!text.startsWith('0x')) throw new Error('missing 0x prefix to hex encoding');
    const digits = Buffer.from(text.slice(2), 'utf8');
    // Go's hex.DecodeString reports the first bad byte (as a rune, %#U) before it looks at the length.
    for (const byte of digits) {
      if (!HEX_DIGIT.test(String.fromCharCode(byte))) {
        const code = `U+${byte.toString(16).toUpperCase().padStart(4, '0')}`;
        const printable = (byte >= 0x20 && byte < 0x7f) || byte >= 0xa0;
        throw new Error(`encoding/hex: invalid byte: ${printable ? `${code} '${String.fromCharCode(byte)}'` : code}`);
      }
    }
    if (digits.length % 2 !== 0) throw new Error('encoding/hex: odd length hex string');
  }
  return { value: '', errorCode: 2 };
}
