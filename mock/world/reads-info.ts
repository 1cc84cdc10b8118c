/**
 * The Info API's answers that depend on the network (api/info/service.go): its ID and name, the static fees of the
 * deprecated `info.getTxFee`, the upgrade schedule (upgrade/upgrade.go), and each release's RPCChainVM protocol and
 * VM versions. The node-level answers (node ID, version, peers, chains' aliases) stay in ../state.ts.
 */
import { compareVersions } from '../../generators/common/versions.ts';
import { corethVersion } from '../cchain/coreth-version.ts';
import { RELEASE_COMMITS } from './release-commits.ts';
import type { World } from './world.ts';

const MILLI = 1_000_000n;
const AVAX = 1_000_000_000n;

/** The P-Chain's static fees `info.getTxFee` still reports: mainnetGetTxFeeResponse, fuji…, default… (service.go). */
const STATIC_FEES: Record<string, { createSubnet: bigint; transformSubnet: bigint; createBlockchain: bigint }> = {
  mainnet: { createSubnet: AVAX, transformSubnet: 10n * AVAX, createBlockchain: AVAX },
  fuji: { createSubnet: 100n * MILLI, transformSubnet: AVAX, createBlockchain: 100n * MILLI },
  local: { createSubnet: 100n * MILLI, transformSubnet: 100n * MILLI, createBlockchain: 100n * MILLI },
};

const INITIALLY_ACTIVE = '2020-12-05T05:00:00Z';
const UNSCHEDULED = '9999-12-01T00:00:00Z';
const at = (y: number, mo: number, d: number, h: number, mi = 0) =>
  new Date(Date.UTC(y, mo - 1, d, h, mi)).toISOString().replace('.000Z', 'Z');

/** upgrade.Mainnet, upgrade.Fuji and upgrade.Default (every other network ID), as `info.upgrades` encodes them. */
/** The same time for each upgrade named: `{ <name>Time: at }`. */
const allAt = <N extends string>(names: readonly N[], at: string) =>
  Object.fromEntries(names.map((name) => [`${name}Time`, at])) as Record<`${N}Time`, string>;

const UPGRADES = {
  mainnet: {
    apricotPhase1Time: at(2021, 3, 31, 14),
    apricotPhase2Time: at(2021, 5, 10, 11),
    apricotPhase3Time: at(2021, 8, 24, 14),
    apricotPhase4Time: at(2021, 9, 22, 21),
    apricotPhase4MinPChainHeight: 793005,
    apricotPhase5Time: at(2021, 12, 2, 18),
    apricotPhasePre6Time: at(2022, 9, 5, 1, 30),
    apricotPhase6Time: at(2022, 9, 6, 20),
    apricotPhasePost6Time: at(2022, 9, 7, 3),
    banffTime: at(2022, 10, 18, 16),
    cortinaTime: at(2023, 4, 25, 15),
    cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
    durangoTime: at(2024, 3, 6, 16),
    etnaTime: at(2024, 12, 16, 17),
    fortunaTime: at(2025, 4, 8, 15),
    graniteTime: at(2025, 11, 19, 16),
    graniteEpochDuration: 300_000_000_000,
    heliconTime: UNSCHEDULED,
  },
  fuji: {
    apricotPhase1Time: at(2021, 3, 26, 14),
    apricotPhase2Time: at(2021, 5, 5, 14),
    apricotPhase3Time: at(2021, 8, 16, 19),
    apricotPhase4Time: at(2021, 9, 16, 21),
    apricotPhase4MinPChainHeight: 47437,
    apricotPhase5Time: at(2021, 11, 24, 15),
    apricotPhasePre6Time: at(2022, 9, 6, 20),
    apricotPhase6Time: at(2022, 9, 6, 20),
    apricotPhasePost6Time: at(2022, 9, 7, 6),
    banffTime: at(2022, 10, 3, 14),
    cortinaTime: at(2023, 4, 6, 15),
    cortinaXChainStopVertexID: '2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ',
    durangoTime: at(2024, 2, 13, 16),
    etnaTime: at(2024, 11, 25, 16),
    fortunaTime: at(2025, 3, 13, 15),
    graniteTime: at(2025, 10, 29, 15),
    graniteEpochDuration: 300_000_000_000,
    heliconTime: UNSCHEDULED,
  },
  local: {
    ...allAt(['apricotPhase1', 'apricotPhase2', 'apricotPhase3', 'apricotPhase4'], INITIALLY_ACTIVE),
    apricotPhase4MinPChainHeight: 0,
    ...allAt(
      ['apricotPhase5', 'apricotPhasePre6', 'apricotPhase6', 'apricotPhasePost6', 'banff', 'cortina'],
      INITIALLY_ACTIVE,
    ),
    cortinaXChainStopVertexID: '11111111111111111111111111111111LpoYY',
    ...allAt(['durango', 'etna', 'fortuna', 'granite'], INITIALLY_ACTIVE),
    graniteEpochDuration: 30_000_000_000,
    heliconTime: UNSCHEDULED,
  },
} satisfies Record<string, Record<string, string | number>>;

/** The upgrade schedule of the world's network: the local one for any network but Mainnet and Fuji. */
const upgradesOf = (world: World): Record<string, string | number> & (typeof UPGRADES)[keyof typeof UPGRADES] =>
  UPGRADES[world.network.name in UPGRADES ? (world.network.name as keyof typeof UPGRADES) : 'local'];

/** When the network's upgrade `name` (`durango`, `etna`, …) activates, as `info.upgrades` writes it. */
export function upgradeTime(world: World, name: string): string {
  const at = upgradesOf(world)[`${name}Time`];
  if (typeof at !== 'string') throw new Error(`no upgrade named ${name}`);
  return at;
}

/** A number of the network's upgrade config (`graniteEpochDuration`, `apricotPhase4MinPChainHeight`), as `info.upgrades` has it. */
export function upgradeNumber(world: World, key: string): bigint {
  const value = upgradesOf(world)[key];
  if (typeof value !== 'number') throw new Error(`no upgrade number named ${key}`);
  return BigInt(value);
}

/** Each upgrade time's text in Unix seconds: every block a chain builds asks which upgrades are active. */
const upgradeSeconds = new Map<string, bigint>();

/** Whether the network's upgrade `name` (`durango`, `etna`, …) is active at `time` (Unix seconds). */
export function upgradeActive(world: World, name: string, time: bigint): boolean {
  const at = upgradesOf(world)[`${name}Time`];
  if (typeof at !== 'string') return false;
  let seconds = upgradeSeconds.get(at);
  if (seconds === undefined) upgradeSeconds.set(at, (seconds = BigInt(Date.parse(at) / 1000)));
  return seconds <= time;
}

/**
 * The RPCChainVM protocol (version/constants.go `RPCChainVMProtocol`) from each release on, as
 * version/compatibility.json of v1.15.0-fuji lists the releases of each.
 */
const PROTOCOL_SINCE: ReadonlyArray<readonly [string, number]> = [
  ['v1.9.0', 17],
  ['v1.9.1', 18],
  ['v1.9.2', 19],
  ['v1.9.4', 20],
  ['v1.9.5', 21],
  ['v1.9.6', 22],
  ['v1.9.9', 23],
  ['v1.9.10', 24],
  ['v1.10.0', 25],
  ['v1.10.1', 26],
  ['v1.10.5', 27],
  ['v1.10.9', 28],
  ['v1.10.13', 29],
  ['v1.10.15', 30],
  ['v1.10.18', 31],
  ['v1.11.0', 33],
  ['v1.11.2', 34],
  ['v1.11.3', 35],
  ['v1.11.10', 36],
  ['v1.11.11', 37],
  ['v1.11.13', 38],
  ['v1.12.2', 39],
  ['v1.13.1', 40],
  ['v1.13.2', 41],
  ['v1.13.3', 42],
  ['v1.13.4', 43],
  ['v1.14.0', 44],
  ['v1.14.2', 45],
  ['v1.15.0-fuji', 46],
];

/** `rpcProtocolVersion` of `info.getNodeVersion` in release `release`. */
function rpcProtocolVersion(release: string): string {
  let protocol = PROTOCOL_SINCE[0]![1];
  for (const [first, number] of PROTOCOL_SINCE) if (compareVersions(release, first) >= 0) protocol = number;
  return String(protocol);
}

/** `x.y.z` of release `release` (`v1.15.0-fuji` is 1.15.0): version/constants.go's `Current` has numbers only. */
const numbersOf = (release: string) => release.replace(/^v|-.*$/g, '');

/**
 * `vmVersions` of `info.getNodeVersion` in release `release` (`v1.14.2`): what each VM's `Version` answered when
 * vms/manager.go registered it. The avm and platformvm answer `version.Current.String()`: `v1.14.0` while Current was a
 * version.Semantic, `avalanchego/1.14.1` since v1.14.1 made it a version.Application. The evm answered coreth's own
 * version (plugin/evm/version.go, the coreth of the release's go.mod; still `v0.15.4` in v1.14.1, which grafted
 * coreth into graft/coreth) until v1.14.2, where it answers `version.Current.Semantic()`, the node's `v1.14.2`.
 */
function vmVersions(release: string): { avm: string; evm: string; platform: string } {
  const numbers = numbersOf(release);
  const own = compareVersions(release, 'v1.14.1') < 0 ? `v${numbers}` : `avalanchego/${numbers}`;
  const evm = compareVersions(release, 'v1.14.2') < 0 ? corethVersion(release) : `v${numbers}`;
  return { avm: own, evm, platform: own };
}

/**
 * What `info.getNodeVersion` reports of release `release` (api/info/service.go): the node's version.Application as a
 * string, the RPCChainVM protocol, the commit the release was built from (empty for a release with no tag, as a binary
 * built without one reports) and its VMs' versions. The Application's String wrote `avalanche/x.y.z` until v1.10.18
 * gave it the `avalanchego` name; a Fuji-only release (`v1.15.0-fuji`) names itself by its numbers alone.
 */
export function nodeVersionOf(release: string) {
  const client = compareVersions(release, 'v1.10.18') < 0 ? 'avalanche' : 'avalanchego';
  return {
    version: `${client}/${numbersOf(release)}`,
    rpcProtocolVersion: rpcProtocolVersion(release),
    gitCommit: RELEASE_COMMITS[release] ?? '',
    vmVersions: vmVersions(release),
  };
}

export function infoReads(world: World) {
  const network = world.network.name in STATIC_FEES ? world.network.name : 'local';
  const fees = STATIC_FEES[network]!;
  return {
    getNetworkID: () => ({ networkID: String(world.network.networkID) }),
    getNetworkName: () => ({ networkName: world.network.networkName }),
    getTxFee: () => ({
      txFee: String(world.config.txFee),
      createAssetTxFee: String(world.config.createAssetTxFee),
      createSubnetTxFee: String(fees.createSubnet),
      transformSubnetTxFee: String(fees.transformSubnet),
      createBlockchainTxFee: String(fees.createBlockchain),
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: String(MILLI),
      addSubnetDelegatorFee: String(MILLI),
    }),
    upgrades: () => ({ ...upgradesOf(world) }),
  };
}
