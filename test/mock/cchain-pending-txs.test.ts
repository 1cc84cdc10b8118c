/**
 * The C-Chain's pending transactions as coreth's eth/filters reports them: each tx as the pool takes it (txpool's
 * NewTxsEvent), not as a block includes it; to eth_newPendingTransactionFilter and to ws `newPendingTransactions`
 * subscriptions (the hash, or with fullTx the tx as NewRPCTransaction writes a pending one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

const TO = '0x000000000000000000000000000000000000dEaD';
let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node.close());

async function call(method: string, params: unknown[] = []): Promise<unknown> {
  const { text } = await send(`${node.url}/ext/bc/C/rpc`, {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const { result, error } = JSON.parse(text) as { result?: unknown; error?: unknown };
  if (error) throw new Error(JSON.stringify(error));
  return result;
}

/** A ws connection to the C-Chain and its messages, in the order they came. */
async function connect() {
  const socket = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const messages: Array<{
    id?: number;
    result?: unknown;
    error?: unknown;
    params?: { subscription: string; result: unknown };
  }> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const wake of waiters.splice(0)) wake();
  });
  /** The `n`th message (from 0), once it has come. */
  const nth = async (n: number) => {
    while (messages.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages[n]!;
  };
  return { socket, nth };
}

describe('pending transactions', () => {
  it('reports a tx to a pending-transaction filter as the pool takes it, not again when a block includes it', async () => {
    const { pub, wallet } = cClients(node.url);
    await node.dev.setAutomine({ enabled: false });
    try {
      const filter = (await call('eth_newPendingTransactionFilter')) as string;
      const blocks = (await call('eth_newBlockFilter')) as string;
      const hash = await wallet.sendTransaction({ to: TO, value: 1n });
      expect(await call('eth_getTransactionReceipt', [hash])).toBeNull();
      expect(await call('eth_getFilterChanges', [filter])).toEqual([hash]);
      expect(await call('eth_getFilterChanges', [blocks])).toEqual([]);
      await node.dev.mine({ chain: 'C', blocks: 1 });
      expect((await pub.getTransactionReceipt({ hash })).status).toBe('success');
      expect(await call('eth_getFilterChanges', [filter])).toEqual([]);
      expect(await call('eth_getFilterChanges', [blocks])).toHaveLength(1);
    } finally {
      await node.dev.setAutomine({ enabled: true });
    }
  });

  it('gives a fullTx filter the pending form of each tx the pool takes', async () => {
    const { wallet } = cClients(node.url);
    const filter = (await call('eth_newPendingTransactionFilter', [true])) as string;
    const hashes = (await call('eth_newPendingTransactionFilter', [false])) as string;
    const maxFeePerGas = 300_000_000_000n;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, maxFeePerGas, maxPriorityFeePerGas: 1n });
    const [tx, ...rest] = (await call('eth_getFilterChanges', [filter])) as Array<Record<string, unknown>>;
    expect(rest).toEqual([]);
    expect(tx).toMatchObject({
      hash,
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      gasPrice: `0x${maxFeePerGas.toString(16)}`,
    });
    expect(await call('eth_getFilterChanges', [hashes])).toEqual([hash]);
    await expect(call('eth_newPendingTransactionFilter', ['yes'])).rejects.toThrow(
      'invalid argument 0: json: cannot unmarshal string into Go value of type bool',
    );
  });

  it('takes no fullTx before v1.10.3 (coreth v0.12.3)', async () => {
    const old = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, nodeVersion: 'v1.10.2' });
    try {
      const { text } = await send(`${old.url}/ext/bc/C/rpc`, {
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_newPendingTransactionFilter', params: [true] }),
      });
      expect(JSON.parse(text).error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' });
      const socket = new WebSocket(`${old.url.replace('http', 'ws')}/ext/bc/C/ws`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const answer = new Promise<unknown>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(String(data)))),
      );
      socket.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions', true] }),
      );
      expect(await answer).toMatchObject({ error: { code: -32602, message: 'too many arguments, want at most 1' } });
      socket.close();
    } finally {
      await old.close();
    }
  });

  it('notifies ws newPendingTransactions of a tx before the block that includes it (automine)', async () => {
    const { wallet } = cClients(node.url);
    const { socket, nth } = await connect();
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions'] }));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['newHeads'] }));
    const pendingID = (await nth(0)).result;
    const headsID = (await nth(1)).result;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n });
    expect((await nth(2)).params).toEqual({ subscription: pendingID, result: hash });
    expect((await nth(3)).params).toMatchObject({ subscription: headsID });
    socket.close();
  });

  it('notifies the pending form of the tx with fullTx, and refuses a fullTx that is not a boolean', async () => {
    const { wallet } = cClients(node.url);
    const { socket, nth } = await connect();
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions', 'yes'] }),
    );
    expect((await nth(0)).error).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type bool',
    });
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['newPendingTransactions', true, 1] }),
    );
    expect((await nth(1)).error).toEqual({ code: -32602, message: 'too many arguments, want at most 2' });
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newPendingTransactions', true] }),
    );
    const id = (await nth(2)).result;
    const maxFeePerGas = 300_000_000_000n;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, maxFeePerGas, maxPriorityFeePerGas: 1n });
    const { params } = await nth(3);
    expect(params?.subscription).toBe(id);
    expect(params?.result).toMatchObject({
      hash,
      to: TO.toLowerCase(),
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      gasPrice: `0x${maxFeePerGas.toString(16)}`,
      maxFeePerGas: `0x${maxFeePerGas.toString(16)}`,
    });
    socket.close();
  });
});
