/**
 * The paginated methods' iterators (from the spec's `x-pagination`) against the mock node's UTXO pages on 127.0.0.1:
 * every UTXO of the addresses exactly once, in as many calls as pages, whatever the page size; and, against a stub,
 * repeated items given once and the first short page taken as the last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { bech32Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { startNodeStub } from './node-stub.ts';

const PER_ACCOUNT = 7;
let node: RunningMockNode;
let calls = 0;
beforeAll(async () => {
  node = await startMockNode({
    port: 0,
    world: { accounts: 3, utxosPerAccount: PER_ACCOUNT },
    log: () => void (calls += 1),
  });
});
afterAll(() => node.close());

const addresses = (chain: 'X' | 'P') =>
  node.world.accounts.map((a) => `${chain}-${bech32Encode(node.world.network.hrp, Buffer.from(a.address, 'hex'))}`);
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('getUTXOsAll against the mock', () => {
  it.each([
    ['X', 2],
    ['X', 5],
    ['X', 21],
    ['P', 4],
    ['X', undefined],
  ] as const)('%s-Chain, limit %s: every UTXO once, one call per page', async (chain, limit) => {
    const client = chain === 'X' ? new XChainClient({ baseUrl: node.url }) : new PChainClient({ baseUrl: node.url });
    const owners = addresses(chain);
    // What paging by hand gives, to compare with.
    const byHand = new Set<string>();
    let startIndex: { address: string; utxo: string } | undefined;
    for (;;) {
      const page = await client.getUTXOs({
        addresses: owners,
        ...(limit ? { limit } : {}),
        ...(startIndex ? { startIndex } : {}),
      });
      for (const utxo of page.utxos) byHand.add(utxo);
      if (page.utxos.length < (limit ?? 1024)) break;
      startIndex = page.endIndex;
    }
    expect(byHand.size).toBe(node.world.accounts.length * PER_ACCOUNT);

    calls = 0;
    const all = await collect(client.getUTXOsAll({ addresses: owners, ...(limit ? { limit } : {}) }));
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(byHand);
    expect(calls).toBe(Math.floor(byHand.size / (limit ?? 1024)) + 1);
  });
});

describe('getUTXOsAll against a node that repeats items across pages', () => {
  it('gives each item once and stops at the first short page', async () => {
    const stub = await startNodeStub();
    const pages: Record<string, string[]> = { first: ['0xa1', '0xa2'], a2: ['0xa2', '0xa3'], a3: ['0xa3'] };
    const sent: unknown[] = [];
    stub.respond((request, response) => {
      const { id, params } = JSON.parse(request.body) as { id: number; params: { startIndex?: { utxo: string } } };
      sent.push(params.startIndex ?? null);
      const key = params.startIndex?.utxo ?? 'first';
      const utxos = pages[key]!;
      const end = { address: 'X-local1x', utxo: utxos.at(-1)!.slice(2) };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: { numFetched: String(utxos.length), utxos, endIndex: end, encoding: 'hex' },
        }),
      );
    });
    try {
      const items = await collect(
        new XChainClient({ baseUrl: stub.url }).getUTXOsAll({ addresses: ['X-local1x'], limit: 2 }),
      );
      expect(items).toEqual(['0xa1', '0xa2', '0xa3']);
      expect(sent).toEqual([null, { address: 'X-local1x', utxo: 'a2' }, { address: 'X-local1x', utxo: 'a3' }]);
    } finally {
      await stub.close();
    }
  });
});
