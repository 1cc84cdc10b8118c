/**
 * The C-Chain's logs as coreth writes them (core/types gen_log_json.go of geth v1.13 through libevm, up to v1.15.0-fuji):
 * address, topics, data, blockNumber, transactionHash, transactionIndex, blockHash, logIndex, removed, in that order
 * and without the `blockTimestamp` geth 1.16 (and the engine) add; in eth_getLogs, the polled filters, receipts, block
 * receipts and ws `logs` notifications alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

const CORETH_LOG_FIELDS = [
  'address',
  'topics',
  'data',
  'blockNumber',
  'transactionHash',
  'transactionIndex',
  'blockHash',
  'logIndex',
  'removed',
];
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

describe('C-Chain logs', () => {
  it("carry coreth's fields, in its order, wherever they are answered", async () => {
    const { pub, wallet } = cClients(node.url);
    const deployed = await pub.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: ABI, bytecode: BYTECODE }),
    });
    const address = deployed.contractAddress!;
    const filter = (await call('eth_newFilter', [{ address }])) as string;
    const socket = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: Array<{ params?: { result: Record<string, unknown> } }> = [];
    let notified: () => void = () => undefined;
    const logNotified = new Promise<void>((resolve) => {
      notified = resolve;
    });
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      if (messages.length === 2) notified();
    });
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address }] }));
    while (messages.length === 0) await new Promise((resolve) => socket.once('message', resolve));

    const hash = await wallet.writeContract({ address, abi: ABI, functionName: 'set', args: [7n] });
    const { blockNumber } = await pub.waitForTransactionReceipt({ hash });
    await logNotified;
    const receipt = (await call('eth_getTransactionReceipt', [hash])) as { logs: Record<string, unknown>[] };
    const [blockReceipt] = (await call('eth_getBlockReceipts', [`0x${blockNumber.toString(16)}`])) as Array<{
      logs: Record<string, unknown>[];
    }>;
    const logs = [
      ...((await call('eth_getLogs', [{ address }])) as Record<string, unknown>[]),
      ...((await call('eth_getFilterChanges', [filter])) as Record<string, unknown>[]),
      ...((await call('eth_getFilterLogs', [filter])) as Record<string, unknown>[]),
      ...receipt.logs,
      ...blockReceipt!.logs,
      messages[1]!.params!.result,
    ];
    expect(logs).toHaveLength(6);
    for (const log of logs) {
      expect(Object.keys(log)).toEqual(CORETH_LOG_FIELDS);
      expect(log).toEqual(logs[0]);
    }
    expect(logs[0]).toMatchObject({ address: address.toLowerCase(), transactionHash: hash, removed: false });
    socket.close();
  });
});
