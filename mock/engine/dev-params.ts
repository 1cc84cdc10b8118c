/**
 * The params of the development controls, checked before anything changes: numbers within uint64, addresses of this
 * network, owners as the codec takes them.
 */
import { bech32Decode } from '../../generators/formats.ts';
import type { Owner, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';

export const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;

/** A Uint64Param: a decimal string or a bare non-negative integer, within uint64 as the node's JSON decoder reads it. */
export const uint = (value: unknown, name: string): bigint => {
  const parsed =
    (typeof value === 'string' && /^\d{1,20}$/.test(value)) ||
    (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
      ? BigInt(value)
      : undefined;
  if (parsed === undefined || parsed > MAX_UINT64)
    throw new Error(`${name} must be an unsigned 64-bit integer, not ${JSON.stringify(value)}`);
  return parsed;
};

/** An `X-…`/`P-…` address of this network: its chain and owner (40-hex short ID). */
export function addressOf(world: World, value: unknown): { chain: UtxoChain; owner: string } {
  const address = String(value ?? '');
  const dash = address.indexOf('-');
  const chain = address.slice(0, dash) as UtxoChain;
  const decoded = bech32Decode(address.slice(dash + 1));
  if ((chain !== 'X' && chain !== 'P') || !decoded || decoded.payload.length !== 20)
    throw new Error(`${JSON.stringify(address)} is not an X- or P-Chain address`);
  if (decoded.hrp !== world.network.hrp)
    throw new Error(`address ${address} is not on this network: its HRP is not ${world.network.hrp}`);
  return { chain, owner: Buffer.from(decoded.payload).toString('hex') };
}

/** The `assetID` param of an asset this world has: its ID or an alias, AVAX when absent. */
export function assetOf(world: World, value: unknown): string {
  const asked = typeof value === 'string' ? value : undefined;
  const assetID = asked === undefined ? world.network.avaxAssetID : (world.assetAliases.get(asked) ?? asked);
  if (!world.assets.has(assetID)) throw new Error(`asset '${asked}' not found`);
  return assetID;
}

/** secp256k1fx OutputOwners from addresses (sorted and unique, as the codec requires), a threshold and a locktime. */
export function ownerOf(world: World, p: Record<string, unknown>): Owner {
  if (!Array.isArray(p.addresses) || p.addresses.length === 0) throw new Error('addresses must list one or more');
  const addresses = [...new Set(p.addresses.map((a) => addressOf(world, a).owner))].sort();
  const threshold = p.threshold === undefined ? 1 : Number(uint(p.threshold, 'threshold'));
  if (threshold < 1 || threshold > addresses.length)
    throw new Error(`threshold ${threshold} must be from 1 to the ${addresses.length} addresses`);
  return { locktime: p.locktime === undefined ? 0n : uint(p.locktime, 'locktime'), threshold, addresses };
}
