/**
 * The source's stakers beyond what `getCurrentValidators` lists at once: each validator's delegators (listed only
 * when one node ID is asked for), and every staker's staked outputs, read from the transaction that added it.
 */
import { decodeTx, utxoRecord } from '../engine/codec.ts';
import type { Staker, Utxo } from '../world/types.ts';
import type { Clients } from './clients.ts';
import { hexBytes, stakerFrom } from './convert.ts';
import { ask } from './walk.ts';

type Json = Record<string, unknown>;

/** Requests in flight at once: a public node answers a burst of thousands with 429s. */
const CONCURRENCY = 16;

export async function inBatches<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += CONCURRENCY)
    results.push(...(await Promise.all(items.slice(i, i + CONCURRENCY).map(each))));
  return results;
}

/** The delegators of every validator that has some, as stakers of their validator. */
export async function delegatorsOf(c: Clients, validators: Json[], subnetID: string): Promise<Staker[]> {
  const delegated = validators.filter((v) => Number(v.delegatorCount ?? 0) > 0);
  const lists = await inBatches(delegated, async (v) => {
    const answer = (await c.p.getCurrentValidators({ subnetID, nodeIDs: [String(v.nodeID)] } as never)) as unknown as {
      validators: Json[];
    };
    const entry = answer.validators.find((e) => e.txID === v.txID);
    return ((entry?.delegators as Json[] | undefined) ?? []).map((d) => stakerFrom(d, subnetID, String(v.txID)));
  });
  return lists.flat();
}

/**
 * A staker's staked outputs as the transaction that added it holds them: numbered after its outputs, as the node
 * numbers the UTXOs it returns at the end of the period (RewardValidatorTx). None for a transaction without stake.
 */
export async function stakeOf(c: Clients, txID: string): Promise<Utxo[]> {
  const answer = (await ask(c.p, 'getTx', { txID, encoding: 'hex' })) as Json;
  const { tx } = decodeTx('P', hexBytes(answer.tx)) as {
    tx: { stake?: { getAssetId(): string; output: never }[]; baseTx?: { outputs?: unknown[] } };
  };
  const after = tx.baseTx?.outputs?.length ?? 0;
  return (tx.stake ?? []).map((out, i) => utxoRecord('P', txID, after + i, out.getAssetId(), out.output));
}
