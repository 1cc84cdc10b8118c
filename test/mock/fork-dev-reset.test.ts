/**
 * anvil_reset / hardhat_reset with forking params on a fork (a source mock node on 127.0.0.1 as the live network):
 * Hardhat's and anvil's `{ forking: { jsonRpcUrl, blockNumber } }` naming the fork's own source and block (or no block)
 * puts the fork back at its fork point, as the tests written for Hardhat's `reset(url, block)` expect; another URL or
 * block is refused with the reason, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';

let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

const call = (method: string, params: unknown[]) => callRpc(`${fork.url}/ext/bc/C/rpc`, method, params);
const TO = `0x${'7c'.repeat(20)}`;

beforeAll(async () => {
  source = await startMockNode({ accounts: 1, seed: 'reset source' });
  fork = await startMockNode({ accounts: 1, seed: 'reset fork', fork: { url: source.url, cacheDir: false } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe('reset with forking params on a fork', () => {
  it('goes back to the fork point given the source (either URL form) and the fork block, or no block', async () => {
    const forkBlock = (await call('eth_blockNumber', [])).result as string;
    const info = (await call('anvil_nodeInfo', [])).result;
    expect(info.forkConfig).toEqual({
      forkUrl: `${source.url}/ext/bc/C/rpc`,
      forkBlockNumber: Number(forkBlock),
      forkRetryBackoff: null,
    });
    expect((await call('anvil_metadata', [])).result.forkedNetwork).toMatchObject({
      chainId: 43112,
      forkBlockNumber: Number(forkBlock),
    });
    for (const [method, forking] of [
      ['hardhat_reset', { jsonRpcUrl: `${source.url}/ext/bc/C/rpc`, blockNumber: Number(forkBlock) }],
      ['anvil_reset', { jsonRpcUrl: source.url }],
      ['hardhat_reset', { jsonRpcUrl: `${source.url}/ext/bc/C/rpc`, blockNumber: forkBlock }],
    ] as const) {
      await fork.wallet(0).send('C', TO, 5n);
      expect((await call('eth_getBalance', [TO, 'latest'])).result).toBe('0x5');
      const answer = await call(method, [{ forking }]);
      expect(answer).toEqual({ result: method === 'anvil_reset' ? null : true });
      expect((await call('eth_getBalance', [TO, 'latest'])).result).toBe('0x0');
      expect((await call('eth_blockNumber', [])).result).toBe(forkBlock);
    }
  });

  it('refuses another source or another block, changing nothing', async () => {
    await fork.wallet(0).send('C', TO, 7n);
    const forkBlock = Number((await call('anvil_nodeInfo', [])).result.forkConfig.forkBlockNumber);
    const other = await call('hardhat_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1/ext/bc/C/rpc' } }]);
    expect(other.error).toEqual({
      code: -32602,
      message: `the mock forks only as it starts (--fork-url): reset takes only its source, ${source.url}, not http://127.0.0.1:1/ext/bc/C/rpc`,
    });
    const block = await call('anvil_reset', [{ forking: { jsonRpcUrl: source.url, blockNumber: forkBlock + 1 } }]);
    expect(block.error).toEqual({
      code: -32602,
      message: `the mock forks only as it starts (--fork-url): reset takes only its fork block, ${forkBlock}, not ${forkBlock + 1}`,
    });
    expect((await call('eth_getBalance', [TO, 'latest'])).result).toBe('0x7');
  });
});
