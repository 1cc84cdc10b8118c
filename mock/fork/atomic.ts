/**
 * Shared memory at the fork point: the UTXOs another chain exported to X, P or C that are not imported yet, read an
 * owner at a time (the first `getUTXOs` with `sourceChain` naming it, or an import spending one of theirs). Those
 * the source's chain exported after the fork point are left out; a UTXO once taken is never put back.
 */
import { bech32Encode } from '../../generators/formats.ts';
import type { UtxoChain } from '../world/types.ts';
import { type World, atomicKey } from '../world/world.ts';
import type { Clients } from './clients.ts';
import type { LaterBlocks } from './later.ts';
import { utxosAt } from './walk.ts';

export class SharedMemory {
  private readonly world: World;
  private readonly cached: Clients;
  private readonly later: LaterBlocks;
  private readonly unjournaled: (change: () => void) => void;
  private readonly loads = new Map<string, Promise<void>>();
  private readonly taken = new Set<string>();

  constructor(world: World, cached: Clients, later: LaterBlocks, unjournaled: (change: () => void) => void) {
    this.world = world;
    this.cached = cached;
    this.later = later;
    this.unjournaled = unjournaled;
  }

  /** An owner's UTXOs that the chain `sourceChain` (an ID) exported to `chain`, once. */
  load(chain: UtxoChain | 'C', sourceChain: string, owner: string): Promise<void> {
    const id = `${chain}:${sourceChain}:${owner}`;
    let load = this.loads.get(id);
    if (!load) {
      load = this.fetch(chain, sourceChain, owner);
      this.loads.set(id, load);
      load.catch(() => this.loads.delete(id));
    }
    return load;
  }

  private async fetch(chain: UtxoChain | 'C', sourceChain: string, owner: string): Promise<void> {
    const address = `${chain}-${bech32Encode(this.world.network.hrp, Buffer.from(owner, 'hex'))}`;
    const utxos = await utxosAt(this.cached, chain, address, sourceChain);
    const { X, P } = this.world.chainIDs;
    const from: UtxoChain | undefined = sourceChain === X ? 'X' : sourceChain === P ? 'P' : undefined;
    const later = from ? await this.later.ids(from) : new Set<string>();
    const destinationChain = this.world.chainIDs[chain];
    this.unjournaled(() => {
      for (const utxo of utxos) {
        const key = atomicKey(destinationChain, utxo.key);
        if (later.has(utxo.txID) || this.taken.has(key)) continue;
        this.taken.add(key);
        this.world.atomic.set(key, { ...utxo, sourceChain, destinationChain });
      }
    });
  }
}
