/**
 * The C-Chain's blocks as coreth answers them, over HTTP and WebSocket: eth_getBlockByNumber/Hash and
 * eth_getHeaderByNumber/Hash carry coreth's header extras and the block's ExtData, consistent with the block bytes
 * `/ext/index/C/block` holds (extDataHash the hash of ExtData's RLP, blockExtraData its hex, size the bytes' length);
 * AP4's block gas cost moves with the block times before Granite and is 0 from Granite; viem reads the blocks.
 */
import { readFileSync } from 'node:fs';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { IndexerClient } from '../../generated/client/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients, exportEwoqToP } from './c-clients.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

type Block = Record<string, unknown> & { transactions: unknown[] };
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

async function rpc<T = Block>(url: string, method: string, params: unknown[]): Promise<T> {
  const answer = await callRpc(`${url}/ext/bc/C/rpc`, method, params);
  expect(answer.error).toBeUndefined();
  return answer.result as T;
}

/** The coreth block RLP the indexer holds at C-Chain height `height` (> 0): proposervm's wrapper taken off. */
async function indexedBlock(url: string, height: number): Promise<Uint8Array> {
  const index = new IndexerClient({ baseUrl: url, chain: 'C', index: 'block' });
  const { bytes } = await index.getContainerByIndex({ index: String(height - 1), encoding: 'hexnc' });
  const wrapper = Buffer.from(bytes.slice(2), 'hex');
  let at = 2 + 4 + 32 + 16;
  at += 4 + wrapper.readUInt32BE(at);
  const size = wrapper.readUInt32BE(at);
  return wrapper.subarray(at + 4, at + 4 + size);
}

describe("the C-Chain's blocks as coreth answers them", () => {
  it("answers genesis and an atomic tx's block with coreth's fields, agreeing with the indexed bytes", async () => {
    node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
    const { url } = node;
    const genesis = await rpc(url, 'eth_getBlockByNumber', ['0x0', false]);
    const seconds = BigInt(genesis.timestamp as string);
    // local's upgrades, Granite too, are all active at the mock's genesis.
    expect(genesis).toMatchObject({
      extDataHash: ZERO_HASH,
      blockExtraData: '0x',
      extDataGasUsed: '0x0',
      blockGasCost: '0x0',
      timestampMilliseconds: `0x${(seconds * 1000n).toString(16)}`,
      minDelayExcess: '0x799d4c',
      totalDifficulty: '0x0',
    });

    const { wallet } = cClients(url);
    await wallet.sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: 1n });
    await exportEwoqToP(url);
    const transfer = await rpc(url, 'eth_getBlockByNumber', ['0x1', true]);
    const atomic = await rpc(url, 'eth_getBlockByNumber', ['0x2', false]);
    const [transferBytes, atomicBytes] = [await indexedBlock(url, 1), await indexedBlock(url, 2)];
    const extData = (RLP.decode(atomicBytes) as Uint8Array[])[4]!;
    expect(extData.length).toBeGreaterThan(0);
    expect(atomic.blockExtraData).toBe(hexOf(extData));
    expect(atomic.extDataHash).toBe(hexOf(keccak_256(RLP.encode(extData))));
    expect(BigInt(atomic.extDataGasUsed as string)).toBeGreaterThan(0n);
    expect(atomic.size).toBe(`0x${atomicBytes.length.toString(16)}`);
    expect(atomic.totalDifficulty).toBe('0x2');
    // A block without atomic txs: the hash of empty ExtData (coreth's EmptyExtDataHash), no gas.
    expect(transfer).toMatchObject({ blockExtraData: '0x', extDataGasUsed: '0x0', blockGasCost: '0x0' });
    expect(transfer.extDataHash).toBe(hexOf(keccak_256(RLP.encode(new Uint8Array()))));
    expect(transfer.size).toBe(`0x${transferBytes.length.toString(16)}`);
    expect(transfer.transactions).toHaveLength(1);
    expect(typeof transfer.transactions[0]).toBe('object');

    // By hash, the same block; its header has the header's fields only.
    expect(await rpc(url, 'eth_getBlockByHash', [atomic.hash, false])).toEqual(atomic);
    const header = await rpc(url, 'eth_getHeaderByNumber', ['0x2']);
    expect(await rpc(url, 'eth_getHeaderByHash', [atomic.hash])).toEqual(header);
    const { transactions, uncles, withdrawals, size, blockExtraData, ...headerFields } = atomic;
    expect(header).toEqual(headerFields);
    // Past the last accepted block: eth/api_backend.go's ErrUnfinalizedData, not null.
    const unfinalized = { error: { code: -32000, message: 'cannot query unfinalized data' } };
    expect(await callRpc(`${url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', ['0x99', false])).toEqual(unfinalized);
    expect(await callRpc(`${url}/ext/bc/C/rpc`, 'eth_getHeaderByNumber', ['0x99'])).toEqual(unfinalized);

    // viem reads coreth's blocks (and keeps the hash the engine gave).
    const viemBlock = await cClients(url).pub.getBlock({ blockNumber: 2n });
    expect(viemBlock.hash).toBe(atomic.hash);
    expect(viemBlock.size).toBe(BigInt(atomicBytes.length));
  });

  it('moves the block gas cost with the block times before Granite (Fuji), and has no Granite fields there', async () => {
    node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 0 } });
    const { url } = node;
    const genesis = await rpc(url, 'eth_getBlockByNumber', ['0x0', false]);
    // Fuji's genesis time is before AP4.
    expect(genesis).not.toHaveProperty('blockGasCost');
    expect(genesis).not.toHaveProperty('timestampMilliseconds');
    // Between Fortuna (2025-03-13) and Granite (2025-10-29) on Fuji: AP5's step, 200,000 a second under the 2 s target.
    await node.dev.setTime({ timestamp: String(Date.parse('2025-06-01T00:00:00Z') / 1000) });
    await node.dev.mine({ chain: 'C', blocks: 3 });
    const blocks = [];
    for (const n of ['0x1', '0x2', '0x3', '0x4']) blocks.push(await rpc(url, 'eth_getBlockByNumber', [n, false]));
    for (const block of blocks) expect(block).not.toHaveProperty('minDelayExcess');
    // The first AP4 block, after a pre-AP4 parent, costs the minimum; then each moves by the step per second away from
    // the target, within [0, 1,000,000].
    expect(blocks[0]!.blockGasCost).toBe('0x0');
    for (let i = 1; i < blocks.length; i++) {
      const elapsed = BigInt(blocks[i]!.timestamp as string) - BigInt(blocks[i - 1]!.timestamp as string);
      const moved = BigInt(blocks[i - 1]!.blockGasCost as string) + 200_000n * (2n - elapsed);
      const expected = moved < 0n ? 0n : moved > 1_000_000n ? 1_000_000n : moved;
      expect(BigInt(blocks[i]!.blockGasCost as string)).toBe(expected);
    }
    expect(BigInt(blocks[1]!.blockGasCost as string)).toBeGreaterThan(0n);
    await node.dev.setTime({ timestamp: String(Date.parse('2025-11-01T00:00:00Z') / 1000) });
    const granite = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(granite).toMatchObject({ blockGasCost: '0x0', minDelayExcess: '0x799d4c' });
  });

  it("notifies newHeads with coreth's header fields over /ext/bc/C/ws", async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    const { url } = node;
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: Array<{ id?: number; params?: { result: Record<string, unknown> } }> = [];
    const next = () =>
      new Promise<(typeof messages)[number]>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(data.toString()))),
      );
    const subscribed = next();
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    expect((await subscribed).id).toBe(1);
    const notified = next();
    await node.dev.mine({ chain: 'C' });
    const heads = [(await notified).params!.result];
    const header = await rpc(url, 'eth_getHeaderByNumber', [heads[0]!.number]);
    const { totalDifficulty, ...withoutTotal } = header;
    expect(heads[0]).toEqual(withoutTotal);
    expect(heads[0]).toHaveProperty('extDataHash');
    expect(heads[0]).toHaveProperty('timestampMilliseconds');
    socket.close();
  });

  it("answers on a fresh local network what the C-Chain document's read examples say", async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    const document = JSON.parse(readFileSync('openrpc/c-chain/c-chain-rpc.json', 'utf8')) as {
      methods: Array<{
        name?: string;
        examples?: Array<{ params: Array<{ value: unknown }>; result: { value: unknown } }>;
      }>;
    };
    const examples = (method: string) => document.methods.find((m) => m.name === method)!.examples!;
    for (const method of ['eth_getChainConfig', 'eth_getBlockByNumber', 'eth_getBlockByHash'])
      for (const example of examples(method))
        expect(
          await rpc(
            node.url,
            method,
            example.params.map((p) => p.value),
          ),
        ).toEqual(example.result.value);
  });
});
