/**
 * ethers v6 and viem deploying a contract whose constructor reverts: the transaction is mined with status 0, and its
 * receipt names the address the contract would have had, as coreth's does (types.Receipts.DeriveFields gives every
 * creation CreateAddress(sender, nonce), whether it succeeded or not) — in eth_getTransactionReceipt and
 * eth_getBlockReceipts alike.
 */
import { JsonRpcProvider, Wallet, getCreateAddress, isError } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';
import { EWOQ } from './sdk-world.ts';

let node: RunningMockNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { pollingInterval: 20, cacheTimeout: -1 });
  wallet = new Wallet(`0x${Buffer.from(EWOQ).toString('hex')}`, provider);
});
afterAll(async () => {
  provider?.destroy();
  await node?.close();
});

/** Init code that reverts at once: PUSH1 0 PUSH1 0 REVERT. */
const REVERTING_INIT = '0x60006000fd';

describe('a reverted deployment', () => {
  it('ethers: wait() throws CALL_EXCEPTION, and the receipt names the would-be contract', async () => {
    const tx = await wallet.sendTransaction({ data: REVERTING_INIT, gasLimit: 100_000n });
    const error = await tx.wait().catch((e: unknown) => e);
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    const receipt = await provider.waitForTransaction(tx.hash);
    expect(receipt?.status).toBe(0);
    expect(receipt?.contractAddress).toBe(getCreateAddress({ from: wallet.address, nonce: tx.nonce }));
    const { result } = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getBlockReceipts', [
      `0x${receipt!.blockNumber.toString(16)}`,
    ]);
    expect(result[0].contractAddress).toBe(receipt!.contractAddress!.toLowerCase());
  });

  it('viem: the receipt of a reverted deployment has its contract address; a transfer has none', async () => {
    const { pub, wallet: w, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const hash = await w.sendTransaction({ data: REVERTING_INIT, gas: 100_000n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(receipt.contractAddress).toBe(getCreateAddress({ from: account.address, nonce }).toLowerCase());
    const transfer = await pub.waitForTransactionReceipt({
      hash: await w.sendTransaction({ to: account.address, value: 1n }),
    });
    expect(transfer.contractAddress).toBeNull();
  });
});
