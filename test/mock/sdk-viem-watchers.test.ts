/**
 * viem's watchers against the C-Chain (polling by default over HTTP, subscribing over ws), over HTTP (eth_newBlockFilter / eth_newFilter polled with
 * eth_getFilterChanges) and over /ext/bc/C/ws (eth_subscribe newHeads and logs): each hears the blocks and the
 * contract's events that come after it, with their numbers, hashes and arguments as the chain answers them.
 */
import { http, type Hex, createPublicClient, webSocket } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let contract: Hex;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  const hash = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
});
afterAll(() => node?.close());

/** Calls set(value) until `done()`, a block each; the values set. */
async function setUntil(done: () => boolean): Promise<bigint[]> {
  const { pub, wallet } = cClients(node.url);
  const set: bigint[] = [];
  for (let value = 1n; !done() && value <= 200n; value++) {
    const hash = await wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [value] });
    await pub.waitForTransactionReceipt({ hash });
    set.push(value);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return set;
}

const transports = () => ({
  polling: http(`${node.url}/ext/bc/C/rpc`),
  ws: webSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`),
});

describe('viem watchers on the C-Chain', () => {
  for (const kind of ['polling', 'ws'] as const) {
    it(`watchBlocks and watchContractEvent (${kind})`, async () => {
      const { chain } = cClients(node.url);
      const client = createPublicClient({ chain, transport: transports()[kind], pollingInterval: 20 });
      const blocks: { number: bigint; hash: Hex }[] = [];
      const events: { value: bigint; blockNumber: bigint; tx: Hex }[] = [];
      const errors: Error[] = [];
      const unwatchBlocks = client.watchBlocks({
        onBlock: (block) => blocks.push({ number: block.number!, hash: block.hash! }),
        onError: (e) => errors.push(e),
      });
      const unwatchEvents = client.watchContractEvent({
        address: contract,
        abi: ABI,
        eventName: 'ValueSet',
        onLogs: (logs) => {
          for (const log of logs)
            events.push({ value: log.args.value!, blockNumber: log.blockNumber!, tx: log.transactionHash! });
        },
        onError: (e) => errors.push(e),
      });
      try {
        const set = await setUntil(() => events.length >= 2 && blocks.length >= 2);
        expect(errors).toEqual([]);
        expect(events.length).toBeGreaterThanOrEqual(2);
        const { pub } = cClients(node.url);
        for (const event of events) {
          expect(set).toContain(event.value);
          const receipt = await pub.getTransactionReceipt({ hash: event.tx });
          expect(receipt.blockNumber).toBe(event.blockNumber);
        }
        // Each value heard once, in the order set.
        const values = events.map((e) => e.value);
        expect(values).toEqual([...values].sort((a, b) => Number(a - b)));
        expect(new Set(values).size).toBe(values.length);
        for (const block of blocks) expect((await pub.getBlock({ blockNumber: block.number })).hash).toBe(block.hash);
      } finally {
        unwatchBlocks();
        unwatchEvents();
        const transport = client.transport as { getRpcClient?: () => Promise<{ close(): void }> };
        if (transport.getRpcClient) (await transport.getRpcClient()).close();
      }
    });
  }
});
