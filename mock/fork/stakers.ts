/**
 * The source's stakers beyond what `getCurrentValidators` lists at once: each validator's delegators (listed only
 * when one node ID is asked for), and every staker's staked outputs, read from the transaction that added it.
 */
import { bech32Encode, cb58Decode } from '../../generators/formats.ts';
import { decodeTx, utxoRecord } from '../engine/codec.ts';
import { EMPTY_ID } from '../world/networks.ts';
import type { Staker, Utxo } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Clients } from './clients.ts';
import { hexBytes, stakerFrom, utxoFrom } from './convert.ts';
import { ask, fromSource, refusedBySource } from './walk.ts';

type Json = Record<string, unknown>;
type Params = Record<string, unknown>;

/** Requests in flight at once: a public node answers a burst of thousands with 429s. */
const CONCURRENCY = 16;

export async function inBatches<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += CONCURRENCY)
    results.push(...(await Promise.all(items.slice(i, i + CONCURRENCY).map(each))));
  return results;
}

/** The delegators of every validator that has some, as stakers of their validator, but those `later` added. */
export async function delegatorsOf(
  c: Clients,
  validators: Json[],
  subnetID: string,
  later: ReadonlySet<string>,
): Promise<Staker[]> {
  const delegated = validators.filter((v) => Number(v.delegatorCount ?? 0) > 0);
  const lists = await inBatches(delegated, async (v) => {
    const answer = (await c.p.getCurrentValidators({ subnetID, nodeIDs: [String(v.nodeID)] } as never)) as unknown as {
      validators: Json[];
    };
    const entry = answer.validators.find((e) => e.txID === v.txID);
    const kept = ((entry?.delegators as Json[] | undefined) ?? []).filter((d) => !later.has(String(d.txID)));
    return kept.map((d) => stakerFrom(d, subnetID, String(v.txID)));
  });
  return lists.flat();
}

/**
 * A staker's staked outputs as the transaction that added it holds them: numbered after its outputs, as the node
 * numbers the UTXOs it returns at the end of the period (RewardValidatorTx). None for a transaction without stake;
 * undefined when the source has no such transaction (a staker its own dev controls made).
 */
async function stakeOf(c: Clients, txID: string): Promise<Utxo[] | undefined> {
  let answer: Json;
  try {
    answer = (await ask(c.p, 'getTx', { txID, encoding: 'hex' })) as Json;
  } catch (error) {
    if (refusedBySource(error)) return undefined;
    throw error;
  }
  const { tx } = fromSource(`getTx ${txID}`, () => decodeTx('P', hexBytes(answer.tx))) as {
    tx: { stake?: { getAssetId(): string; output: never }[]; baseTx?: { outputs?: unknown[] } };
  };
  const after = tx.baseTx?.outputs?.length ?? 0;
  return (tx.stake ?? []).map((out, i) => utxoRecord('P', txID, after + i, out.getAssetId(), out.output));
}

/** The staked outputs of the forked stakers, each read once when first needed. */
export class Stakes {
  private readonly world: World;
  private readonly cached: Clients;
  private readonly unjournaled: (change: () => void) => void;
  private readonly forked: Set<string>;
  private readonly loads = new Map<string, Promise<void>>();
  /** The source's `getStake` outputs of a reward owner, each taken by at most one staker without a transaction. */
  private readonly untracedPools = new Map<string, Promise<Uint8Array[]>>();

  constructor(world: World, cached: Clients, unjournaled: (change: () => void) => void) {
    this.world = world;
    this.cached = cached;
    this.unjournaled = unjournaled;
    this.forked = new Set();
    this.track(world.stakers.values());
  }

  /** Forked stakers whose transaction staked outputs: the Primary Network's, and permissionless subnets' (rewarded). */
  track(stakers: Iterable<Staker>): void {
    for (const s of stakers) if (s.subnetID === EMPTY_ID || s.rewardOwner) this.forked.add(s.txID);
  }

  /**
   * The staked outputs of the forked stakers whose period the call may end (`dev.setTime`, `dev.increaseTime`), or of
   * all of them for `platform.getStake`: read before the call, so the end of a period returns them as the node does.
   */
  async loadFor(name: string, p: Params): Promise<void> {
    let until: bigint;
    try {
      if (name === 'dev.setTime') until = BigInt(String(p.timestamp));
      else if (name === 'dev.increaseTime') until = this.world.time.get() + BigInt(String(p.seconds));
      else if (name === 'platform.getStake') until = 2n ** 64n;
      else return;
    } catch {
      return; // the call itself refuses the bad number
    }
    const due = [...this.forked].filter((txID) => {
      const staker = this.world.stakers.get(txID);
      return staker !== undefined && staker.endTime <= until;
    });
    await inBatches(due, (txID) => this.load(txID));
  }

  /**
   * P-Chain UTXOs without the stake and rewards of stakers that were current at the fork point: the source returned
   * them after it (they are numbered from the staker's first staked output on, its own outputs before).
   */
  async unreturned(utxos: Utxo[]): Promise<Utxo[]> {
    const stakers = [...new Set(utxos.map((u) => u.txID))].filter((txID) => this.forked.has(txID));
    if (stakers.length === 0) return utxos;
    await inBatches(stakers, (txID) => this.load(txID));
    const firstStaked = (txID: string) =>
      Math.min(...(this.world.stakers.get(txID)?.stake ?? []).map((u) => u.outputIndex));
    return utxos.filter((u) => !this.forked.has(u.txID) || u.outputIndex < firstStaked(u.txID));
  }

  private load(txID: string): Promise<void> {
    let load = this.loads.get(txID);
    if (!load) {
      load = (async () => {
        const stake = (await stakeOf(this.cached, txID)) ?? (await this.untracedStake(txID));
        this.unjournaled(() => {
          const staker = this.world.stakers.get(txID);
          if (staker && staker.stake.length === 0) this.world.stakers.set(txID, { ...staker, stake });
        });
      })();
      this.loads.set(txID, load);
      load.catch(() => this.loads.delete(txID));
    }
    return load;
  }

  /**
   * The stake of a staker the source has no transaction for (its own dev controls made it, as this mock's do): the
   * output of the staker's weight (a staker's stake adds up to its weight) that the source's `platform.getStake`
   * lists for the staker's reward owner, each output taken once, numbered 0 as such a staker's stake is; none when
   * the source lists none (it holds no stake for the staker either). A source that answers no `getStake` cannot
   * tell: refused, naming the staker.
   */
  private async untracedStake(txID: string): Promise<Utxo[]> {
    const staker = this.world.stakers.get(txID);
    if (!staker?.rewardOwner) return [];
    const addresses = staker.rewardOwner.addresses;
    const key = addresses.join(',');
    let pool = this.untracedPools.get(key);
    if (!pool) {
      pool = stakedOutputs(this.cached, this.world.network.hrp, addresses);
      this.untracedPools.set(key, pool);
      pool.catch(() => this.untracedPools.delete(key));
    }
    let outputs: Uint8Array[];
    try {
      outputs = await pool;
    } catch (error) {
      throw new Error(
        `the fork source has no transaction for staker ${txID}, and its stake cannot be read from its platform.getStake: ${(error as Error).message}`,
      );
    }
    const found = outputs.findIndex((output) => {
      const utxo = asUtxo(output);
      return utxo.amount === staker.weight && utxo.owner.addresses.some((a) => addresses.includes(a));
    });
    return found < 0 ? [] : [asUtxo(outputs.splice(found, 1)[0]!, txID)];
  }
}

/** The staked outputs (TransferableOutput bytes) the source's `platform.getStake` lists for the addresses. */
async function stakedOutputs(c: Clients, hrp: string, addresses: string[]): Promise<Uint8Array[]> {
  const answer = (await ask(c.p, 'getStake', {
    addresses: addresses.map((a) => `P-${bech32Encode(hrp, Buffer.from(a, 'hex'))}`),
    encoding: 'hex',
  })) as Json;
  if (!Array.isArray(answer.stakedOutputs)) throw new Error('its getStake answered no stakedOutputs list');
  return answer.stakedOutputs.map((text) =>
    fromSource('a staked output', () => {
      const output = hexBytes(text);
      asUtxo(output);
      return output;
    }),
  );
}

/** A staked output (TransferableOutput bytes) as output 0 of transaction `txID` (none given: an all-zero ID). */
function asUtxo(output: Uint8Array, txID?: string): Utxo {
  const bytes = Buffer.concat([output.subarray(0, 2), Buffer.alloc(36), output.subarray(2)]);
  if (txID) Buffer.from(cb58Decode(txID) ?? []).copy(bytes, 2);
  return utxoFrom('P', bytes);
}
