/**
 * The C-Chain of a fork, through the EVM engine's own fork support: the source's C-Chain balances read through, the
 * fork's funded keys funded on top, and the source's C-Chain unchanged by what the fork does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';

let source: MockNodeHandle;
let fork: MockNodeHandle;

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
});
