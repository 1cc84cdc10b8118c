/**
 * The C-Chain's EVM state before its engine exists, for the atomic txs' verification (./atomic.ts), so that a tx
 * refused on a chain nothing has touched yet needs neither EDR nor a chain built.
 */
import type { EvmView } from './atomic.ts';
import { FeeRules } from './fees.ts';
import { cGenesis } from './genesis.ts';
import type { World } from '../world/world.ts';

/**
 * The EVM state a new engine would start from (./evm.ts `create`), read without creating one: when the world holds no
 * C-Chain history for it to replay (blocks, edits outside txs, pending txs) and no fork to read from, the genesis
 * (./genesis.ts), nonces 0, and the base fee of a block built at once on a genesis at the world's time (or the saved
 * genesis's). Undefined when the engine must be asked.
 */
export function genesisView(world: World, release: string | undefined): EvmView | undefined {
  if (world.fork || world.indexes['C/block'].length > 0 || world.cChainEdits.length > 0 || world.cChainPool.size > 0)
    return undefined;
  const rules = new FeeRules(world, release);
  const time = world.preForkGenesis.get('C')?.timestamp ?? world.time.get();
  // Only a tx that passed every other check reads a balance: most refusals never derive the funded accounts' keys.
  let balances: Map<string, bigint> | undefined;
  return {
    baseFee: rules.nextBaseFee(rules.genesis(time), time),
    balance: (address) =>
      (balances ??= new Map(cGenesis(world).alloc.map((a) => [a.address, a.balance]))).get(address) ?? 0n,
    nonce: () => 0n,
  };
}
