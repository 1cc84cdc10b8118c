/**
 * platform.getAllValidatorsAt (vms/platformvm/service.go): every Subnet's and L1's validator set at a height, in the
 * canonical form Warp checks signatures against (snow/validators/warp.go FlattenValidatorSet): validators merged by
 * BLS public key, sorted by the key's uncompressed bytes, with the whole set's weight.
 */
import { EMPTY_ID } from './networks.ts';
import { type Params, heightOf } from './reads.ts';
import { validatorSet } from './stakers.ts';
import type { World } from './world.ts';

/**
 * A compressed G1 key's x coordinate, big-endian: its first byte's top three bits are flags, which the uncompressed
 * form clears, so keys sort by their uncompressed bytes as by this.
 */
const xOf = (compressed: string) => {
  const bytes = Buffer.from(compressed.slice(2), 'hex');
  bytes[0]! &= 0x1f;
  return bytes;
};

export function allValidatorsAt(world: World, params: Params<'height'>) {
  const tip = world.tip('P').height;
  // The mock's proposer height is its last accepted height, as platform.getProposedHeight answers.
  const requested = params.height === 'proposed' ? BigInt(tip) : heightOf(params);
  if (requested > BigInt(tip))
    throw new Error(
      `failed to get validator sets at ${requested}: failed to fetch validator set at unfinalized height: ` +
        `current P-chain height (${tip}) < requested P-Chain height (${requested})`,
    );
  const height = Number(requested);
  const validatorSets: Record<
    string,
    { validators: { publicKey: string; weight: string; nodeIDs: string[] }[]; totalWeight: string }
  > = {};
  for (const subnetID of [EMPTY_ID, ...world.subnets.keys()]) {
    const set = validatorSet(world, subnetID, height);
    if (set.length === 0) continue;
    const byKey = new Map<string, { publicKey: string; weight: bigint; nodeIDs: string[] }>();
    for (const { nodeID, publicKey, weight } of set) {
      if (!publicKey) continue;
      const entry = byKey.get(publicKey) ?? { publicKey, weight: 0n, nodeIDs: [] };
      entry.weight += weight;
      entry.nodeIDs.push(nodeID);
      byKey.set(publicKey, entry);
    }
    const validators = [...byKey.values()]
      .sort((a, b) => Buffer.compare(xOf(a.publicKey), xOf(b.publicKey)))
      .map((v) => ({ publicKey: v.publicKey, weight: String(v.weight), nodeIDs: v.nodeIDs }));
    validatorSets[subnetID] = { validators, totalWeight: String(set.reduce((sum, v) => sum + v.weight, 0n)) };
  }
  return { validatorSets };
}
