/**
 * The C-Chain's fee methods as coreth answers them (internal/ethapi, eth/gasprice's Oracle), from the fee rules of the
 * emulated release (./fees.ts) and the engine's history.
 */
import { type CChain, EvmError } from './evm.ts';

const quantity = (n: bigint) => `0x${n.toString(16)}`;

export function feeMethods(chain: CChain): Record<string, (params: unknown) => Promise<unknown>> {
  // Read in the queue's order: after the calls before have built their blocks.
  const suggestion = () => chain.run(async () => chain.suggestion());
  return {
    // Oracle.EstimateBaseFee.
    eth_baseFee: async () => quantity((await suggestion()).baseFee),
    // Oracle.SuggestTipCap, and SuggestPrice (the tip plus the estimated base fee).
    eth_maxPriorityFeePerGas: async () => quantity((await suggestion()).tip),
    eth_gasPrice: async () => {
      const { tip, baseFee } = await suggestion();
      return quantity(tip + baseFee);
    },
    // The engine's history as coreth's Oracle.FeeHistory gives it: a base fee for each block of the range and none for
    // the block after it (geth adds that one), and no blob fields.
    eth_feeHistory: async (params) => {
      const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_feeHistory', params: params ?? [] });
      return chain.run(async (p) => {
        const answer = JSON.parse(await chain.raw(p, request)) as {
          result?: { oldestBlock: string; baseFeePerGas?: string[]; gasUsedRatio: number[]; reward?: string[][] };
          error?: { code: number; message: string; data?: unknown };
        };
        if (answer.error) throw new EvmError(answer.error.code, answer.error.message, answer.error.data);
        const { oldestBlock, baseFeePerGas, gasUsedRatio, reward } = answer.result!;
        const fees = baseFeePerGas?.slice(0, gasUsedRatio.length);
        return {
          oldestBlock,
          ...(reward ? { reward } : {}),
          ...(fees?.length ? { baseFeePerGas: fees } : {}),
          gasUsedRatio,
        };
      });
    },
    // internal/ethapi/api.coreth.go SuggestPriceOptions with the default PriceOptionConfig (slow 95%, fast 105%,
    // max tip 20 gwei): tips from the oracle's suggested tip, fees twice the base fee plus the tip.
    eth_suggestPriceOptions: async () => {
      const { tip: suggested, baseFee: fee } = await suggestion();
      const capped = suggested < 20_000_000_000n ? suggested : 20_000_000_000n;
      const slow = (capped * 95n) / 100n > 1n ? (capped * 95n) / 100n : 1n;
      const fast = (suggested * 105n) / 100n;
      const price = (t: bigint) => ({ maxPriorityFeePerGas: quantity(t), maxFeePerGas: quantity(2n * fee + t) });
      return { slow: price(slow), normal: price(capped), fast: price(fast) };
    },
  };
}
