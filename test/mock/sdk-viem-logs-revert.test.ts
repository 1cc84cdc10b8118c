/**
 * viem's log watchers over WebSocket (eth_subscribe "logs" with an address and a topic) and its log filters across a
 * dev revert. A default coreth node (allow-unfinalized-queries off) serves both from its accepted logs
 * (eth/filters/api.go Logs and NewFilter: SubscribeAcceptedLogs), which a RemovedLogsEvent never reaches
 * (filter_system.go: rmLogsCh feeds LogsSubscription only): a subscriber gets no `removed: true` log, and a block
 * built after the revert at the same height is announced as any other. eth_getFilterLogs reads the chain as it now
 * is: the reverted block's logs are gone.
 */
import {
  http,
  type Hex,
  type RpcLog,
  createPublicClient,
  createTestClient,
  encodeEventTopics,
  formatLog,
  parseEventLogs,
  webSocket,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let contract: Hex;
let other: Hex;

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { wallet, pub } = cClients(node.url);
  const deploy = async () =>
    (await pub.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: ABI, bytecode: BYTECODE }) }))
      .contractAddress as Hex;
  contract = await deploy();
  other = await deploy();
});
afterAll(() => node?.close());

const set = async (address: Hex, value: bigint) => {
  const { wallet, pub } = cClients(node.url);
  return pub.waitForTransactionReceipt({
    hash: await wallet.writeContract({ address, abi: ABI, functionName: 'set', args: [value] }),
  });
};

describe('log subscriptions and filters across evm_revert', () => {
  it('announce only matching logs, none removed, and read the chain as it is after the revert', async () => {
    const ws = createPublicClient({ transport: webSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`) });
    const pub = createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`), cacheTime: 0 });
    const test = createTestClient({ mode: 'anvil', transport: http(`${node.url}/ext/bc/C/rpc`) });
    const seen: ReturnType<typeof parseEventLogs<typeof ABI>> = [];
    let wanted = 0;
    let arrived: () => void = () => undefined;
    const until = (count: number) => {
      wanted = count;
      return seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (arrived = resolve));
    };
    // viem's WebSocket transport subscribes as its watchers do; awaited, so no block is built before it is made.
    const { subscribe } = ws.transport as unknown as {
      subscribe: (args: {
        params: ['logs', { address: Hex; topics: Hex[] }];
        onData: (data: { result: RpcLog }) => void;
      }) => Promise<{ unsubscribe: () => Promise<unknown> }>;
    };
    const [topic] = encodeEventTopics({ abi: ABI, eventName: 'ValueSet' });
    const watched = await subscribe({
      params: ['logs', { address: contract, topics: [topic] }],
      onData: ({ result }) => {
        seen.push(...parseEventLogs({ abi: ABI, logs: [formatLog(result)] }));
        if (seen.length >= wanted) arrived();
      },
    });
    // A topic no log has: its subscription hears nothing.
    const silent: unknown[] = [];
    const none = await subscribe({
      params: ['logs', { address: contract, topics: [`0x${'11'.repeat(32)}`] }],
      onData: (data) => silent.push(data),
    });
    const filter = await pub.createContractEventFilter({
      address: contract,
      abi: ABI,
      eventName: 'ValueSet',
      fromBlock: 0n,
    });

    const kept = await set(contract, 1n);
    await until(1);
    const snapshot = await test.snapshot();
    await set(other, 9n);
    const reverted = await set(contract, 2n);
    await until(2);
    expect((await pub.getFilterLogs({ filter })).map((log) => log.args.value)).toEqual([1n, 2n]);

    await test.revert({ id: snapshot });
    expect((await pub.getFilterLogs({ filter })).map((log) => log.args.value)).toEqual([1n]);
    const again = await set(contract, 3n);
    expect(again.blockNumber).toBe(kept.blockNumber + 1n);
    await until(3);
    await Promise.all([watched.unsubscribe(), none.unsubscribe()]);
    expect(seen.map((log) => [log.args.value, log.blockNumber, log.removed])).toEqual([
      [1n, kept.blockNumber, false],
      [2n, reverted.blockNumber, false],
      [3n, again.blockNumber, false],
    ]);
    expect(seen.map((log) => log.blockHash)).toEqual([kept.blockHash, reverted.blockHash, again.blockHash]);
    expect(silent).toEqual([]);
    expect((await pub.getFilterLogs({ filter })).map((log) => log.args.value)).toEqual([1n, 3n]);
    await ws.transport.getRpcClient().then((client) => client.close());
  });
});
