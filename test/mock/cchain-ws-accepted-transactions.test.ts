/**
 * coreth's own subscription `newAcceptedTransactions` over /ext/bc/C/ws: FilterAPI.NewAcceptedTransactions
 * (graft/coreth/eth/filters/api.go) notifies each accepted transaction's hash (its RPCTransaction with `true`), in
 * the "eth-filter" API, which coreth's default config enables (plugin/evm/config/default_config.go).
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

interface Message {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
  params?: { subscription: string; result: unknown };
}

/** Opens the socket, subscribes, and collects what arrives. */
async function subscribe(params: unknown[]) {
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  ws.onmessage = (event) => {
    messages.push(JSON.parse(String(event.data)));
    for (const wake of waiters.splice(0)) wake();
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const next = async (predicate: (m: Message) => boolean) => {
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params }));
  const answer = await next((m) => m.id === 1);
  return { ws, answer, next };
}

describe('eth_subscribe newAcceptedTransactions', () => {
  it('notifies the hash of a transaction the chain accepts', async () => {
    const { ws, answer, next } = await subscribe(['newAcceptedTransactions']);
    try {
      expect(answer.error).toBeUndefined();
      const { pub, wallet } = cClients(node.url);
      const hash = await wallet.sendTransaction({
        to: '0x00000000000000000000000000000000000000f5',
        value: parseEther('1'),
      });
      await pub.waitForTransactionReceipt({ hash });
      const note = await next((m) => m.params?.subscription === answer.result);
      expect(note.params?.result).toBe(hash);
    } finally {
      ws.close();
    }
  });

  it('with true, notifies the transaction itself', async () => {
    const { ws, answer, next } = await subscribe(['newAcceptedTransactions', true]);
    try {
      expect(answer.error).toBeUndefined();
      const { pub, wallet } = cClients(node.url);
      const hash = await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000f5', value: 7n });
      await pub.waitForTransactionReceipt({ hash });
      const note = await next((m) => m.params?.subscription === answer.result);
      expect(note.params?.result).toMatchObject({
        hash,
        value: '0x7',
        to: '0x00000000000000000000000000000000000000f5',
        // NewRPCTransaction's pending form: no block, a dynamic-fee tx's gasPrice its fee cap, and its yParity.
        blockHash: null,
        transactionIndex: null,
        yParity: expect.stringMatching(/^0x[01]$/),
      });
      const { maxFeePerGas, gasPrice } = note.params!.result as { maxFeePerGas: string; gasPrice: string };
      expect(gasPrice).toBe(maxFeePerGas);
    } finally {
      ws.close();
    }
  });
});
