/**
 * Shared memory at the fork point: the UTXOs another chain exported to X, P or C that are not imported yet, read an
 * owner at a time (the first `getUTXOs` with `sourceChain` naming it), or through the export transaction an import
 * spends (`getTx` on X or P, `avax.getAtomicTx` on C: every owner of its outputs is then read). Those the source
 * exported after the fork point are left out (on C: in a block above the C-Chain's fork block); a UTXO once taken is
 * never put back.
 */
import { bech32Encode } from '../../generators/formats.ts';
import { decodeAtomic } from '../cchain/atomic.ts';
import { decodeTx, keyOf } from '../engine/codec.ts';
import { txBytes } from '../engine/handlers.ts';
import type { UtxoChain } from '../world/types.ts';
import { type World, atomicKey } from '../world/world.ts';
import type { Clients } from './clients.ts';
import { hexBytes } from './convert.ts';
import type { LaterBlocks } from './later.ts';
import { inBatches } from './stakers.ts';
import { ask, collectOwners, fromSource, refusedBySource, utxosAt } from './walk.ts';

type Json = Record<string, unknown>;

export class SharedMemory {
  private readonly world: World;
  private readonly cached: Clients;
  private readonly later: LaterBlocks;
  /** The source's C-Chain block the fork's C-Chain starts from. */
  private readonly cHeight: () => Promise<bigint>;
  private readonly unjournaled: (change: () => void) => void;
  private readonly loads = new Map<string, Promise<void>>();
  private readonly taken = new Set<string>();

  constructor(
    world: World,
    cached: Clients,
    later: LaterBlocks,
    cHeight: () => Promise<bigint>,
    unjournaled: (change: () => void) => void,
  ) {
    this.world = world;
    this.cached = cached;
    this.later = later;
    this.cHeight = cHeight;
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

  /** The exports a C-Chain import (`avax.issueTx`) spends, before it is verified. */
  async loadImportOnC(p: Record<string, unknown>): Promise<void> {
    let atomic: ReturnType<typeof decodeAtomic>;
    try {
      atomic = decodeAtomic(txBytes(p));
    } catch {
      return; // the issue itself refuses it, in the node's words
    }
    const tx = atomic.tx as { sourceChain?: object; importedInputs?: unknown[] };
    if (atomic.kind === 'import' && tx.sourceChain && Array.isArray(tx.importedInputs))
      await this.loadImport('C', tx.sourceChain.toString(), tx.importedInputs);
  }

  /** The shared-memory UTXOs an import on `chain` spends that the world has not seen, each through its export. */
  loadImport(chain: UtxoChain | 'C', sourceChain: string, inputs: unknown[]): Promise<void> {
    const destination = this.world.chainIDs[chain];
    const missing = (inputs as Parameters<typeof keyOf>[0][]).filter(
      (input) => !this.world.atomic.has(atomicKey(destination, keyOf(input))),
    );
    return this.loadExports(
      chain,
      sourceChain,
      missing.map((input) => input.utxoID.txID.toString()),
    );
  }

  /** What the exports `txIDs` of `sourceChain` hold for `chain`: the owners of each export's outputs, loaded. */
  private async loadExports(chain: UtxoChain | 'C', sourceChain: string, txIDs: Iterable<string>): Promise<void> {
    await Promise.all(
      [...new Set(txIDs)].map(async (txID) => {
        const owners = new Set<string>();
        collectOwners(await this.exportAt(sourceChain, txID), owners, 0);
        await Promise.all([...owners].map((owner) => this.load(chain, sourceChain, owner)));
      }),
    );
  }

  /** The decoded export, if the source accepted it by the fork point (an ID it does not know: none). */
  private async exportAt(sourceChain: string, txID: string): Promise<unknown> {
    const { X, P, C } = this.world.chainIDs;
    const from: UtxoChain | undefined = sourceChain === X ? 'X' : sourceChain === P ? 'P' : undefined;
    try {
      if (sourceChain === C) {
        // The C-Chain block first: the C-Chain's answers are cached under it (./fetch.ts).
        const fork = await this.cHeight();
        const answer = (await ask(this.cached.cAvax, 'getAtomicTx', { txID, encoding: 'hex' })) as Json;
        if (BigInt(String(answer.blockHeight)) > fork) return undefined;
        return fromSource(`avax.getAtomicTx ${txID}`, () => decodeAtomic(hexBytes(answer.tx)).tx);
      }
      if (!from || (await this.later.ids(from)).has(txID)) return undefined;
      const answer = (await ask(from === 'P' ? this.cached.p : this.cached.x, 'getTx', {
        txID,
        encoding: 'hex',
      })) as Json;
      return fromSource(`getTx ${txID}`, () => decodeTx(from, hexBytes(answer.tx)).tx);
    } catch (error) {
      // Unknown at the source: the import is refused as spending a missing UTXO, in the node's words.
      if (refusedBySource(error)) return undefined;
      throw error;
    }
  }

  private async fetch(chain: UtxoChain | 'C', sourceChain: string, owner: string): Promise<void> {
    const address = `${chain}-${bech32Encode(this.world.network.hrp, Buffer.from(owner, 'hex'))}`;
    if (chain === 'C') await this.cHeight();
    const utxos = await utxosAt(this.cached, chain, address, sourceChain);
    const later = await this.laterExports(sourceChain, [...new Set(utxos.map((u) => u.txID))]);
    const destinationChain = this.world.chainIDs[chain];
    this.unjournaled(() => {
      // The source lists an address's shared memory newest first; put oldest first, so the mock lists them alike.
      for (const utxo of [...utxos].reverse()) {
        const key = atomicKey(destinationChain, utxo.key);
        if (later.has(utxo.txID) || this.taken.has(key)) continue;
        this.taken.add(key);
        this.world.atomic.set(key, { ...utxo, sourceChain, destinationChain });
      }
    });
  }

  /** Which of the exports `txIDs` of `sourceChain` the source accepted after the fork point. */
  private async laterExports(sourceChain: string, txIDs: string[]): Promise<Set<string>> {
    const { X, P, C } = this.world.chainIDs;
    if (sourceChain === X || sourceChain === P) return this.later.ids(sourceChain === X ? 'X' : 'P');
    if (sourceChain !== C || txIDs.length === 0) return new Set();
    const fork = await this.cHeight();
    const heights = await inBatches(txIDs, async (txID) => {
      try {
        const answer = (await ask(this.cached.cAvax, 'getAtomicTx', { txID, encoding: 'hex' })) as Json;
        return BigInt(String(answer.blockHeight));
      } catch (error) {
        // Listed in shared memory but not found by ID: nothing says it is later, so it stays.
        if (refusedBySource(error)) return 0n;
        throw error;
      }
    });
    return new Set(txIDs.filter((_, i) => heights[i]! > fork));
  }
}
