/**
 * Which network upgrades' rules the C-Chain of a release applies: those its coreth has (from the release whose go.mod
 * first requires a coreth with them) once the network's schedule reaches them; the newest release's when undefined.
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { upgradeActive } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';

/** The release whose coreth first has an upgrade's rules; the ones not listed are older than every release emulated. */
export const RULES_SINCE: Readonly<Record<string, string>> = {
  durango: 'v1.11.0',
  etna: 'v1.12.0',
  fortuna: 'v1.13.0',
  granite: 'v1.14.0',
  helicon: 'v1.15.0-fuji',
};

/** By release and upgrade: whether the release's coreth has the upgrade's rules (every block asks several times). */
const releaseHas = new Map<string, boolean>();

/** Whether the C-Chain applies `upgrade`'s rules at `time`: the release has them and the network's schedule is there. */
export function ruleActive(world: World, release: string | undefined, upgrade: string, time: bigint): boolean {
  const since = RULES_SINCE[upgrade];
  if (release && since) {
    const key = `${release} ${upgrade}`;
    let has = releaseHas.get(key);
    if (has === undefined) releaseHas.set(key, (has = compareVersions(release, since) >= 0));
    if (!has) return false;
  }
  return upgradeActive(world, upgrade, time);
}
