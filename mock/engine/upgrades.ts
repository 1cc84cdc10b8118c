/**
 * Transaction types by the network upgrade that brought them: a release whose codec predates a type cannot parse it,
 * and a type is refused before the world's chain time reaches its upgrade (the network's schedule, as
 * `info.upgrades` reports it). The L1 types (Etna) are gated in ./l1.ts, after the warp check that comes first.
 */
import { compareVersions } from '../../generators/model/versions.ts';
import { upgradeActive } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';
import type { DecodedTx } from './codec.ts';
import { Refusal } from './refusals.ts';

/** vms/platformvm/txs/codec.go: RegisterEtnaTypes (type IDs 35-39) and RegisterHeliconTypes (40-42). */
const CODEC_TYPES = [
  { first: 35, last: 39, since: 'v1.11.13' },
  { first: 40, last: 42, since: 'v1.15.0-fuji' },
];

/** standard_tx_executor.go BaseTx and staker_tx_verification.go, each upgrade's check first. */
const GATED: Record<string, 'durango' | 'helicon'> = {
  'pvm.BaseTx': 'durango',
  'pvm.TransferSubnetOwnershipTx': 'durango',
  'pvm.AddAutoRenewedValidatorTx': 'helicon',
  'pvm.SetAutoRenewedValidatorConfigTx': 'helicon',
};

const UPGRADE_TEXTS = {
  // vms/platformvm/txs/executor/staker_tx_verification.go, standard_tx_executor.go
  durango: 'attempting to use a Durango-upgrade feature prior to activation',
  helicon: 'attempting to use a Helicon-upgrade feature prior to activation',
} as const;

/**
 * A release's codec answers a type it does not register unknown; service.go and txs.Parse both wrap the error.
 * (v1.11.12's ConvertSubnetTx, type 35 with another layout, is taken as unknown too.)
 */
export function unknownToRelease(nodeVersion: string | undefined, bytes: Uint8Array): void {
  if (!nodeVersion || bytes.length < 6) return;
  const type = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32BE(2);
  const range = CODEC_TYPES.find((r) => type >= r.first && type <= r.last);
  if (range && compareVersions(nodeVersion, range.since) < 0)
    throw new Refusal(`couldn't parse tx: couldn't parse tx: couldn't unmarshal interface: unknown type ID ${type}`);
}

export function requireUpgrade(world: World, decoded: DecodedTx): void {
  const upgrade = GATED[decoded.tx._type as string];
  if (upgrade && !upgradeActive(world, upgrade, world.time.get())) throw new Refusal(UPGRADE_TEXTS[upgrade]);
}

/** Before v1.12.0 (Etna) the P-Chain's fees were static (vms/platformvm/txs/fee/static_calculator.go, removed since). */
export function staticFeeRelease(nodeVersion: string | undefined): boolean {
  return nodeVersion !== undefined && compareVersions(nodeVersion, 'v1.12.0') < 0;
}

/**
 * Before v1.11.13 platform.issueTx answered the executor's error wrapped by service.go alone: #3525 and #3536 added
 * "standard tx <ID> failed execution", "failed execution" and "failed verification" (./refusals.ts pIssue).
 */
export function bareRefusalRelease(nodeVersion: string | undefined): boolean {
  return nodeVersion !== undefined && compareVersions(nodeVersion, 'v1.11.13') < 0;
}
