/**
 * eth_subscribe("logs") with a block range: coreth's FilterAPI.Logs reaches SubscribeAcceptedLogs (allow-unfinalized
 * -queries off), which takes the ranges eth_newFilter takes and refuses any other with -32000 "invalid from and to
 * block combination: from > to" (eth/filters/filter_system.go); a range it takes matches logs by block number.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
let socket: WebSocket;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  socket = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
});
afterAll(async () => {
  socket?.close();
  await node?.close();
});

let next = 0;
function subscribe(filter: unknown): Promise<{ result?: string; error?: { code: number; message: string } }> {
  const id = ++next;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const answer = JSON.parse(String(data));
      if (answer.id !== id) return;
      socket.off('message', onMessage);
      resolve(answer);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['logs', filter] }));
  });
}

const REFUSED = { code: -32000, message: 'invalid from and to block combination: from > to' };

describe('a logs subscription over a block range', () => {
  it.each([
    [{ fromBlock: '0x5', toBlock: '0x2' }],
    [{ fromBlock: 'latest', toBlock: '0x2' }],
    [{ fromBlock: 'pending', toBlock: 'latest' }],
    [{ fromBlock: 'safe' }],
  ])('refuses %j as coreth does, and as eth_newFilter does', async (filter) => {
    expect((await subscribe(filter)).error).toEqual(REFUSED);
    const url = `${node.url}/ext/bc/C/rpc`;
    expect((await callRpc(url, 'eth_newFilter', [filter])).error).toMatchObject(REFUSED);
  });

  it.each([
    [{ fromBlock: '0x2', toBlock: '0x5' }],
    [{ fromBlock: '0x2', toBlock: 'pending' }],
    [{ fromBlock: 'earliest' }],
    [{ fromBlock: 'pending', toBlock: 'pending' }],
    [{}],
  ])('takes %j', async (filter) => {
    expect((await subscribe(filter)).result).toMatch(/^0x[0-9a-f]{32}$/);
  });
});
