/**
 * Transaction types a network upgrade introduced, refused before the world's chain time reaches that upgrade's time
 * (the network's schedule, as `info.upgrades` reports it). The L1 types (Etna) are gated in ./l1.ts, after the warp
 * check that comes first for two of them.
 */
import { upgradeActive } from '../world/reads-info.ts';
import type { World } from '../world/world.ts';
import type { DecodedTx } from './codec.ts';
import { Refusal } from './refusals.ts';

/** vms/platformvm/txs/executor/standard_tx_executor.go BaseTx, staker_tx_verification.go TransferSubnetOwnershipTx. */
const DURANGO_TYPES = new Set(['pvm.BaseTx', 'pvm.TransferSubnetOwnershipTx']);

export const UPGRADE_TEXTS = {
  // vms/platformvm/txs/executor/staker_tx_verification.go
  durangoNotActive: 'attempting to use a Durango-upgrade feature prior to activation',
} as const;

export function requireUpgrade(world: World, decoded: DecodedTx): void {
  if (DURANGO_TYPES.has(decoded.tx._type) && !upgradeActive(world, 'durango', world.time.get()))
    throw new Refusal(UPGRADE_TEXTS.durangoNotActive);
}
