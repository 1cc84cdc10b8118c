/**
 * coreth's txpool queue of transactions whose nonce leaves a gap (core/txpool/legacypool: add, enqueueTx,
 * promoteExecutables, truncateQueue). The engine queues such a transaction only while it does not automine, so an
 * automining CChain (./evm.ts) hands it over with automining paused; the engine, which then validates it as it
 * validates any transaction, mines it as soon as the gap is filled. While automining, the world's journal of pending
 * transactions (world.cChainPool) holds exactly the queued ones (a mined one leaves it), so snapshots and reverts keep
 * the queue as they keep the pool (a saved state holds neither). What the engine's pool does not do as coreth's is here: the caps on
 * queued transactions and the cleanup of the replaced ones.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { World } from '../world/world.ts';
import { ethChecksum } from '../engine/dev.ts';
import { transactionSender } from './raw-transaction.ts';
import { decodeSigned } from './signed-tx.ts';

/** legacypool.DefaultConfig: queued transactions per account, and in all. */
export const ACCOUNT_QUEUE = 64;
export const GLOBAL_QUEUE = 1024;

/** The hash of a signed transaction (0x-hex), as its bytes hash. */
export const transactionHash = (raw: string): string =>
  `0x${Buffer.from(keccak_256(Buffer.from(raw.slice(2), 'hex'))).toString('hex')}`;

interface Queued {
  hash: string;
  sender: string;
  nonce: bigint;
  /** When it was journaled: an account's last is its heartbeat. */
  order: number;
}

/** Sender and nonce by hash: ecrecover is dear, and a hash's never change. Bounded by the pool's size. */
const decoded = new Map<string, { sender: string; nonce: bigint } | undefined>();

function senderAndNonce(hash: string, raw: string): { sender: string; nonce: bigint } | undefined {
  if (decoded.has(hash)) return decoded.get(hash);
  const tx = decodeSigned(raw);
  // The engine's fake signature (an impersonated sender's) recovers to no one's: its sender is its r.
  const sender = tx && (tx.impersonatedBy ? ethChecksum(tx.impersonatedBy.slice(2)) : transactionSender(raw));
  const found = tx && sender ? { sender, nonce: tx.nonce } : undefined;
  decoded.set(hash, found);
  return found;
}

/** The queued transactions (the journaled pending ones, while automining), by sender, each in nonce order. */
function queuedBySender(world: World): Map<string, Queued[]> {
  const bySender = new Map<string, Queued[]>();
  for (const [hash, { raw, order }] of world.cChainPool.entries()) {
    const tx = senderAndNonce(hash, raw);
    if (!tx) continue;
    const list = bySender.get(tx.sender) ?? [];
    list.push({ hash, ...tx, order });
    bySender.set(tx.sender, list);
  }
  // What left the pool is forgotten (all at once would recover every pooled sender again on the next call).
  if (decoded.size > 2 * world.cChainPool.size + GLOBAL_QUEUE)
    for (const hash of decoded.keys()) if (!world.cChainPool.has(hash)) decoded.delete(hash);
  for (const list of bySender.values()) list.sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
  return bySender;
}

/** The journaled pending transaction of `sender` (checksummed) at `nonce`, if any. */
export function pooledAt(world: World, sender: string, nonce: bigint): { hash: string; raw: string } | undefined {
  // An automining chain's pool is mostly empty: no sender is recovered then.
  if (world.cChainPool.size === 0) return undefined;
  const held = queuedBySender(world)
    .get(sender)
    ?.find((pooled) => pooled.nonce === nonce);
  const entry = held && world.cChainPool.get(held.hash);
  return held && entry ? { hash: held.hash, raw: entry.raw } : undefined;
}

/**
 * The pending transactions `hash` replaced in the engine's pool (same sender and nonce; the pool's replacement rules
 * are the engine's), which leave the journal too: a block never includes them.
 */
export function forgetReplaced(world: World, hash: string): void {
  const added = [...queuedBySender(world).values()].flat().find((tx) => tx.hash === hash);
  if (!added) return;
  for (const tx of queuedBySender(world).get(added.sender)!)
    if (tx.nonce === added.nonce && tx.hash !== hash) world.cChainPool.delete(tx.hash);
}

/**
 * The hashes to drop after `hash` was queued: the transaction it replaced (same sender and nonce), the account's
 * queue over ACCOUNT_QUEUE from its highest nonce (list.Cap), then, over GLOBAL_QUEUE, the queues of the accounts
 * least recently active, each from its highest nonce (truncateQueue).
 */
export function queueOverflow(world: World, hash: string): string[] {
  const bySender = queuedBySender(world);
  const drop: string[] = [];
  const added = [...bySender.values()].flat().find((tx) => tx.hash === hash);
  if (added) {
    const list = bySender.get(added.sender)!;
    const replaced = list.filter((tx) => tx.nonce === added.nonce && tx.hash !== hash);
    drop.push(...replaced.map((tx) => tx.hash));
    const kept = list.filter((tx) => !replaced.includes(tx));
    drop.push(...kept.splice(ACCOUNT_QUEUE).map((tx) => tx.hash));
    bySender.set(added.sender, kept);
  }
  let queued = [...bySender.values()].reduce((n, list) => n + list.length, 0);
  const heartbeat = (list: Queued[]) => Math.max(...list.map((tx) => tx.order));
  const oldestFirst = [...bySender.values()].filter((l) => l.length > 0).sort((a, b) => heartbeat(a) - heartbeat(b));
  for (const list of oldestFirst) {
    if (queued <= GLOBAL_QUEUE) break;
    const over = Math.min(queued - GLOBAL_QUEUE, list.length);
    drop.push(...list.slice(list.length - over).map((tx) => tx.hash));
    queued -= over;
  }
  return drop;
}
