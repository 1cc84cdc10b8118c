/**
 * legacypool's global cap on queued transactions (truncateQueue), which the mock applies to its pool journal
 * (mock/cchain/nonce-queue.ts queueOverflow): over 1,024 queued, the least recently active accounts lose theirs, each
 * from its highest nonce. The per-account cap and the replacement are tested on a node (cchain-nonce-queue.test.ts).
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { GLOBAL_QUEUE, queueOverflow, transactionHash } from '../../mock/cchain/nonce-queue.ts';
import type { World } from '../../mock/world/world.ts';

async function signed(key: `0x${string}`, nonce: number): Promise<string> {
  return privateKeyToAccount(key).signTransaction({
    chainId: 43112,
    type: 'eip1559',
    to: '0x00000000000000000000000000000000000000aa',
    nonce,
    gas: 21_000n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
  });
}

describe('the caps on queued transactions', () => {
  it('drop an account’s highest nonce over 64, then the least recently active account’s over 1,024', async () => {
    const pool = new Map<string, { raw: string; order: number }>();
    let order = 0;
    const add = (raw: string) => {
      const hash = transactionHash(raw);
      pool.set(hash, { raw, order: order++ });
      return hash;
    };
    const world = { cChainPool: pool } as unknown as World;
    /** Adds a tx as CChain.pooled does: journaled, then what the caps drop taken out. */
    const queue = (raw: string) => {
      const dropped = queueOverflow(world, add(raw));
      for (const hash of dropped) pool.delete(hash);
      return dropped;
    };
    const keys = Array.from({ length: GLOBAL_QUEUE / 64 + 1 }, () => generatePrivateKey());
    const hashes: string[][] = [];
    for (const key of keys.slice(0, -1)) {
      const mine: string[] = [];
      for (let nonce = 1; nonce <= 64; nonce++) mine.push(add(await signed(key, nonce)));
      hashes.push(mine);
    }
    expect(queueOverflow(world, hashes[0]![0]!)).toEqual([]);
    // The account's 65th, the highest nonce, goes.
    const over = await signed(keys[0]!, 65);
    expect(queue(over)).toEqual([transactionHash(over)]);
    // A lower nonce than the account's highest takes the highest's place; the account is now the most recently active.
    const gap = await signed(keys[0]!, 0);
    expect(queue(gap)).toEqual([hashes[0]!.at(-1)]);
    // The 1,025th queued: the least recently active account (the second) loses its highest nonce.
    expect(queue(await signed(keys.at(-1)!, 1))).toEqual([hashes[1]!.at(-1)]);
    expect(pool.size).toBe(GLOBAL_QUEUE);
  });
});
