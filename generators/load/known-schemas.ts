/**
 * Schemas the field refers to by URL that the toolkit holds a copy of. A document serving `rpc.discover` (OpenRPC's
 * service discovery method) writes its result as a `$ref` to the OpenRPC meta-schema's URL, as jsonrpsee's, Zcash's
 * and most discovery generators emit it; that `$ref` reads the meta-schema @open-rpc/meta-schema ships (folded offline
 * by meta-schema.ts). Nothing is fetched: any other URL is refused (ref-file.ts).
 */
import { openrpcMetaSchema } from './meta-schema.ts';

const OPENRPC_META_SCHEMA = new Set([
  'https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json',
  'https://meta.open-rpc.org/',
  'https://meta.open-rpc.org',
]);

/** The component name a known schema takes in the bundle; undefined for a URL the toolkit does not know. */
export function knownSchemaName(url: string): string | undefined {
  return OPENRPC_META_SCHEMA.has(url) ? 'OpenrpcDocument' : undefined;
}

let metaSchema: Record<string, unknown> | undefined;

/** A fresh copy of the schema a known URL names (the bundle may change what it copies in). */
export function knownSchema(url: string): Record<string, unknown> | undefined {
  if (!knownSchemaName(url)) return undefined;
  metaSchema ??= openrpcMetaSchema();
  return structuredClone(metaSchema);
}
