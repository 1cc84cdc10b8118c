/**
 * eth_sendRawTransaction of a transaction past coreth v1.14.2's own bounds, checked before funds or nonce:
 * - SubmitTransaction (graft/coreth/internal/ethapi/api.go:1780) first runs checkTxFee (:2146) with RPCTxFeeCap,
 *   100 (plugin/evm/config/default_config.go:42): fee cap × gas over 100 AVAX is -32000
 *   `tx fee (%.2f ether) exceeds the configured cap (%.2f ether)`, whatever the sender holds;
 * - the pool then refuses a transaction larger than txMaxSize, 4 × 32 KiB = 131,072 bytes
 *   (core/txpool/legacypool/legacypool.go:71, :685; core/txpool/validation.go:75):
 *   `oversized data: transaction size <raw bytes>, limit 131072`, even from a funded sender.
 * A refused transaction changes nothing: the sender's nonce stays.
 */
import { type HDNodeWallet, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

/** The ewoq key, which holds the local genesis's C-Chain funds. */
const EWOQ_HEX = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const LOCAL_CHAIN_ID = 43112;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

async function call(method: string, params: unknown[]) {
  const answer = await send(`${node.url}/ext/bc/C/rpc`, {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return JSON.parse(answer.text) as { result?: unknown; error?: { code: number; message: string } };
}

const transfer = (wallet: Wallet | HDNodeWallet, fields: Record<string, unknown>) =>
  wallet.signTransaction({
    type: 2,
    chainId: LOCAL_CHAIN_ID,
    nonce: 0,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1n,
    gasLimit: 21_000,
    to: wallet.address,
    ...fields,
  });

describe('eth_sendRawTransaction past RPCTxFeeCap (100 AVAX)', () => {
  it('refuses a fee cap × gas of 210 AVAX with checkTxFee, before the balance', async () => {
    const raw = await transfer(Wallet.createRandom(), { maxFeePerGas: 10_000_000_000_000_000n });
    expect((await call('eth_sendRawTransaction', [raw])).error).toEqual({
      code: -32000,
      message: 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)',
    });
  });

  it('refuses a fee cap of 2^255 the same way (a valid 256-bit value), not as a decoding overflow', async () => {
    const raw = await transfer(Wallet.createRandom(), { maxFeePerGas: 1n << 255n });
    const { error } = await call('eth_sendRawTransaction', [raw]);
    expect(error?.code).toBe(-32000);
    expect(error?.message).toMatch(/^tx fee \(\d+\.\d\d ether\) exceeds the configured cap \(100\.00 ether\)$/);
  });
});

describe('eth_sendRawTransaction over txMaxSize (131,072 bytes)', () => {
  it('refuses a funded 200 KB transaction as oversized and leaves its sender as it was', async () => {
    const ewoq = new Wallet(EWOQ_HEX);
    const before = await call('eth_getTransactionCount', [ewoq.address, 'latest']);
    const raw = await transfer(ewoq, {
      nonce: Number(before.result),
      data: `0x${'00'.repeat(200_000)}`,
      gasLimit: 1_000_000,
    });
    const size = (raw.length - 2) / 2;
    expect((await call('eth_sendRawTransaction', [raw])).error).toEqual({
      code: -32000,
      message: `oversized data: transaction size ${size}, limit 131072`,
    });
    expect((await call('eth_getTransactionCount', [ewoq.address, 'latest'])).result).toBe(before.result);
  });
});
