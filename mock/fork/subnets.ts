/**
 * A subnet in full: its owner with its locktime, its conversion to an L1, its legacy and L1 validators, and the
 * delegators of its permissionless validators (a subnet transformed before Etna has them, as the Primary Network has).
 */
import { EMPTY_ID } from '../world/networks.ts';
import type { Staker } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Clients } from './clients.ts';
import { l1ValidatorFrom, ownerFrom, stakerFrom } from './convert.ts';
import { delegatorsOf } from './stakers.ts';
import { ask, refusedBySource } from './walk.ts';

type Json = Record<string, unknown>;

export type SubnetDetails = Awaited<ReturnType<typeof subnetDetails>>;

/** The subnet as the source serves it, less the stakers added by the transactions in `later` (after the fork point). */
export async function subnetDetails(c: Clients, id: string, later: ReadonlySet<string>) {
  const [subnet, answer] = await Promise.all([
    c.p.getSubnet({ subnetID: id }) as unknown as Promise<Json>,
    c.p.getCurrentValidators({ subnetID: id }) as unknown as Promise<Json>,
  ]);
  // An L1 validator has no txID (its validation ID names no transaction): kept as the source holds it.
  const validators = (answer.validators as Json[]).filter((v) => v.txID === undefined || !later.has(String(v.txID)));
  const legacy = validators.filter((v) => v.validationID === undefined);
  return { id, subnet, validators, delegators: await delegatorsOf(c, legacy, id, later) };
}

/** The subnet set in the world; the stakers it forked are the answer. */
export function applySubnet(world: World, { id, subnet, validators, delegators }: SubnetDetails): Staker[] {
  const owner = ownerFrom({ addresses: subnet.controlKeys, threshold: subnet.threshold, locktime: subnet.locktime });
  const converted = subnet.isPermissioned === false && String(subnet.conversionID ?? EMPTY_ID) !== EMPTY_ID;
  world.subnets.set(id, {
    id,
    owner: owner ?? { locktime: 0n, threshold: 0, addresses: [] },
    ...(converted
      ? {
          conversion: {
            chainID: String(subnet.managerChainID),
            address: String(subnet.managerAddress ?? ''),
            conversionID: String(subnet.conversionID),
          },
        }
      : {}),
  });
  const stakers: Staker[] = [...delegators];
  for (const v of validators) {
    if (v.validationID !== undefined) {
      const l1 = l1ValidatorFrom(v, id);
      world.l1Validators.set(l1.validationID, l1);
    } else {
      stakers.push(stakerFrom(v, id));
    }
  }
  for (const staker of stakers) world.stakers.set(staker.txID, staker);
  return stakers;
}

/** Whether the source accepted the P-Chain transaction `id` (the caller rules out those after the fork point). */
export async function isPTxAtSource(c: Clients, id: string): Promise<boolean> {
  try {
    await ask(c.p, 'getTx', { txID: id, encoding: 'hex' });
    return true;
  } catch (error) {
    if (refusedBySource(error)) return false;
    throw error;
  }
}
