/**
 * A WebSocket client of `/ext/bc/C/ws` that stops reading: geth's write blocks, and a message not written within
 * defaultWriteTimeout (10 s, graft/evm/rpc/json.go:50) ends the connection. The mock used to buffer every answer in
 * memory instead (60 answers of 4 MB: 300 MB) until the ping timeout cut the client a minute later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
let url: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
  url = `${node.url.replace('http', 'ws')}/ext/bc/C/ws`;
});
afterAll(() => node?.close());

// Code that returns 2 MiB of zeros: a call of 200 bytes whose answer is 4 MB of hex.
const SIZE = 2 * 1024 * 1024;
const TO = '0x00000000000000000000000000000000000000aa';
const bigCall = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'eth_call',
    params: [
      { to: TO, gas: '0x2faf080' },
      'latest',
      { [TO]: { code: `0x62${SIZE.toString(16).padStart(6, '0')}6000f3` } },
    ],
  });

async function open(): Promise<WebSocket> {
  const ws = new WebSocket(url, { maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

describe('a WebSocket client that stops reading', () => {
  it('is cut once an answer waits unwritten, with its answers never piling up, and others are served', async () => {
    const hostile = await open();
    const firstAnswer = new Promise<string>((resolve) => hostile.once('message', (data) => resolve(data.toString())));
    hostile.send(bigCall(0));
    expect(JSON.parse(await firstAnswer).result).toHaveLength(2 + 2 * SIZE);
    // The client's socket is no longer read: the node's answers fill the kernel's buffers, then wait.
    (hostile as unknown as { _socket: { pause(): void } })._socket.pause();
    const base = process.memoryUsage().rss;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base);
    }, 20);
    const cut = new Promise<void>((resolve) => {
      hostile.on('close', () => resolve());
      hostile.on('error', () => resolve());
    });
    for (let id = 1; id <= 60; id++) hostile.send(bigCall(id));

    const neighbour = await open();
    const answer = new Promise<string>((resolve) => neighbour.once('message', (data) => resolve(data.toString())));
    neighbour.send('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
    expect(JSON.parse(await answer)).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' });
    neighbour.close();

    // The cut reaches a client that reads nothing only when it writes: it pings until a write fails.
    const poker = setInterval(() => hostile.readyState === hostile.OPEN && hostile.ping(), 250);
    await cut;
    clearInterval(poker);
    clearInterval(sampler);
    // Unbounded, the 60 answers held 300 MB; bounded, one answer at a time waits.
    expect(peak).toBeLessThan(120 * 1024 * 1024);
  }, 50_000);
});

describe('a WebSocket client subscribed 1,000 times that stops reading', () => {
  it('is cut once its notifications back up past their bound, before they fill memory', async () => {
    const hostile = await open();
    let answered = 0;
    const subscribed = new Promise<void>((resolve) =>
      hostile.on('message', () => {
        if (++answered === 1000) resolve();
      }),
    );
    for (let id = 0; id < 1000; id++)
      hostile.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] }));
    await subscribed;
    (hostile as unknown as { _socket: { pause(): void } })._socket.pause();
    const base = process.memoryUsage().rss;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base);
    }, 20);
    // 500 blocks, each a header to each of the 1,000 subscriptions: 500 MB of notifications unbounded.
    const mined = await fetch(`${node.url}/ext/bc/C/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"hardhat_mine","params":["0x1f4"]}',
    });
    expect(await mined.json()).toMatchObject({ result: true });
    const cut = new Promise<void>((resolve) => {
      hostile.on('close', () => resolve());
      hostile.on('error', () => resolve());
    });
    const poker = setInterval(() => hostile.readyState === hostile.OPEN && hostile.ping(), 250);
    await cut;
    clearInterval(poker);
    clearInterval(sampler);
    expect(peak).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});
