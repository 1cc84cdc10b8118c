/** The engine's pool worked as the node's: transactions dropped from it, and sent for an impersonated sender. */
import type { CChain } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/**
 * Drops transactions from the engine's pool. EDR's MemPool::remove_transaction leaves the sender's emptied list of
 * future transactions in place, so the pool still "has transactions" (and refuses a nonce edit,
 * SetAccountNonceWithPendingTransactions) until MemPool::update runs: setting each sender's balance to what it is runs
 * that update and changes no state.
 */
export async function dropFromEngine(chain: CChain, provider: Provider, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  const found = (await chain.calls(
    provider,
    hashes.map((hash) => ['eth_getTransactionByHash', [hash]] as const),
    true,
  )) as Array<{ from: string } | null>;
  const senders = [...new Set(found.flatMap((tx) => (tx ? [tx.from.toLowerCase()] : [])))];
  await chain.calls(
    provider,
    hashes.map((hash) => ['hardhat_dropTransaction', [hash]] as const),
    true,
  );
  if (senders.length === 0) return;
  const balances = (await chain.calls(
    provider,
    senders.map((sender) => ['eth_getBalance', [sender, 'latest']] as const),
    true,
  )) as string[];
  await chain.calls(
    provider,
    senders.map((sender, i) => ['hardhat_setBalance', [sender, balances[i]]] as const),
    true,
  );
}

/**
 * `send` with `from` impersonated in the engine for it alone (the engine signs it with the fake signature,
 * ./signed-tx.ts); as it is when there is no `from`.
 */
export async function asImpersonated<T>(
  chain: CChain,
  provider: Provider,
  from: string | undefined,
  send: () => Promise<T>,
): Promise<T> {
  if (!from) return send();
  await chain.call(provider, 'hardhat_impersonateAccount', [from]);
  try {
    return await send();
  } finally {
    await chain.call(provider, 'hardhat_stopImpersonatingAccount', [from]);
  }
}
