/**
 * `eth_getChainConfig` (coreth internal/ethapi/api_extra.go): go-ethereum's params.ChainConfig as coreth fills it
 * (params/config_extra.go SetEthUpgrades: the Ethereum forks to Muir Glacier at block 0, the DAO fork supported;
 * Berlin and London at AP2's and AP3's activation blocks on Fuji and Mainnet, at 0 where they were initially active;
 * Shanghai at Durango, Cancun at Etna), with coreth's extras at the root (params/extras/network_upgrades.go
 * GetNetworkUpgrades: every upgrade of the network's schedule as a Unix timestamp, unscheduled ones at
 * 9999-12-01T00:00:00Z as the node writes them). A release writes the fields of the upgrades its coreth knows, which
 * the C-Chain document's ChainConfig says field by field (`x-node-versions`) and the model cuts the answer to, as it
 * cuts every endpoint's; an upgrade whose rules the release does not apply yet (./rules.ts: Etna before v1.12.0,
 * Granite in v1.13.x, Helicon before v1.15.0-fuji) it writes as unscheduled. Until v1.13.1 Shanghai and Cancun are set
 * whether Durango and Etna are scheduled or not; before v1.11.11 coreth wrote its own tables (`legacyConfig`).
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { atRelease } from '../versions.ts';
import { upgradeTime } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';
import { RULES_SINCE } from './rules.ts';
import { cChainIDOf } from './genesis.ts';
import { cChainModel } from '../spec.ts';

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

/** The "not scheduled" time of avalanchego's version maps before v1.11.11: 10000-12-01T00:00:00Z. */
const LEGACY_UNSCHEDULED = Date.UTC(10000, 11, 1) / 1000;
/** params: the EIP-150 hash every network's config carried until coreth v0.12.5 (AvalancheGo v1.10.7). */
const EIP150_HASH = '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0';

/** `eth_getChainConfig` of release `release` (the newest when undefined): today's fields, cut to the release's. */
export async function chainConfig(world: World, release?: string): Promise<unknown> {
  const config = currentConfig(world, release);
  if (!release) return config;
  const spec = await cChainModel();
  const method = spec.endpoints[0]!.methods.find((m) => m.name === 'eth_getChainConfig')!;
  return atRelease(spec, method, release, () => config)({});
}

/** Every field coreth writes today, with the upgrades' times as release `release` has them. */
function currentConfig(world: World, release?: string): Record<string, number | boolean | string> {
  if (before(release, 'v1.11.11')) return legacyConfig(world, release!);
  const times = Object.fromEntries(
    UPGRADES.map(([upgrade]) => [
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
    // Until v1.13.0 SetEthUpgrades copied Durango's and Etna's times whether scheduled or not.
    shanghaiTime: times.durango! < UNSCHEDULED || before(release, 'v1.13.1') ? times.durango : undefined,
    cancunTime: times.etna! < UNSCHEDULED || before(release, 'v1.13.1') ? times.etna : undefined,
  };
  const config: Record<string, number | boolean | string> = {};
  for (const [key, value] of Object.entries(ethereum)) if (value !== undefined) config[key] = value;
  for (const [upgrade, field] of UPGRADES) config[field] = times[upgrade]!;
  return config;
}

/**
 * The config of a release before v1.11.11, whose coreth filled the upgrades from its own tables (params/config.go;
 * from v1.10.19 getChainConfig over avalanchego's version maps), not from the node's schedule: on any network but
 * Fuji and Mainnet every upgrade it names at 0; on those two their times, Cortina from v1.10.0, Durango (the
 * D upgrade until v1.10.18, set on neither) from v1.10.19, at 10000-12-01 until v1.11.0 scheduled it, and v1.11.10's E
 * upgrade at 10000-12-01. No Berlin, London, Shanghai or Cancun: SetEthUpgrades came with v1.11.11.
 */
function legacyConfig(world: World, release: string): Record<string, number | boolean | string> {
  const local = !(world.network.name in ETH_BLOCKS);
  const at = (upgrade: string) => (local ? 0 : Date.parse(upgradeTime(world, upgrade)) / 1000);
  const since = (version: string) => !before(release, version);
  const config: Record<string, number | boolean | string> = {
    chainId: Number(cChainIDOf(world)),
    homesteadBlock: 0,
    daoForkBlock: 0,
    daoForkSupport: true,
    eip150Block: 0,
    eip150Hash: EIP150_HASH,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
  };
  for (const [upgrade, field] of UPGRADES.slice(
    0,
    UPGRADES.findIndex(([name]) => name === 'cortina'),
  ))
    config[field] = at(upgrade);
  if (since('v1.10.0')) config.cortinaBlockTimestamp = at('cortina');
  if (local && since('v1.10.3') && !since('v1.10.18')) config.dUpgradeBlockTimestamp = 0;
  if (local && since('v1.10.18')) config.durangoBlockTimestamp = 0;
  else if (since('v1.10.19')) config.durangoBlockTimestamp = since('v1.11.0') ? at('durango') : LEGACY_UNSCHEDULED;
  if (since('v1.11.10')) config.eUpgradeTime = local ? 0 : LEGACY_UNSCHEDULED;
  return config;
}
