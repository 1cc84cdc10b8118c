/**
 * eth_feeHistory's reward percentiles and last block as coreth reads them (graft/coreth/eth/gasprice/feehistory.go,
 * v1.14.2): percentiles are float64s, each in [0, 100] and each strictly above the one before, else
 * errInvalidPercentile ("invalid reward percentile"); a last block past the last accepted one is errRequestBeyondHead.
 * Its engine alone reads them its own way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc, send } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  const hash = await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000fee00', value: 1n });
  await pub.waitForTransactionReceipt({ hash });
});
afterAll(() => node?.close());

const feeHistory = (params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_feeHistory', params);

describe('eth_feeHistory blockCount', () => {
  // FeeHistory(ctx, blockCount math.HexOrDecimal64, ...): its UnmarshalJSON hands the literal's text (a string's
  // without quotes) to ParseUint64, which takes only decimal or 0x-hex digits up to 2^64-1, else
  // fmt.Errorf("invalid hex or decimal integer %q", input), wrapped as "invalid argument 0: ..." (-32602).
  const written = async (blockCount: string) => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"eth_feeHistory","params":[${blockCount},"latest",[50]]}`;
    return JSON.parse((await send(`${node.url}/ext/bc/C/rpc`, { body })).text);
  };
  it.each(['1e1', '1.0', '-0', '-1', '18446744073709551616', '"abc"', '"0x"', '"1e1"', 'true'])(
    'refuses %s as the node does',
    async (blockCount) => {
      const text = blockCount.startsWith('"') ? blockCount.slice(1, -1) : blockCount;
      expect((await written(blockCount)).error).toEqual({
        code: -32602,
        message: `invalid argument 0: invalid hex or decimal integer ${JSON.stringify(text)}`,
      });
    },
  );
  it('takes a decimal number and a hex string', async () => {
    expect((await written('2')).result?.gasUsedRatio).toHaveLength(2);
    expect((await written('"0x2"')).result?.gasUsedRatio).toHaveLength(2);
  });
});

describe('eth_feeHistory percentiles and range', () => {
  // FeeHistory(ctx, blockCount, lastBlock, rewardPercentiles []float64): a fractional percentile is an ordinary
  // float64, and processPercentiles answers one reward per percentile. The engine alone answers -32602 "invalid type: null,
  // expected f64 at line 1 column 80": the engine was handed a null where 10.5 was sent.
  it("viem's getFeeHistory takes fractional percentiles (10.5, 90)", async () => {
    const { pub } = cClients(node.url);
    const history = await pub.getFeeHistory({ blockCount: 2, blockTag: 'latest', rewardPercentiles: [10.5, 90] });
    expect(history.reward).toHaveLength(2);
    expect(history.reward!.every((rewards) => rewards.length === 2)).toBe(true);
  });

  // feehistory.go: `if i > 0 && p <= rewardPercentiles[i-1]` refuses a repeated percentile with
  // fmt.Errorf("%w: #%d:%f >= #%d:%f", errInvalidPercentile, i-1, rewardPercentiles[i-1], i, p), -32000. The engine
  // alone allows non-decreasing percentiles and answers a history for [50, 50].
  it('refuses a repeated percentile, as it refuses a decreasing one', async () => {
    expect((await feeHistory(['0x2', 'latest', [50, 50]])).error).toEqual({
      code: -32000,
      message: 'invalid reward percentile: #0:50.000000 >= #1:50.000000',
    });
  });

  // Same checks, coreth's words: "invalid reward percentile: #0:75.000000 >= #1:25.000000" and, for p > 100,
  // fmt.Errorf("%w: %f", errInvalidPercentile, p). The engine alone answers its "The reward percentiles should be in
  // non-decreasing order, but the percentile number 1 is greater than the next one" and "The reward percentile number
  // 1 is invalid. It must be a float between 0 and 100, but is 101 instead."
  it("refuses a decreasing or out-of-range percentile in coreth's words", async () => {
    expect((await feeHistory(['0x2', 'latest', [75, 25]])).error?.message).toBe(
      'invalid reward percentile: #0:75.000000 >= #1:25.000000',
    );
    expect((await feeHistory(['0x2', 'latest', [101]])).error?.message).toBe('invalid reward percentile: 101.000000');
  });

  // resolveBlockRange: `else if lastBlock > lastAcceptedBlock` returns fmt.Errorf("%w: requested %d, head %d",
  // errRequestBeyondHead, lastBlock, lastAcceptedBlock). The engine alone answers its "Received invalid block tag 9.
  // Latest block number is 1".
  it('refuses a last block past the head with errRequestBeyondHead', async () => {
    const { pub } = cClients(node.url);
    const head = await pub.getBlockNumber();
    expect((await feeHistory(['0x2', '0x9', [50]])).error).toEqual({
      code: -32000,
      message: `request beyond head block: requested 9, head ${head}`,
    });
  });

  // graft/evm/rpc/types.go (v1.14.2) BlockNumber.UnmarshalJSON reads "accepted" as FinalizedBlockNumber, and
  // resolveBlockRange's `if lastBlock.IsAccepted() { lastBlock = lastAcceptedBlock }` ends the range at the last
  // accepted block, as for "latest" here (every block the mock builds is accepted). The engine alone answers -32004 "Method
  // eth_feeHistory is not supported": its engine does not know the tag.
  it('reads the "accepted" tag as the last accepted block', async () => {
    const latest = await feeHistory(['0x2', 'latest', [50]]);
    expect(await feeHistory(['0x2', 'accepted', [50]])).toEqual(latest);
  });

  // resolveBlockRange: one block ending at pending is none (`blocks--`, then `if blocks == 0 { return 0, 0, nil }`), and
  // FeeHistory answers "no data and no error": oldestBlock 0, gasUsedRatio nil (null), no reward, no baseFeePerGas.
  it('answers no data for one block ending at "pending"', async () => {
    expect((await feeHistory(['0x1', 'pending', [50]])).result).toEqual({ oldestBlock: '0x0', gasUsedRatio: null });
  });
});
