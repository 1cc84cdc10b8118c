/**
 * `eth_getChainConfig` (coreth internal/ethapi/api_extra.go): go-ethereum's params.ChainConfig as coreth fills it
 * (params/config_extra.go SetEthUpgrades: the Ethereum forks to Muir Glacier at block 0, the DAO fork supported;
 * Berlin and London at AP2's and AP3's activation blocks on Fuji and Mainnet, at 0 where they were initially active;
 * Shanghai at Durango, Cancun at Etna), with coreth's extras at the root (params/extras/network_upgrades.go
 * GetNetworkUpgrades: every upgrade of the network's schedule as a Unix timestamp, unscheduled ones at
 * 9999-12-01T00:00:00Z as the node writes them). A release writes the fields of the upgrades its coreth knows
 * (etnaTimestamp since coreth v0.13.8, AvalancheGo v1.11.12; fortunaTimestamp since v1.13.0; graniteTimestamp since
 * coreth v0.15.1, v1.13.1; heliconTimestamp since v1.14.1), and an upgrade whose rules it does not apply yet (Etna in
 * v1.11.12 and v1.11.13, Granite in v1.13.x, Helicon before v1.15.0-fuji) as unscheduled.
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { upgradeTime } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';
import { RULES_SINCE } from './rules.ts';
import { cChainIDOf } from './genesis.ts';

const UPGRADES: ReadonlyArray<readonly [upgrade: string, field: string]> = [
  ['apricotPhase1', 'apricotPhase1BlockTimestamp'],
  ['apricotPhase2', 'apricotPhase2BlockTimestamp'],
  ['apricotPhase3', 'apricotPhase3BlockTimestamp'],
  ['apricotPhase4', 'apricotPhase4BlockTimestamp'],
  ['apricotPhase5', 'apricotPhase5BlockTimestamp'],
  ['apricotPhasePre6', 'apricotPhasePre6BlockTimestamp'],
  ['apricotPhase6', 'apricotPhase6BlockTimestamp'],
  ['apricotPhasePost6', 'apricotPhasePost6BlockTimestamp'],
  ['banff', 'banffBlockTimestamp'],
  ['cortina', 'cortinaBlockTimestamp'],
  ['durango', 'durangoBlockTimestamp'],
  ['etna', 'etnaTimestamp'],
  ['fortuna', 'fortunaTimestamp'],
  ['granite', 'graniteTimestamp'],
  ['helicon', 'heliconTimestamp'],
];

/** The first release whose chain config has the upgrade's field (coreth's params.NetworkUpgrades). */
const FIELD_SINCE: Readonly<Record<string, string>> = {
  ...RULES_SINCE,
  durango: 'v1.10.0',
  etna: 'v1.11.12',
  granite: 'v1.13.1',
  helicon: 'v1.14.1',
};

/** upgrade.UnscheduledActivationTime. */
const UNSCHEDULED = Date.parse('9999-12-01T00:00:00Z') / 1000;
/** upgrade.InitiallyActiveTime. */
const INITIALLY_ACTIVE = Date.parse('2020-12-05T05:00:00Z') / 1000;

/** The AP2 (Berlin) and AP3 (London) activation blocks coreth hard-codes for Fuji and Mainnet. */
const ETH_BLOCKS: Record<string, { berlinBlock: number; londonBlock: number }> = {
  fuji: { berlinBlock: 184985, londonBlock: 805078 },
  mainnet: { berlinBlock: 1640340, londonBlock: 3308552 },
};

const before = (release: string | undefined, since: string | undefined) =>
  release !== undefined && since !== undefined && compareVersions(release, since) < 0;

export function chainConfig(world: World, release?: string): Record<string, number | boolean> {
  const upgrades = UPGRADES.filter(([upgrade]) => !before(release, FIELD_SINCE[upgrade]));
  const times = Object.fromEntries(
    upgrades.map(([upgrade]) => [
      upgrade,
      before(release, RULES_SINCE[upgrade]) ? UNSCHEDULED : Date.parse(upgradeTime(world, upgrade)) / 1000,
    ]),
  );
  const initially = (upgrade: string) => (times[upgrade]! <= INITIALLY_ACTIVE ? 0 : undefined);
  const ethereum: Record<string, number | boolean | undefined> = {
    chainId: Number(cChainIDOf(world)),
    homesteadBlock: 0,
    daoForkBlock: 0,
    daoForkSupport: true,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    berlinBlock: ETH_BLOCKS[world.network.name]?.berlinBlock ?? initially('apricotPhase2'),
    londonBlock: ETH_BLOCKS[world.network.name]?.londonBlock ?? initially('apricotPhase3'),
    shanghaiTime: times.durango! < UNSCHEDULED ? times.durango : undefined,
    cancunTime: (times.etna ?? UNSCHEDULED) < UNSCHEDULED ? times.etna : undefined,
  };
  const config: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(ethereum)) if (value !== undefined) config[key] = value;
  for (const [upgrade, field] of upgrades) config[field] = times[upgrade]!;
  return config;
}
