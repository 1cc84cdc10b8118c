/**
 * coreth has no pending block: eth_call at `pending` runs on the last accepted state (DoCall copies its header with
 * the next height, the time and the estimated base fee), and eth_estimateGas on it whatever it is given (HeaderByNumber
 * reads every accepted tag so, eth/api_backend.go). The engine's `pending` (and the blocks it builds for block
 * overrides) hold its pool's transactions: while the pool holds any, a call runs with them dropped inside an engine
 * snapshot (EDR's snapshot keeps its mem pool), reverted after, so the pool is as it was.
 */
import type { CChain } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** `work` inside the op on the engine with an empty pool; as it is when the pool is empty. */
export async function withoutPool<T>(chain: CChain, provider: Provider, work: () => Promise<T>): Promise<T> {
  const pooled = [...chain.world.cChainPool.keys()];
  if (pooled.length === 0) return work();
  // No other op may see the pool emptied, even while a second engine runs.
  return chain.hold(async () => {
    const snapshot = (await chain.call(provider, 'evm_snapshot')) as string;
    try {
      await chain.calls(
        provider,
        pooled.map((hash) => ['hardhat_dropTransaction', [hash]] as [string, unknown[]]),
      );
      return await work();
    } finally {
      await chain.call(provider, 'evm_revert', [snapshot]);
    }
  });
}
