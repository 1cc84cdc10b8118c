/**
 * The C-Chain's fees as coreth sets them since Fortuna, through viem: ACP-176's base fee (1 wei on a fresh chain, and
 * still 1 wei after a block of 9,000,000 gas, where EIP-1559 would have doubled it), and the gas price oracle's tip
 * (1 wei with no transactions, then the tips paid) in eth_maxPriorityFeePerGas, eth_gasPrice and eth_feeHistory.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const clients = () => cClients(node.url);

/**
 * Init code that loops until its gas runs out, reading the balance of a new (cold) address each time: a block that
 * uses all the gas the tx was given, in few steps.
 */
const BURN_ALL_GAS: Hex = '0x5b5a3150600056';

describe('C-Chain fees', () => {
  it('suggests the minimum tip and base fee on a fresh chain', async () => {
    const { pub } = clients();
    const call = (method: string) => pub.request({ method: method as never }) as Promise<string>;
    expect(await call('eth_baseFee')).toBe('0x1');
    expect(await call('eth_maxPriorityFeePerGas')).toBe('0x1');
    expect(await call('eth_gasPrice')).toBe('0x2');
  });

  it("keeps ACP-176's base fee after a block of 9,000,000 gas, where EIP-1559 would raise it", async () => {
    const { pub, wallet } = clients();
    const hash = await wallet.sendTransaction({
      data: BURN_ALL_GAS,
      gas: 9_000_000n,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
    });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.gasUsed).toBe(9_000_000n);
    expect((await pub.getBlock({ blockNumber: receipt.blockNumber })).gasUsed).toBe(9_000_000n);
    expect(await pub.request({ method: 'eth_baseFee' as never })).toBe('0x1');
    const history = await pub.getFeeHistory({ blockCount: 1, rewardPercentiles: [] });
    // coreth's Oracle.FeeHistory gives the range's base fees only, not the next block's as geth does.
    expect(history.baseFeePerGas).toEqual([1n]);
    const next = await wallet.sendTransaction({
      to: wallet.account.address,
      value: 1n,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
    });
    const block = await pub.getBlock({
      blockNumber: (await pub.waitForTransactionReceipt({ hash: next })).blockNumber,
    });
    expect(block.baseFeePerGas).toBe(1n);
  });

  it('suggests the tips recent transactions paid', async () => {
    const { pub, wallet } = clients();
    const tip = 5_000_000_000n;
    const hash = await wallet.sendTransaction({
      to: wallet.account.address,
      value: 1n,
      maxFeePerGas: 2n * tip,
      maxPriorityFeePerGas: tip,
    });
    await pub.waitForTransactionReceipt({ hash });
    // The 40th percentile of the last blocks' tips: 1, 1, 5 gwei.
    expect(await pub.estimateMaxPriorityFeePerGas()).toBe(1n);
    for (let i = 0; i < 3; i++)
      await pub.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({
          to: wallet.account.address,
          value: 1n,
          maxFeePerGas: 2n * tip,
          maxPriorityFeePerGas: tip,
        }),
      });
    expect(await pub.estimateMaxPriorityFeePerGas()).toBe(tip);
    expect(await pub.getGasPrice()).toBe(tip + 1n);
  });
});
