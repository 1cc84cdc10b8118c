/**
 * Subscriptions by the thousand on `/ext/bc/C/ws`: geth's filter system reads each block's logs once and hands them to
 * every subscriber. The mock read them once per `logs` subscription, inside the block's acceptance: 2,000 of them made
 * every block wait for 2,000 engine reads, and any client may open as many connections of 1,000 as it likes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

/** A connection subscribed `count` times to `params`, and the notifications it receives. */
async function subscribed(count: number, params: unknown[]) {
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const notified: unknown[] = [];
  let answered = 0;
  const all = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { method?: string; params?: { result: unknown } };
      if (message.method === 'eth_subscription') notified.push(message.params!.result);
      else if (++answered === count) resolve();
    }),
  );
  for (let id = 0; id < count; id++) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params }));
  await all;
  return { ws, notified };
}

const rpc = async (method: string, params: unknown[] = []) =>
  JSON.parse(
    (await send(`${node.url}/ext/bc/C/rpc`, { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).text,
  );

describe('a block under thousands of subscriptions', () => {
  it('has its logs read once, whatever the number of logs subscriptions, and each subscription notified', async () => {
    const logs = [await subscribed(1000, ['logs', {}]), await subscribed(1000, ['logs', {}])];
    const heads = await subscribed(1000, ['newHeads']);
    const chain = node.state.cChain.loaded!.chain;
    const reads: string[] = [];
    const call = chain.call.bind(chain);
    chain.call = (provider, method, params) => {
      reads.push(method);
      return call(provider, method, params);
    };
    try {
      // A contract creation whose code logs once (PUSH1 0 PUSH1 0 LOG0), mined at once.
      const from = '0x00000000000000000000000000000000000000bb';
      await rpc('hardhat_impersonateAccount', [from]);
      await rpc('hardhat_setBalance', [from, '0xde0b6b3a7640000']);
      expect((await rpc('eth_sendTransaction', [{ from, data: '0x60006000a000' }])).result).toMatch(/^0x/);
      await expect.poll(() => heads.notified.length, { timeout: 30_000 }).toBe(1000);
      for (const connection of logs)
        await expect.poll(() => connection.notified.length, { timeout: 30_000 }).toBe(1000);
      expect(reads.filter((method) => method === 'eth_getLogs')).toHaveLength(1);
      // Each subscription was sent the same block and the same log.
      expect(new Set(heads.notified.map((header) => JSON.stringify(header))).size).toBe(1);
      expect(new Set(logs.flatMap((c) => c.notified).map((log) => JSON.stringify(log))).size).toBe(1);
    } finally {
      chain.call = call;
      for (const { ws } of [...logs, heads]) ws.close();
    }
  }, 60_000);
});
