/** The fork point in a world: each chain's tip block at its own height, and the funded keys' AVAX on top of it. */
import { cb58Encode } from '../../generators/formats.ts';
import { idOf, makeUtxo, sha256 } from '../world/codec.ts';
import { ACCOUNT_FUNDS } from '../world/genesis.ts';
import { EMPTY_ID } from '../world/networks.ts';
import type { Block, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';

type Json = Record<string, unknown>;

export function blockTime(json: Json): bigint {
  const block = (json.block ?? json) as Json;
  return BigInt(String(block.time ?? block.timestamp ?? 0));
}

export function blockOf(chain: UtxoChain, bytes: Uint8Array, height: number, timestamp: bigint, json: Json): Block {
  const block = (json.block ?? {}) as Json;
  return { id: idOf(bytes), chain, height, parentID: String(block.parentID ?? EMPTY_ID), timestamp, txIDs: [], bytes };
}

/** A record where no local block is: every height up to the fork point is read from the source, never from it. */
const BELOW_FORK = {
  id: '',
  chain: 'P',
  height: 0,
  parentID: EMPTY_ID,
  timestamp: 0n,
  txIDs: [],
  bytes: new Uint8Array(),
};

/** The source's tip block at its own height, so that local blocks continue from it. */
export function placeTip(world: World, chain: UtxoChain, block: Block): void {
  const log = world.blocks[chain];
  const below = { ...BELOW_FORK, chain } as Block;
  for (let h = 0; h < block.height; h++) log.push(below);
  log.push(block);
  world.blockIDs.set(block.id, block);
}

/** The funded keys (`accounts`, from the seed), each given its AVAX on X and P by the mock, as `dev.fund` does. */
export function fundAccounts(world: World, sourceUrl: string): void {
  for (const chain of ['X', 'P'] as const) {
    // A fork of a fork (with the same seed) starts from the same tips: the source's URL keeps the two fundings apart.
    const txID = cb58Encode(sha256(Buffer.from(`fork funding ${chain} ${world.tip(chain).id} ${sourceUrl}`)));
    world.accounts.forEach((account, outputIndex) => {
      const utxo = makeUtxo({
        txID,
        outputIndex,
        assetID: world.network.avaxAssetID,
        amount: ACCOUNT_FUNDS,
        owner: { locktime: 0n, threshold: 1, addresses: [account.address] },
        stakeableLocktime: 0n,
      });
      world.utxos[chain].set(utxo.key, utxo);
    });
  }
}
