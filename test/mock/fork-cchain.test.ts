/**
 * The C-Chain of a fork, through the EVM engine's own fork support: the source's C-Chain balances read through, the
 * fork's funded keys funded on top, the source's C-Chain unchanged by what the fork does, and the source's later
 * C-Chain blocks not in the fork.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';

let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

const rpc = async (url: string, method: string, params: unknown[]) => {
  const answer = await callRpc(`${url}/ext/bc/C/rpc`, method, params);
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
};

beforeAll(async () => {
  source = await startMockNode({ accounts: 2, seed: 'c source' });
  fork = await startMockNode({ accounts: 1, seed: 'c fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's C-Chain", () => {
  it("reads the source's balances and funds its own keys", async () => {
    const address = source.keys[1]!.c;
    const atSource = await rpc(source.url, 'eth_getBalance', [address, 'latest']);
    expect(BigInt(atSource as string)).toBeGreaterThan(0n);
    expect(await rpc(fork.url, 'eth_getBalance', [address, 'latest'])).toBe(atSource);
    expect(BigInt((await rpc(fork.url, 'eth_getBalance', [fork.keys[0]!.c, 'latest'])) as string)).toBeGreaterThan(0n);
    expect(await rpc(source.url, 'eth_getBalance', [fork.keys[0]!.c, 'latest'])).toBe('0x0');
  });

  it("keeps the source's C-Chain changes after the fork's engine started out", async () => {
    const forkBlock = await rpc(fork.url, 'eth_blockNumber', []);
    const to = `0x${'5a'.repeat(20)}`;
    const hash = await source.wallet(1).send('C', to, 123_456n);
    expect(await rpc(source.url, 'eth_getBalance', [to, 'latest'])).toBe('0x1e240');
    expect(await rpc(fork.url, 'eth_getBalance', [to, 'latest'])).toBe('0x0');
    // The source's block with the transfer is above the fork's last accepted block: not one of the fork's (coreth's
    // ErrUnfinalizedData), nor is the transfer.
    const next = `0x${(BigInt(forkBlock as string) + 1n).toString(16)}`;
    expect(await callRpc(`${fork.url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', [next, false])).toEqual({
      error: { code: -32000, message: 'cannot query unfinalized data' },
    });
    expect(await rpc(source.url, 'eth_getTransactionReceipt', [hash])).not.toBeNull();
    expect(await rpc(fork.url, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await rpc(fork.url, 'eth_getTransactionByHash', [hash])).toBeNull();
    expect(await rpc(fork.url, 'eth_blockNumber', [])).toBe(forkBlock);
  });

  it('finds its own transactions by hash', async () => {
    const hash = await fork.wallet(0).send('C', `0x${'6b'.repeat(20)}`, 1_000n);
    const receipt = (await rpc(fork.url, 'eth_getTransactionReceipt', [hash])) as { transactionHash: string } | null;
    expect(receipt?.transactionHash).toBe(hash);
    expect(((await rpc(fork.url, 'eth_getTransactionByHash', [hash])) as { hash: string } | null)?.hash).toBe(hash);
    expect(await rpc(source.url, 'eth_getTransactionReceipt', [hash])).toBeNull();
  });
});
