/**
 * The development controls of the mock (`/ext/dev`), like anvil's and Hardhat's: snapshots, chain time, mining,
 * funds, the fee state, reset. Never part of a generated server: they exist only on the mock's world.
 */
import { bech32Decode, cb58Encode as cbOf } from '../../generators/formats.ts';
import { makeUtxo, sha256 } from '../world/codec.ts';
import type { UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Engine } from './engine.ts';
import { advanceTime } from './staking.ts';

type Params = Record<string, unknown>;

const chainOf = (value: unknown): UtxoChain => {
  if (value === 'X' || value === 'P') return value;
  throw new Error(`chain must be "X" or "P", not ${JSON.stringify(value)}`);
};

const amountOf = (value: unknown, name: string): bigint => {
  if ((typeof value === 'string' && /^\d+$/.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) return BigInt(value);
  throw new Error(`${name} must be a non-negative integer (a string of digits), not ${JSON.stringify(value)}`);
};

export class DevControls {
  /** Snapshot IDs to journal marks; IDs only grow, so an old ID never names a newer state. */
  private readonly snapshots = new Map<number, number>();
  private nextID = 1;
  private funded = 0;

  constructor(
    private readonly world: World,
    private readonly engine: Engine,
  ) {}

  /** A snapshot of the whole world; its ID reverts to it (nested snapshots allowed). */
  snapshot(): { id: string } {
    const id = this.nextID++;
    this.snapshots.set(id, this.world.snapshot());
    return { id: String(id) };
  }

  /** Back to snapshot `id`: later snapshots are discarded; `id` stays, so reverting to it again does the same. */
  revert(p: Params): { reverted: boolean } {
    const id = Number(p.id);
    const mark = this.snapshots.get(id);
    if (mark === undefined) throw new Error(`no snapshot ${JSON.stringify(p.id ?? null)}`);
    this.world.revert(mark);
    this.engine.clear();
    for (const other of this.snapshots.keys()) if (other > id) this.snapshots.delete(other);
    return { reverted: true };
  }

  /** Sets the chain time (Unix seconds; never backwards), ending the staking periods it passes. */
  setTime(p: Params): { timestamp: string } {
    const time = amountOf(p.timestamp, 'timestamp');
    if (time < this.world.time.get()) throw new Error(`timestamp ${time} is before the chain time ${this.world.time.get()}`);
    advanceTime(this.world, time);
    return { timestamp: String(this.world.time.get()) };
  }

  increaseTime(p: Params): { timestamp: string } {
    return this.setTime({ timestamp: String(this.world.time.get() + amountOf(p.seconds, 'seconds')) });
  }

  /** Builds `blocks` blocks on `chain` (default 1; empty ones too), from the pool first. */
  mine(p: Params): { blockIDs: string[] } {
    const count = p.blocks === undefined ? 1 : Number(amountOf(p.blocks, 'blocks'));
    if (count > 10_000) throw new Error('blocks must be at most 10000');
    return { blockIDs: this.engine.mine(chainOf(p.chain ?? 'P'), count) };
  }

  /** Gives `address` (`X-…` or `P-…`) `amount` of `assetID` (AVAX by default) in one new UTXO. */
  fund(p: Params): { utxoID: string } {
    const address = String(p.address ?? '');
    const dash = address.indexOf('-');
    const chain = chainOf(address.slice(0, dash));
    const decoded = bech32Decode(address.slice(dash + 1));
    if (!decoded || decoded.payload.length !== 20 || decoded.hrp !== this.world.network.hrp) throw new Error(`not an address of this network: ${JSON.stringify(address)}`);
    const assetID = typeof p.assetID === 'string' ? (this.world.assetAliases.get(p.assetID) ?? p.assetID) : this.world.network.avaxAssetID;
    if (!this.world.assets.has(assetID)) throw new Error(`unknown asset ${JSON.stringify(assetID)}`);
    const owner = Buffer.from(decoded.payload).toString('hex');
    // A transaction ID of no real transaction, unique per funding: sha256 of a counter and the world's tip.
    const txID = cbOf(sha256(Buffer.from(`dev.fund ${this.funded++} ${this.world.tip('P').id} ${this.world.tip('X').id}`)));
    const utxo = makeUtxo({ txID, outputIndex: 0, assetID, amount: amountOf(p.amount, 'amount'), owner: { locktime: 0n, threshold: 1, addresses: [owner] }, stakeableLocktime: 0n });
    this.world.utxos[chain].set(utxo.key, utxo);
    return { utxoID: cbOf(Buffer.from(utxo.key, 'hex')) };
  }

  /** Sets the P-Chain's dynamic fee state (gas excess and capacity). */
  setFeeState(p: Params): { excess: string; capacity: string } {
    const state = this.world.feeState.get();
    const next = { ...state, ...(p.excess !== undefined ? { excess: amountOf(p.excess, 'excess') } : {}), ...(p.capacity !== undefined ? { capacity: amountOf(p.capacity, 'capacity') } : {}) };
    this.world.feeState.set(next);
    return { excess: String(next.excess), capacity: String(next.capacity) };
  }

  /** Back to the world as it started; every snapshot is discarded. */
  reset(): { reset: boolean } {
    this.world.revert(0);
    this.engine.clear();
    this.snapshots.clear();
    return { reset: true };
  }
}
