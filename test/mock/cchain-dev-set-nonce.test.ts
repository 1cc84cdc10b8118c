/**
 * viem's test client setting nonces, as anvil and Hardhat answer. anvil's `anvil_setNonce` (crates/anvil/src/eth/api.rs
 * → backend `set_nonce`: `self.db.write().await.set_nonce(address, nonce…)`) sets any nonce, lower ones too, which the
 * mock cannot (its engine is Hardhat's EDR): it refuses one and says why. Hardhat's EDR refuses a lower one with -32000
 * "New nonce (P) must not be smaller than the existing nonce (E)" (crates/edr_provider/src/error.rs
 * SetAccountNonceLowerThanCurrent, data.rs set_account_nonce).
 */
import { createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const testClient = (mode: 'anvil' | 'hardhat') => {
  const { chain } = cClients(node.url);
  return createTestClient({ mode, chain, transport: http(`${node.url}/ext/bc/C/rpc`) });
};

describe('setNonce through viem', () => {
  it("anvil mode: a nonce set lower than the account has is refused, saying the mock's EVM only raises one", async () => {
    // anvil itself takes it (its db's set_nonce); the mock's engine, Hardhat's EDR, cannot lower a nonce.
    const address = '0x00000000000000000000000000000000000000a1';
    const test = testClient('anvil');
    const { pub } = cClients(node.url);
    await test.setNonce({ address, nonce: 5 });
    expect(await pub.getTransactionCount({ address })).toBe(5);
    const refusal = await test
      .setNonce({ address, nonce: 2 })
      .catch((error: { code?: number; details?: string }) => error);
    expect(refusal).toMatchObject({
      code: -32000,
      details: "nonce 2 is below the account's nonce 5: the mock's EVM only raises a nonce",
    });
    expect(await pub.getTransactionCount({ address })).toBe(5);
  });

  it("hardhat mode: a lower nonce is refused in Hardhat's words", async () => {
    const address = '0x00000000000000000000000000000000000000a2';
    const test = testClient('hardhat');
    const { pub } = cClients(node.url);
    await test.setNonce({ address, nonce: 5 });
    expect(await pub.getTransactionCount({ address })).toBe(5);
    const refusal = await test.setNonce({ address, nonce: 1 }).catch((error: { details?: string }) => error);
    expect((refusal as { details?: string }).details).toBe(
      'New nonce (1) must not be smaller than the existing nonce (5)',
    );
    expect(await pub.getTransactionCount({ address })).toBe(5);
  });

  it('a nonce raised with setNonce is the one the next viem transfer from an impersonated account uses', async () => {
    const address = '0x00000000000000000000000000000000000000a3';
    const test = testClient('anvil');
    const { pub, chain } = cClients(node.url);
    await test.setBalance({ address, value: 10n ** 18n });
    await test.setNonce({ address, nonce: 7 });
    await test.impersonateAccount({ address });
    const hash = await test.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to: '0x00000000000000000000000000000000000000b3', value: '0x1' }],
    } as never);
    const receipt = await pub.waitForTransactionReceipt({ hash: hash as `0x${string}` });
    const tx = await pub.getTransaction({ hash: receipt.transactionHash });
    expect({ chainId: tx.chainId, nonce: tx.nonce, status: receipt.status }).toEqual({
      chainId: chain.id,
      nonce: 7,
      status: 'success',
    });
  });
});
