/**
 * What a forked world reads from its source after start-up, each before the call that needs it answers (the world's
 * reads are synchronous, the source is not): an address's UTXOs on the first call that names the address, a UTXO a
 * transaction spends through the transaction that made it, shared memory (./atomic.ts), stakers' staked outputs
 * (./stakers.ts), and blocks, transactions and validator sets at or below the fork point. What the source accepted
 * after the fork point never comes in: its later blocks, their transactions and the outputs they made are left out,
 * the UTXOs they spent put back (./later.ts); an address once loaded is never read again. A UTXO `dev.removeUtxo`
 * named before it was read is held back when it comes (./removed.ts).
 */
import { bech32Decode, bech32Encode } from '../../generators/formats.ts';
import { decodeTx, keyOf } from '../engine/codec.ts';
import { txBytes } from '../engine/handlers.ts';
import type { Staker, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Clients } from './clients.ts';
import { hexBytes } from './convert.ts';
import type { ForkSource } from './fetch.ts';
import { type SubnetDetails, applySubnet, isPTxAtSource, subnetDetails } from './subnets.ts';
import type { LaterBlocks } from './later.ts';
import { SharedMemory } from './atomic.ts';
import { Stakes } from './stakers.ts';
import { Removals } from './removed.ts';
import { ask, collectOwners, collectSubnets, fromSource, refusedBySource, sourceError, utxosAt } from './walk.ts';
import { EMPTY_ID } from '../world/networks.ts';
import type { IndexName, IndexedChain, SourceIndex } from '../world/indexer.ts';
import { cBlockIndexAt } from './indexes.ts';
import { cParentAt } from './proposer.ts';
import type { ProposerBlock } from '../world/proposer-blocks.ts';

type Params = Record<string, unknown>;
type Json = Record<string, unknown>;

/** The world's fork as the fork's own code sees it: the world holds it by the interface it needs (ForkOrigin). */
export const forkOf = (world: World): Fork | undefined => world.fork as Fork | undefined;

export class Fork {
  readonly source: ForkSource;
  /** The fork point: the source's P- and X-Chain heights the world starts from. */
  readonly heights: Record<UtxoChain, number>;
  private readonly world: World;
  private readonly cached: Clients;
  private readonly loads = { X: new Map<string, Promise<void>>(), P: new Map<string, Promise<void>>() };
  /** UTXO keys ever taken from the source: one the world spent since is not put back by another owner's load. */
  private readonly taken = new Set<string>();
  private readonly later: LaterBlocks;
  private readonly shared: SharedMemory;
  /** The source's indexes and proposervm blocks at the fork point, where it indexes (./indexes.ts). */
  indexes: Partial<Record<IndexName, SourceIndex>> = {};
  proposerTips: Partial<Record<IndexedChain, ProposerBlock>> = {};
  /** IDs named as subnets that are P-Chain transactions of the source, found so by `loadSubnet`. */
  private readonly pTxs = new Set<string>();

  private readonly stakes: Stakes;
  private readonly removals: Removals;
  private cTip: Promise<bigint> | undefined;

  /** Subnets read in full (owner, L1, validators); the others on the first call that names them. */
  private readonly subnetLoads = new Map<string, Promise<void>>();

  constructor(
    world: World,
    source: ForkSource,
    cached: Clients,
    later: LaterBlocks,
    heights: Record<UtxoChain, number>,
    detailed: Set<string>,
  ) {
    for (const id of detailed) this.subnetLoads.set(id, Promise.resolve());
    this.world = world;
    this.source = source;
    this.cached = cached;
    this.heights = heights;
    this.later = later;
    this.shared = new SharedMemory(
      world,
      cached,
      this.later,
      () => this.cHeight(),
      (change) => this.unjournaled(change),
    );
    this.stakes = new Stakes(world, cached, (change) => this.unjournaled(change));
    this.removals = new Removals(world, (change) => this.unjournaled(change));
  }

  /**
   * The source's C-Chain block the fork's C-Chain starts from: the source's tip when first needed, by the EVM engine
   * (./cchain.ts) or by an export from C, read once (the X and P fork point does not fix one).
   */
  cHeight(): Promise<bigint> {
    if (!this.cTip) {
      this.cTip = this.source.cBlockNumber().then(async (height) => {
        this.source.cHeight = height;
        // Before the fork's first C-Chain block: it builds on the source's proposervm block at the fork block.
        const found = await cBlockIndexAt(this.source, this.world.chainIDs.C, height);
        if (found) {
          this.indexes['C/block'] = found.index;
          this.proposerTips.C = found.tip;
        } else if (height > 0n) this.proposerTips.C = await cParentAt(this.source, this.world, height);
        return height;
      });
      this.cTip.catch(() => {
        this.cTip = undefined;
      });
    }
    return this.cTip;
  }

  /** The source's index `name` up to the fork point, where it indexes: the C-Chain's once its fork block is known. */
  async sourceIndex(name: IndexName): Promise<SourceIndex | undefined> {
    if (name === 'C/block') await this.cHeight();
    return this.indexes[name];
  }

  /** A method's answer with the source's data loaded first, and its reads below the fork point sent there. */
  answerFor(name: string, local: (p: Params) => unknown): (p: Params) => Promise<unknown> {
    return (p) => this.answer(name, p, local);
  }

  private async answer(name: string, p: Params, local: (p: Params) => unknown): Promise<unknown> {
    const [api, short] = name.split('.') as [string, string];
    const chain: UtxoChain | undefined =
      api === 'platform'
        ? 'P'
        : api === 'avm' || api === 'wallet'
          ? 'X'
          : p.chain === 'P' || p.chain === 'X'
            ? p.chain
            : undefined;
    try {
      await Promise.all([this.loadNamed(chain, p), this.stakes.loadFor(name, p)]);
      if (typeof p.subnetID === 'string' && p.subnetID !== EMPTY_ID) await this.loadSubnet(p.subnetID);
      if (short === 'issueTx' || name === 'dev.simulateTx') if (chain) await this.loadSpent(chain, p);
      if (name === 'avax.issueTx') await this.shared.loadImportOnC(p);
    } catch (error) {
      throw sourceError(this.source.url, error);
    }
    if (name === 'dev.removeUtxo') return this.removals.remove(p, local, (key) => this.taken.has(key));
    if (name === 'avax.getAtomicTx' || name === 'avax.getAtomicTxStatus') return this.cAtomic(short, p, local);
    if (!chain || (api !== 'platform' && api !== 'avm')) return local(p);
    const client = chain === 'P' ? this.cached.p : this.cached.x;
    const atSource = () => ask(client, short, p);
    switch (short) {
      case 'getBlockByHeight':
        return Number(p.height ?? 0) <= this.heights[chain] ? atSource() : local(p);
      case 'getValidatorsAt':
        return typeof p.height !== 'string' && typeof p.height !== 'number'
          ? local(p)
          : Number(p.height) < this.heights.P
            ? atSource()
            : local(p);
      case 'getBlock': {
        const block = this.world.blockIDs.get(String(p.blockID ?? ''));
        if (block && block.height > this.heights[chain]) return local(p);
        return this.unlessLater(chain, String(p.blockID ?? ''), atSource, local, p);
      }
      case 'getTx':
        if (this.world.txs.has(String(p.txID ?? ''))) return local(p);
        return this.unlessLater(chain, String(p.txID ?? ''), atSource, local, p);
      case 'getTxStatus': {
        const mine = local(p) as { status?: string };
        if (mine.status !== 'Unknown') return mine;
        return this.unlessLater(chain, String(p.txID ?? ''), atSource, () => mine, p);
      }
      case 'getAssetDescription':
        try {
          return local(p);
        } catch {
          await this.loadAssets([String(p.assetID ?? '')]).catch(() => undefined);
          return local(p);
        }
    }
    return local(p);
  }

  /**
   * An atomic transaction of the C-Chain: the fork's own, else the source's where it accepted it at or below the fork's
   * C-Chain block (coreth's repository of accepted atomic txs; one accepted above it, or pending there, is not the
   * fork's).
   */
  private async cAtomic(short: string, p: Params, local: (p: Params) => unknown): Promise<unknown> {
    let mine: Json | undefined;
    let refusal: unknown;
    try {
      mine = (await local(p)) as Json;
    } catch (error) {
      refusal = error;
    }
    if (mine && mine.status !== 'Unknown') return mine;
    if (refusal && !String((refusal as Error).message).startsWith('could not find tx')) throw refusal;
    let theirs: Json | undefined;
    try {
      const forkBlock = await this.cHeight();
      theirs = (await ask(this.cached.cAvax, short, p)) as Json;
      const height = theirs?.blockHeight;
      const accepted = short === 'getAtomicTx' || theirs?.status === 'Accepted';
      if (accepted && typeof height === 'string' && /^[0-9]{1,20}$/.test(height) && BigInt(height) <= forkBlock)
        return theirs;
    } catch (error) {
      if (!refusedBySource(error)) throw sourceError(this.source.url, error);
    }
    if (refusal) throw refusal;
    return mine;
  }

  /** The source's answer, unless `id` is of a block or transaction it accepted after the fork point. */
  private async unlessLater(
    chain: UtxoChain,
    id: string,
    atSource: () => Promise<unknown>,
    local: (p: Params) => unknown,
    p: Params,
  ): Promise<unknown> {
    if ((await this.later.ids(chain)).has(id)) return local(p);
    try {
      return await atSource();
    } catch (error) {
      // The source's refusal of an ID it does not know: the local read words it as this node would.
      if (refusedBySource(error)) return local(p);
      throw error;
    }
  }

  /** Every address the call names (`address`, `addresses`, `to`, `from`...), loaded on its chain. */
  private async loadNamed(chain: UtxoChain | undefined, p: Params): Promise<void> {
    const named: string[] = [];
    for (const key of ['address', 'addresses', 'from', 'changeAddr']) {
      const value = p[key];
      if (typeof value === 'string') named.push(value);
      else if (Array.isArray(value)) named.push(...value.filter((v): v is string => typeof v === 'string'));
    }
    await Promise.all(
      named.map((text) => {
        const dash = text.indexOf('-');
        const prefix = dash > 0 ? text.slice(0, dash) : undefined;
        const on = prefix === 'X' || prefix === 'P' || prefix === 'C' ? prefix : chain;
        const decoded = bech32Decode(text.slice(dash + 1));
        if (!on || decoded?.hrp !== this.world.network.hrp || decoded.payload.length !== 20) return undefined;
        const owner = Buffer.from(decoded.payload).toString('hex');
        // `sourceChain` asks for what another chain exported to this one: its shared memory, not its UTXOs.
        const from = typeof p.sourceChain === 'string' ? this.world.chainID(p.sourceChain) : undefined;
        if (from && from !== this.world.chainIDs[on]) return this.shared.load(on, from, owner);
        return on === 'C' ? undefined : this.loadOwner(on, owner);
      }),
    );
  }

  /** The UTXOs a transaction spends that the world has not seen: each through the transaction that made it. */
  private async loadSpent(chain: UtxoChain, p: Params): Promise<void> {
    let tx: { baseTx?: { inputs?: unknown[] }; sourceChain?: object; ins?: unknown[] };
    try {
      tx = decodeTx(chain, txBytes(p)).tx;
    } catch {
      return; // the issue itself refuses it, in the node's words
    }
    const subnets = new Set<string>();
    collectSubnets(tx, subnets, 0);
    await Promise.all([...subnets].map((id) => this.loadSubnet(id)));
    const inputs = (tx.baseTx?.inputs ?? []) as Parameters<typeof keyOf>[0][];
    const missing = inputs.filter(
      (input) => !this.world.utxos[chain].has(keyOf(input)) && !this.taken.has(keyOf(input)),
    );
    const producers = new Set(missing.map((input) => input.utxoID.txID.toString()));
    await Promise.all([...producers].map((txID) => this.loadProducer(chain, txID)));
    // An import's inputs are in shared memory: their owners' exports, through the export that made them.
    if (tx.sourceChain && Array.isArray(tx.ins)) await this.shared.loadImport(chain, tx.sourceChain.toString(), tx.ins);
  }

  /** Loads every owner of the outputs of a transaction the source accepted on `chain` by the fork point. */
  private async loadProducer(chain: UtxoChain, txID: string): Promise<void> {
    if ((await this.later.ids(chain)).has(txID)) return;
    let answer: Json;
    try {
      answer = (await ask(chain === 'P' ? this.cached.p : this.cached.x, 'getTx', { txID, encoding: 'hex' })) as Json;
    } catch (error) {
      if (refusedBySource(error)) return; // unknown at the source too: the spend is refused as spending a missing UTXO
      throw error;
    }
    const owners = new Set<string>();
    collectOwners(
      fromSource(`getTx ${txID}`, () => decodeTx(chain, hexBytes(answer.tx)).tx),
      owners,
      0,
    );
    await Promise.all([...owners].map((owner) => this.loadOwner(chain, owner)));
  }

  /** A subnet in full, once: a subnet the source did not have at the fork point stays unknown. */
  private loadSubnet(id: string): Promise<void> {
    let load = this.subnetLoads.get(id);
    if (!load) {
      load = (async () => {
        const later = await this.later.ids('P');
        if (later.has(id)) return;
        let details: SubnetDetails;
        try {
          details = await subnetDetails(this.cached, id, later);
        } catch (error) {
          if (!refusedBySource(error)) throw error;
          // Not a subnet at the source either: a P transaction's ID is one the node's state holds ("is not a subnet").
          if (await isPTxAtSource(this.cached, id)) this.pTxs.add(id);
          return;
        }
        let stakers: Staker[] = [];
        this.unjournaled(() => {
          stakers = applySubnet(this.world, details);
        });
        this.stakes.track(stakers);
      })();
      this.subnetLoads.set(id, load);
      load.catch(() => this.subnetLoads.delete(id));
    }
    return load;
  }

  /** Whether `id` names a P-Chain transaction the source accepted by the fork point, as far as the fork has asked. */
  holdsPTx(id: string): boolean {
    return this.pTxs.has(id);
  }

  /** An address's UTXOs as the source holds them, once: later calls find them in the world. */
  loadOwner(chain: UtxoChain, owner: string): Promise<void> {
    let load = this.loads[chain].get(owner);
    if (!load) {
      load = this.fetchOwner(chain, owner);
      this.loads[chain].set(owner, load);
      // A failed load may be tried again by the next call (the source may be back).
      load.catch(() => this.loads[chain].delete(owner));
    }
    return load;
  }

  private async fetchOwner(chain: UtxoChain, owner: string): Promise<void> {
    const address = `${chain}-${bech32Encode(this.world.network.hrp, Buffer.from(owner, 'hex'))}`;
    const utxos = await utxosAt(this.cached, chain, address);
    const later = await this.later.ids(chain);
    utxos.push(...(await this.later.spentBy(chain, owner)));
    const kept = (chain === 'P' ? await this.stakes.unreturned(utxos) : utxos).filter(
      (u) => !later.has(u.txID) && !this.taken.has(u.key),
    );
    if (chain === 'X') await this.loadAssets(kept.map((u) => u.assetID));
    this.unjournaled(() => {
      for (const utxo of kept) {
        this.taken.add(utxo.key);
        this.removals.place(chain, utxo);
      }
    });
  }

  private async loadAssets(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => id && !this.world.assets.has(id));
    const described = await Promise.all(
      unknown.map((assetID) => ask(this.cached.x, 'getAssetDescription', { assetID }) as Promise<Json>),
    );
    this.unjournaled(() => {
      for (const d of described) {
        const id = String(d.assetID);
        const asset = { id, name: String(d.name), symbol: String(d.symbol), denomination: Number(d.denomination) };
        this.world.assets.set(id, asset);
      }
    });
  }

  /** Data of the fork point is part of the world's start: no snapshot's revert takes it out again. */
  private unjournaled(change: () => void): void {
    const { journal } = this.world;
    const recording = journal.recording;
    journal.recording = false;
    try {
      change();
    } finally {
      journal.recording = recording;
    }
  }
}
