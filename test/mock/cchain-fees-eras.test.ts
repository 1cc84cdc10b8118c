/**
 * The C-Chain's fees of releases before Fortuna (v1.13.0), through viem: coreth's windowed base fee (225 gwei at
 * first, 1/36 of the way to the 15,000,000 gas target a block, never under 25 gwei before Etna (v1.12.0) and 1 gwei
 * from it), the oracle's tip (1 wei on blocks of little gas) and base fee, eth_feeHistory, the 15,000,000 gas limit;
 * the release's chain config and Ethereum fork (Shanghai before Etna, Cancun from it); and v1.13.x's oracle, which
 * suggests the blocks' minimum required tip where v1.14.0's suggests the tips paid.
 */
import type { Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

const GWEI = 1_000_000_000n;
const TO = '0x000000000000000000000000000000000000dEaD';
const nodes: RunningMockNode[] = [];
afterAll(async () => {
  for (const node of nodes) await node.close();
});

async function start(nodeVersion: string) {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, nodeVersion });
  nodes.push(node);
  return { node, ...cClients(node.url) };
}

/** dynamic_fees.go CalcBaseFee after AP5 with nothing else in the window: the parent's gas against the target. */
const nextAfter = (baseFee: bigint, gasUsed: bigint) =>
  baseFee - (((15_000_000n - gasUsed) * baseFee) / 15_000_000n / 36n || 1n);

/** Init code that burns all the gas it is given (see cchain-fees.test.ts). */
const BURN_ALL_GAS: Hex = '0x5b5a3150600056';

describe.each([
  ['v1.11.13', 25n * GWEI, false],
  ['v1.12.2', GWEI, true],
])('C-Chain fees of %s', (release, minimum, etna) => {
  it('starts at 225 gwei and lowers the base fee block by block to its minimum', async () => {
    const { node, pub } = await start(release);
    expect(await pub.request({ method: 'eth_baseFee' as never })).toBe(`0x${(225n * GWEI).toString(16)}`);
    expect(await pub.estimateMaxPriorityFeePerGas()).toBe(1n);
    expect(await pub.getGasPrice()).toBe(225n * GWEI + 1n);
    expect((await pub.getBlock({ blockNumber: 0n })).baseFeePerGas).toBe(225n * GWEI);

    await node.state.dev.mine({ chain: 'C', blocks: 3 });
    const fees = [];
    for (let n = 1n; n <= 3n; n++) fees.push((await pub.getBlock({ blockNumber: n })).baseFeePerGas!);
    expect(fees).toEqual([225n * GWEI, nextAfter(225n * GWEI, 0n), nextAfter(nextAfter(225n * GWEI, 0n), 0n)]);
    expect((await pub.getBlock({ blockNumber: 1n })).gasLimit).toBe(15_000_000n);
    const history = await pub.getFeeHistory({ blockCount: 3, blockTag: 'latest', rewardPercentiles: [50] });
    expect(history.oldestBlock).toBe(1n);
    expect(history.baseFeePerGas).toEqual(fees);
    // The oracle's base fee: the sampled one or the next block's, whichever is lower.
    expect(BigInt(await pub.request({ method: 'eth_baseFee' as never }))).toBe(nextAfter(fees[2]!, 0n));

    await node.state.dev.mine({ chain: 'C', blocks: 250 });
    const latest = await pub.getBlock();
    expect(latest.baseFeePerGas).toBe(minimum);
    expect(BigInt(await pub.request({ method: 'eth_baseFee' as never }))).toBe(minimum);
    expect(await pub.getGasPrice()).toBe(minimum + 1n);
  });

  it('lowers the base fee less after a block that used gas', async () => {
    const { node, pub, wallet } = await start(release);
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const hash = await wallet.sendTransaction({ data: BURN_ALL_GAS, gas: 9_000_000n, maxPriorityFeePerGas: 1n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.gasUsed).toBe(9_000_000n);
    const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.baseFeePerGas).toBe(nextAfter(225n * GWEI, 0n));
    expect(BigInt(await pub.request({ method: 'eth_baseFee' as never }))).toBe(
      nextAfter(block.baseFeePerGas!, 9_000_000n),
    );
  });

  it("writes the release's chain config and its Ethereum fork's block fields", async () => {
    const { node, pub } = await start(release);
    const config = (await pub.request({ method: 'eth_getChainConfig' as never })) as Record<string, number>;
    expect(config).not.toHaveProperty('fortunaTimestamp');
    expect(config).not.toHaveProperty('graniteTimestamp');
    // Etna's field is there since v1.11.11, unscheduled (9999-12-01T00:00:00Z) until v1.12.0 brings its rules.
    expect(config.etnaTimestamp).toBe(etna ? 1607144400 : 253399622400);
    // Until v1.13.1 SetEthUpgrades set Cancun at Etna's time, scheduled or not.
    expect(config.cancunTime).toBe(config.etnaTimestamp);
    expect(config.shanghaiTime).toBe(1607144400);
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const block = (await pub.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as object;
    expect('blobGasUsed' in block).toBe(etna);
    expect('timestampMilliseconds' in block).toBe(false);
  });

  it('has no eth_suggestPriceOptions (coreth v0.15.0, AvalancheGo v1.13.0)', async () => {
    const { pub } = await start(release);
    await expect(pub.request({ method: 'eth_suggestPriceOptions' as never })).rejects.toThrow(
      /the method eth_suggestPriceOptions does not exist\/is not available/,
    );
  });
});

describe('C-Chain fees of v1.13.1 (Fortuna, before v1.14.0)', () => {
  it("suggests blocks' minimum required tip, not the tips their transactions paid", async () => {
    const { pub, wallet } = await start('v1.13.1');
    const tip = 5n * GWEI;
    for (let i = 0; i < 4; i++)
      await pub.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to: TO, value: 1n, maxFeePerGas: 2n * tip, maxPriorityFeePerGas: tip }),
      });
    // Blocks of less than 1,000,000 gas (gasprice.DefaultMinGasUsed) require no tip: the tx pool's minimum, 1 wei.
    expect(await pub.estimateMaxPriorityFeePerGas()).toBe(1n);
    expect(await pub.request({ method: 'eth_baseFee' as never })).toBe('0x1');
    expect(await pub.getGasPrice()).toBe(2n);
    const options = (await pub.request({ method: 'eth_suggestPriceOptions' as never })) as {
      normal: { maxPriorityFeePerGas: string };
    };
    expect(options.normal.maxPriorityFeePerGas).toBe('0x1');
  });
});

describe.each([
  ['v1.12.2', 'sampled'],
  ['v1.13.1', 'required'],
  ['v1.14.2', 'paid'],
])("the gas price oracle of %s on Fuji's blocks between Durango and Etna", (release, oracle) => {
  it("follows the release's oracle, not the blocks' era", async () => {
    const node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 0 }, nodeVersion: release });
    nodes.push(node);
    const { pub, wallet, account } = cClients(node.url, 43113);
    await node.dev.fund({ address: account.address, amount: String(1_000n * 1_000_000_000n) });
    await node.dev.setTime({ timestamp: String(Date.parse('2024-06-01T00:00:00Z') / 1000) });
    await node.dev.mine({ chain: 'C', blocks: 1 });
    const tip = 3n * GWEI;
    // Blocks of 9,000,000 gas in quick succession: the window fills past the 15,000,000 target, the base fee rises.
    for (let i = 0; i < 4; i++) {
      const hash = await wallet.sendTransaction({ data: BURN_ALL_GAS, gas: 9_000_000n, maxPriorityFeePerGas: tip });
      expect((await pub.waitForTransactionReceipt({ hash })).gasUsed).toBe(9_000_000n);
    }
    const latest = await pub.getBlockNumber();
    const blocks = [];
    for (let n = 1n; n <= latest; n++)
      blocks.push(
        (await pub.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })) as {
          baseFeePerGas: Hex;
          gasUsed: Hex;
          blockGasCost: Hex;
        },
      );
    const percentile60 = (values: bigint[]) =>
      values.sort((a, b) => (a < b ? -1 : 1))[(((values.length - 1) * 60) / 100) | 0]!;
    const baseFees = blocks.map((block) => BigInt(block.baseFeePerGas));
    const sampled = percentile60([...baseFees]);
    // The minimum required tip of each block: its block gas cost at its base fee over its gas (v1.12.x rounds down and
    // counts blocks of 6,000,000 gas, v1.13.x rounds up and counts 1,000,000; an empty block 0).
    const required = percentile60(
      blocks.map((block) => {
        const gas = BigInt(block.gasUsed);
        if (gas === 0n) return 0n;
        const fee = BigInt(block.blockGasCost) * BigInt(block.baseFeePerGas);
        return oracle === 'required' ? (fee + gas - 1n) / gas : fee / gas;
      }),
    );
    const baseFee = BigInt(await pub.request({ method: 'eth_baseFee' as never }));
    const suggestedTip = await pub.estimateMaxPriorityFeePerGas();
    await node.dev.mine({ chain: 'C', blocks: 1 });
    const next = (await pub.getBlock()).baseFeePerGas!;
    expect(next).toBeGreaterThan(baseFees.at(-1)!);
    expect(sampled).toBeLessThan(next);
    // EstimateBaseFee: the lower of the sampled base fee and the next block's until v1.13.0, the next block's since.
    expect(baseFee).toBe(oracle === 'sampled' ? sampled : next);
    // SuggestTipCap: the blocks' required tips until v1.14.0, the tips paid (40th percentile) since.
    expect(required).toBeGreaterThan(1n);
    expect(suggestedTip).toBe(oracle === 'paid' ? tip : required);
  });
});
