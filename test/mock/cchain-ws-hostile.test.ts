/**
 * Hostile messages to `/ext/bc/C/ws` (issue 26): each gets geth's answer (rpc/websocket.go, json.go, handler.go) and
 * the node keeps serving. One message nested 100,000 levels deep used to crash the whole mock (JSON.stringify's stack).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const call = (method: string, params: string, id: unknown = 1) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${method}","params":${params}}`;

/** A WebSocket client of the node: its messages in order, and how its connection ended. */
async function client() {
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`, { maxPayload: 64 * 1024 * 1024 });
  const received: string[] = [];
  const waiting: ((message: string) => void)[] = [];
  ws.on('message', (data) => {
    const message = data.toString();
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else received.push(message);
  });
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  ws.on('error', () => {});
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = () =>
    new Promise<unknown>((resolve) => {
      const message = received.shift();
      if (message !== undefined) resolve(JSON.parse(message));
      else waiting.push((m) => resolve(JSON.parse(m)));
    });
  return {
    ws,
    closed,
    /** Sends `message` (text unless a Buffer sent as binary) and waits for the next message. */
    ask: (message: string | Buffer, binary = false) => {
      ws.send(message, { binary });
      return next();
    },
    /** The messages and whether the connection ended, once it has. */
    end: async () => {
      await closed;
      return received.map((m) => JSON.parse(m));
    },
  };
}

/** The node still answers over a new WebSocket and over HTTP. */
async function stillServes() {
  const c = await client();
  expect(await c.ask(call('eth_chainId', '[]'))).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' });
  c.ws.close();
  const http = await send(`${node.url}/ext/bc/C/rpc`, { body: call('eth_chainId', '[]') });
  expect(JSON.parse(http.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' });
}

const parseError = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32700, message } });

describe('hostile messages on /ext/bc/C/ws', () => {
  it("answers a syntax error or nesting past 10,000 levels with Go's parse error and ends the connection", async () => {
    for (const [message, error] of [
      [call('eth_blockNumber', deep(100_000)), "invalid character '[' exceeded max depth"],
      [`[${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}]`, "invalid character '{' exceeded max depth"],
      [call('eth_blockNumber', deep(10_001)), "invalid character '[' exceeded max depth"],
      ['{"jsonrpc":"2.0",}', "invalid character '}' looking for beginning of object key string"],
    ] as const) {
      const c = await client();
      c.ws.send(message);
      expect(await c.end()).toEqual([parseError(error)]);
    }
    await stillServes();
  });

  it('ends a connection whose message stops short without a word (io.ErrUnexpectedEOF)', async () => {
    for (const message of ['{"jsonrpc":"2.0"', '', '   ']) {
      const c = await client();
      c.ws.send(message);
      expect(await c.end()).toEqual([]);
    }
    await stillServes();
  });

  it('reads 10,000 levels, invalid UTF-8, binary messages and bytes after the value as Go’s decoder does', async () => {
    const c = await client();
    expect(await c.ask(call('eth_blockNumber', deep(9_999)))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'too many arguments, want at most 0' },
    });
    const invalid = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"a'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('z",'),
    ]);
    expect(await c.ask(Buffer.concat([invalid, Buffer.from('"method":"eth_chainId","params":[]}')]))).toEqual({
      jsonrpc: '2.0',
      id: 'a\ufffd\ufffdz',
      result: '0xa868',
    });
    expect(await c.ask(Buffer.from(call('eth_chainId', '[]', 'binary')), true)).toMatchObject({ id: 'binary' });
    expect(await c.ask(`${call('eth_chainId', '[]', 'first')} {"not": "read"`)).toMatchObject({ id: 'first' });
    c.ws.close();
  });

  it('refuses a batch of 10,000 as /ext/bc/C/rpc does, subscriptions in it or not, and serves on', async () => {
    const batch = (method: string, params: string) => `[${Array(10_000).fill(call(method, params)).join(',')}]`;
    const http = await send(`${node.url}/ext/bc/C/rpc`, { body: batch('eth_chainId', '[]') });
    const refusal = JSON.parse(http.text);
    // respondWithBatchTooLarge: one error in an array, with the first call's id.
    expect(refusal).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }]);
    const c = await client();
    expect(await c.ask(batch('eth_chainId', '[]'))).toEqual(refusal);
    expect(await c.ask(batch('eth_subscribe', '["newHeads"]'))).toEqual(refusal);
    // A small batch with a subscription in it is answered call by call.
    const [subscribed, chainId] = (await c.ask(
      `[${call('eth_subscribe', '["newHeads"]', 's')},${call('eth_chainId', '[]', 'c')}]`,
    )) as { result: string }[];
    expect(subscribed).toMatchObject({ id: 's', result: expect.stringMatching(/^0x[0-9a-f]{32}$/) });
    expect(chainId).toEqual({ jsonrpc: '2.0', id: 'c', result: '0xa868' });
    expect(await c.ask(call('eth_unsubscribe', JSON.stringify([subscribed!.result])))).toMatchObject({ result: true });
    c.ws.close();
  });

  it('refuses malformed subscription calls in geth’s words', async () => {
    const c = await client();
    const refused = async (method: string, params: string) =>
      ((await c.ask(call(method, params))) as { error: unknown }).error;
    expect(await refused('eth_subscribe', '["pendingBlocks"]')).toEqual({
      code: -32601,
      message: 'no "pendingBlocks" subscription in eth namespace',
    });
    expect(await refused('eth_subscribe', '{"kind":"newHeads"}')).toEqual({ code: -32602, message: 'non-array args' });
    expect(await refused('eth_subscribe', '[7]')).toEqual({
      code: -32602,
      message: 'expected subscription name as first argument',
    });
    expect(await refused('eth_subscribe', '["newHeads", {}]')).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 1',
    });
    expect(await refused('eth_subscribe', '["logs"]')).toEqual({
      code: -32602,
      message: 'missing value for required argument 1',
    });
    expect(await refused('eth_unsubscribe', '["0x1234"]')).toEqual({ code: -32000, message: 'subscription not found' });
    expect(await refused('eth_unsubscribe', '[5]')).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID',
    });
    expect(await refused('eth_unsubscribe', '[]')).toEqual({
      code: -32602,
      message: 'missing value for required argument 0',
    });
    c.ws.close();
  });

  it('ends a connection sending more than 32 MiB in one message; one stalled mid-message holds nothing up', async () => {
    const big = await client();
    big.ws.send(`[${' '.repeat(33 * 1024 * 1024)}]`);
    expect(await big.end()).toEqual([]);
    // A WebSocket handshake, then a frame announcing 1 MiB of which only a few bytes ever come.
    const stalled = connect(Number(new URL(node.url).port), '127.0.0.1');
    const upgraded = new Promise<void>((resolve) =>
      stalled.on('data', (data) => {
        if (data.toString().startsWith('HTTP/1.1 101')) resolve();
      }),
    );
    stalled.write(
      'GET /ext/bc/C/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await upgraded;
    const header = Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4]);
    stalled.write(Buffer.concat([header, Buffer.from('[{"jsonrpc"')]));
    await stillServes();
    stalled.destroy();
    // An HTTP request stalled mid-body holds nothing up either.
    const slow = connect(Number(new URL(node.url).port), '127.0.0.1');
    slow.write('POST /ext/bc/C/rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n');
    slow.write(`Content-Length: 1000\r\n\r\n${rpc('eth_chainId', []).slice(0, 20)}`);
    await stillServes();
    slow.destroy();
  });
});
