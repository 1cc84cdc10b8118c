/**
 * Slowloris against every endpoint: many connections each send a head and part of a body, then stall. The mock
 * must go on answering everyone else on every endpoint meanwhile (node:http reads each connection on its own), and
 * a stalled request completed later is answered as if it had come at once. (A body that never ends is cut at the
 * read timeout: test/mock/server.test.ts.) Deadlines are generous bounds, not timing claims.
 */
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc, rpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const CALLS: Array<[path: string, method: string, params: unknown]> = [
  ['/ext/bc/P', 'platform.getHeight', {}],
  ['/ext/bc/X', 'avm.getHeight', {}],
  ['/ext/bc/C/rpc', 'eth_chainId', []],
  ['/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID: '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF7CgNLD5Sy' }],
  ['/ext/index/P/block', 'index.getLastAccepted', { encoding: 'hex' }],
  ['/ext/bc/P/proposervm', 'proposervm.getProposedHeight', {}],
  ['/ext/info', 'info.getNetworkID', {}],
  ['/ext/health', 'health.health', {}],
];

/** Opens a connection to `path` that sends its head and the first half of `body`, then waits. */
function stalled(path: string, body: string): Promise<{ socket: Socket; rest: string; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
    const half = Math.floor(body.length / 2);
    let answer = '';
    const done = new Promise<string>((settle) => {
      socket.on('data', (chunk) => {
        answer += chunk.toString('utf8');
      });
      socket.on('close', () => settle(answer));
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
      );
      resolve({ socket, rest: body.slice(half), answer: done });
    });
  });
}

/** The body of a raw answer: an answer over 2,048 bytes comes chunked, as Go's net/http sends it (one chunk). */
function bodyOf(text: string): string {
  const at = text.indexOf('\r\n\r\n');
  const body = text.slice(at + 4);
  if (!/\r\ntransfer-encoding: chunked\r\n/i.test(text.slice(0, at + 2))) return body;
  const size = Number.parseInt(body, 16);
  return body.slice(body.indexOf('\r\n') + 2).slice(0, size);
}

describe('slow bodies', () => {
  it('200 stalled requests across the endpoints hold up no one; each answered once its body ends', async () => {
    const pending = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const [path, method, params] = CALLS[i % CALLS.length]!;
        return stalled(path, rpc(method, params, i));
      }),
    );
    try {
      for (const [path, method, params] of CALLS) {
        const answer = await callRpc(`${node.url}${path}`, method, params);
        expect(answer.error?.message ?? 'ok').not.toMatch(/timeout|busy/i);
        expect(answer).toHaveProperty(answer.error ? 'error.code' : 'result');
      }
      // Now the stalled ones finish: each gets its own answer, with its own id.
      for (const { socket, rest } of pending) socket.write(rest);
      const answers = await Promise.all(pending.map((p) => p.answer));
      for (const [i, text] of answers.entries()) {
        expect(text).toMatch(/^HTTP\/1\.1 200 /);
        const json = JSON.parse(bodyOf(text)) as { id: unknown };
        expect(json.id).toBe(i);
      }
    } finally {
      for (const { socket } of pending) socket.destroy();
    }
  }, 60_000);
});
