/**
 * coreth's pool floor on the tip (core/txpool/validation.go ValidateTransaction: "transaction underpriced: gas tip cap
 * T, minimum needed 1"): RPC transactions are not local on a default node (local-txs-enabled false, so NoLocals,
 * plugin/evm/vm.go), so legacypool's gasTip, tx-pool-price-limit's 1 wei, applies to them. The checks before it in
 * ValidateTransaction (the block gas limit, the intrinsic gas...) answer first; a refused transaction changes nothing.
 */
import { http, type Hex, createPublicClient, createTestClient, createWalletClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const TO: Hex = '0x00000000000000000000000000000000000000b0';
const UNDERPRICED = 'transaction underpriced: gas tip cap 0, minimum needed 1';

/** A transfer signed by viem with `fees`, sent raw: the node's error text, and whether nothing moved. */
async function sendRaw(fees: Record<string, unknown>) {
  const { pub, wallet, account } = cClients(node.url);
  const nonce = await pub.getTransactionCount({ address: account.address });
  const height = await pub.getBlockNumber();
  const request = await wallet.prepareTransactionRequest({ account, to: TO, value: 1n, ...fees });
  const raw = await wallet.signTransaction(request as Parameters<typeof wallet.signTransaction>[0]);
  const error = await pub.sendRawTransaction({ serializedTransaction: raw }).then(
    () => undefined,
    (e: { details?: string }) => e.details,
  );
  expect(await pub.getTransactionCount({ address: account.address })).toBe(nonce);
  expect(await pub.getBlockNumber()).toBe(height);
  return error;
}

describe("the pool's minimum tip", () => {
  it('refuses a dynamic-fee transaction tipping 0', async () => {
    expect(await sendRaw({ maxPriorityFeePerGas: 0n, maxFeePerGas: 10n ** 9n })).toBe(UNDERPRICED);
  });

  it('refuses a fee cap of 0 by its tip, before the base fee', async () => {
    expect(await sendRaw({ maxPriorityFeePerGas: 0n, maxFeePerGas: 0n })).toBe(UNDERPRICED);
  });

  it('refuses a legacy or access-list transaction priced 0 (its price is its tip)', async () => {
    expect(await sendRaw({ type: 'legacy', gasPrice: 0n })).toBe(UNDERPRICED);
    expect(await sendRaw({ type: 'eip2930', gasPrice: 0n, accessList: [] })).toBe(UNDERPRICED);
  });

  it("answers the checks before it first: the intrinsic gas, the block's gas limit", async () => {
    const { account } = cClients(node.url);
    expect(await sendRaw({ maxPriorityFeePerGas: 0n, maxFeePerGas: 10n ** 9n, gas: 20_000n })).toBe(
      `intrinsic gas too low: address ${account.address} tx gas (20000), minimum needed 21000`,
    );
    expect(await sendRaw({ maxPriorityFeePerGas: 0n, maxFeePerGas: 10n ** 9n, gas: 10n ** 9n })).toMatch(
      /^exceeds block gas limit: tx gas \(1000000000\) > current max gas \(\d+\)$/,
    );
  });

  it('takes a tip of 1 wei', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const request = await wallet.prepareTransactionRequest({
      account,
      to: TO,
      value: 1n,
      maxPriorityFeePerGas: 1n,
      maxFeePerGas: 10n ** 9n,
    });
    const hash = await pub.sendRawTransaction({ serializedTransaction: await wallet.signTransaction(request) });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
  });

  it('refuses an impersonated send tipping 0 too (the same pool)', async () => {
    const rpc = `${node.url}/ext/bc/C/rpc`;
    const whale: Hex = '0x00000000000000000000000000000000000a11ce';
    const test = createTestClient({ mode: 'anvil', transport: http(rpc) });
    await test.impersonateAccount({ address: whale });
    await test.setBalance({ address: whale, value: 10n ** 20n });
    const wallet = createWalletClient({ transport: http(rpc), account: whale });
    const error = await wallet
      .sendTransaction({ chain: null, to: TO, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 0n })
      .then(
        () => undefined,
        (e: { details?: string }) => e.details,
      );
    expect(error).toBe(UNDERPRICED);
    expect(await createPublicClient({ transport: http(rpc) }).getTransactionCount({ address: whale })).toBe(0);
  });
});
