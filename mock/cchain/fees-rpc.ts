/**
 * The C-Chain's fee methods as coreth answers them (internal/ethapi, eth/gasprice's Oracle), from the fee rules of the
 * emulated release (./fees.ts) and the engine's history.
 */
import { type CChain, EvmError } from './evm.ts';

const quantity = (n: bigint) => `0x${n.toString(16)}`;

/** eth/gasprice's maxQueryLimit, and the Oracle's defaults (eth/ethconfig): MaxCallBlockHistory, MaxBlockHistory. */
const MAX_PERCENTILES = 100;
const MAX_CALL_BLOCKS = 2048n;
const MAX_BLOCK_HISTORY = 25_000n;

/** Go's `%f`: six decimals. */
const goFloat = (p: number) => p.toFixed(6);

/** math.HexOrDecimal64 as the params check has let it through: a JSON number, or a hex or decimal string. */
function hexOrDecimal(value: unknown): bigint {
  if (typeof value === 'number') return BigInt(value);
  if (typeof value !== 'string') return 0n;
  return /^0x/i.test(value) ? BigInt(`0x${value.slice(2)}`) : BigInt(value);
}

/** Oracle.FeeHistory's checks of the reward percentiles (eth/gasprice/feehistory.go): errInvalidPercentile. */
function percentileRefusal(percentiles: number[]): string | undefined {
  if (percentiles.length > MAX_PERCENTILES) return `invalid reward percentile: over the query limit ${MAX_PERCENTILES}`;
  for (const [i, p] of percentiles.entries()) {
    if (p < 0 || p > 100) return `invalid reward percentile: ${goFloat(p)}`;
    if (i > 0 && p <= percentiles[i - 1]!)
      return `invalid reward percentile: #${i - 1}:${goFloat(percentiles[i - 1]!)} >= #${i}:${goFloat(p)}`;
  }
  return undefined;
}

/**
 * Oracle.resolveBlockRange: the last block and the count. coreth has no pending block: `pending` ends at the last
 * accepted block with one block fewer, and every accepted tag (rpc.BlockNumber.IsAccepted) at the last accepted one.
 */
function blockRange(last: unknown, requested: bigint, head: bigint): { last: bigint; blocks: bigint } {
  let blocks = requested;
  if (last === 'pending') blocks--;
  if (blocks === 0n) return { last: 0n, blocks };
  // `earliest` is block 0 (rpc.EarliestBlockNumber), checked as a number is.
  const number = typeof last === 'string' && /^0x/i.test(last) ? BigInt(`0x${last.slice(2)}`) : undefined;
  const lastBlock = number ?? (last === 'earliest' ? 0n : head);
  const maxDepth = MAX_BLOCK_HISTORY - 1n;
  if (number !== undefined || last === 'earliest') {
    if (head > maxDepth && head - maxDepth > lastBlock)
      throw new EvmError(-32000, `request beyond historical limit: requested ${lastBlock}, head ${head}`);
    if (lastBlock > head) throw new EvmError(-32000, `request beyond head block: requested ${lastBlock}, head ${head}`);
  }
  if (blocks > lastBlock + 1n) blocks = lastBlock + 1n;
  const depth = head - (lastBlock - blocks + 1n);
  if (depth > maxDepth) blocks -= depth - maxDepth;
  return { last: lastBlock, blocks };
}

/**
 * eth_feeHistory as coreth's Oracle.FeeHistory answers it (eth/gasprice/feehistory.go): its checks and its block
 * range, then the engine's history of that range with a base fee for each block and none for the block after it
 * (geth adds that one), and no blob fields. An empty range answers no data and no error.
 */
function feeHistory(chain: CChain, params: unknown): Promise<unknown> {
  const [count, last, percentiles] = Array.isArray(params) ? params : [];
  const rewardPercentiles = Array.isArray(percentiles) ? (percentiles as number[]) : [];
  let requested = hexOrDecimal(count);
  const empty = { oldestBlock: '0x0', gasUsedRatio: null };
  if (requested < 1n) return Promise.resolve(empty);
  const refused = percentileRefusal(rewardPercentiles);
  if (refused) return Promise.reject(new EvmError(-32000, refused));
  if (requested > MAX_CALL_BLOCKS) requested = MAX_CALL_BLOCKS;
  return chain.run(async (p) => {
    const head = BigInt((await chain.call(p, 'eth_blockNumber')) as string);
    const range = blockRange(last, requested, head);
    if (range.blocks === 0n) return empty;
    const engineParams = [quantity(range.blocks), quantity(range.last), rewardPercentiles];
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_feeHistory', params: engineParams });
    const answer = JSON.parse(await chain.raw(p, request)) as {
      result?: { oldestBlock: string; baseFeePerGas?: string[]; gasUsedRatio: number[]; reward?: string[][] };
      error?: { code: number; message: string; data?: unknown };
    };
    if (answer.error) throw new EvmError(answer.error.code, answer.error.message, answer.error.data);
    const { oldestBlock, baseFeePerGas, gasUsedRatio, reward } = answer.result!;
    const fees = baseFeePerGas?.slice(0, gasUsedRatio.length);
    return {
      oldestBlock,
      ...(reward && rewardPercentiles.length ? { reward } : {}),
      ...(fees?.length ? { baseFeePerGas: fees } : {}),
      gasUsedRatio,
    };
  });
}

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
    eth_feeHistory: (params) => feeHistory(chain, params),
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
