/**
 * The indexer and proposervm of the mock node, over HTTP with the generated clients and with @avalanche-sdk/client:
 * off by default; the P-Chain's block index lists its accepted blocks in order as proposervm blocks (parsed here from
 * their bytes, the signature checked against the certificate they carry) wrapping exactly what getBlockByHeight
 * answers; the X-Chain's transactions as getTx answers them; epochs and proposed heights from the same blocks.
 */
import { X509Certificate, createHash, verify } from 'node:crypto';
import { createIndexApiClient, createProposervmApiClient } from '@avalanche-sdk/client';
import { avalancheFuji } from '@avalanche-sdk/client/chains';
import { afterEach, describe, expect, it } from 'vitest';
import { cb58Decode, cb58Encode } from '../../generators/formats.ts';
import {
  IndexerClient,
  InfoClient,
  PChainClient,
  ProposervmClient,
  XChainClient,
} from '../../generated/client/dist/index.js';
import { type MockNodeOptions, type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function start(options: MockNodeOptions = {}) {
  node = await startMockNode({ port: 0, validateResults: true, world: { network: 'local', accounts: 1 }, ...options });
  return node;
}

const hexBytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** vms/proposervm/block, read field by field (linearcodec: u16 version, u32 type, then the fields). */
function parseProposerBlock(bytes: Buffer) {
  let at = 0;
  const take = (n: number) => bytes.subarray(at, (at += n));
  const u32 = () => take(4).readUInt32BE(0);
  const u64 = () => take(8).readBigUInt64BE(0);
  const sized = () => take(u32());
  expect(take(2).readUInt16BE(0)).toBe(0);
  const type = u32();
  const parentID = cb58Encode(take(32));
  const timestamp = u64();
  const pChainHeight = u64();
  const certificate = sized();
  const inner = sized();
  const epoch = type === 2 ? { pChainHeight: u64(), number: u64(), startTime: u64() } : undefined;
  const unsignedEnd = at;
  const signature = sized();
  expect(at).toBe(bytes.length);
  return {
    type,
    parentID,
    timestamp,
    pChainHeight,
    certificate,
    inner,
    epoch,
    signature,
    id: cb58Encode(sha256(bytes.subarray(0, unsignedEnd))),
  };
}

describe('the indexer', () => {
  it('is not served by default, as on the node; proposervm is', async () => {
    const { url } = await start();
    const answer = await send(`${url}/ext/index/P/block`, { body: rpc('index.getLastAccepted', {}) });
    expect(answer.status).toBe(404);
    expect((await new ProposervmClient({ baseUrl: url }).getProposedHeight({})).height).toBe('1');
    const x = await send(`${url}/ext/bc/X/proposervm`, { body: '{}' });
    expect(x.status).toBe(404);
  });

  it("lists every accepted P-Chain block in order, as the proposervm blocks wrapping getBlockByHeight's", async () => {
    const { url, state } = await start({ indexEnabled: true });
    state.dev.mine({ chain: 'P', blocks: 3 });
    state.dev.increaseTime({ seconds: 31, mine: false }); // past the local network's 30 s epoch
    state.dev.mine({ chain: 'P', blocks: 2 });
    const index = new IndexerClient({ baseUrl: url, chain: 'P', index: 'block' });
    const p = new PChainClient({ baseUrl: url });
    const height = Number((await p.getHeight({})).height);
    const { containers } = await index.getContainerRange({ startIndex: 0, numToFetch: 1024, encoding: 'hexnc' });
    expect(containers.map((c) => c.index)).toEqual(Array.from({ length: height }, (_, i) => String(i)));
    const { nodeID } = await new InfoClient({ baseUrl: url }).getNodeID({});
    let parentID = String((await p.getBlockByHeight({ height: 0, encoding: 'json' })).block.id);
    for (const [i, container] of containers.entries()) {
      const block = parseProposerBlock(hexBytes(container.bytes));
      expect(block.id).toBe(container.id);
      expect(block.parentID).toBe(parentID);
      const inner = await p.getBlockByHeight({ height: i + 1, encoding: 'hexnc' });
      expect(`0x${block.inner.toString('hex')}`).toBe(inner.block);
      // Accepted when built: the index's time is the block's own (a Banff block's `time`), and the wrapper's too.
      const { time } = (await p.getBlockByHeight({ height: i + 1, encoding: 'json' })).block as { time: number };
      expect(container.timestamp).toBe(new Date(time * 1000).toISOString().replace('.000Z', 'Z'));
      expect(block.timestamp).toBe(BigInt(time));
      // The first block after genesis is built on the pre-fork genesis: unsigned, no epoch (type 0).
      if (i === 0) expect([block.type, block.certificate.length, block.signature.length]).toEqual([0, 0, 0]);
      else {
        expect(block.type).toBe(2);
        const certificate = new X509Certificate(block.certificate);
        const digest = createHash('ripemd160').update(sha256(certificate.raw)).digest();
        expect(`NodeID-${cb58Encode(digest)}`).toBe(nodeID);
        const header = Buffer.concat([
          Buffer.alloc(2),
          cb58Decode(node!.world.chainIDs.P)!,
          cb58Decode(block.parentID)!,
          cb58Decode(block.id)!,
        ]);
        expect(verify('sha256', header, certificate.publicKey, block.signature)).toBe(true);
      }
      // The P-Chain height each block was built at is its parent's height.
      expect(block.pChainHeight).toBe(BigInt(i));
      parentID = block.id;
    }
    const epochs = containers.slice(1).map((c) => parseProposerBlock(hexBytes(c.bytes)).epoch!.number);
    // Block 1 (the accounts' funding) has none; 5 is the first past 30 s, so it seals epoch 1 and 6 opens epoch 2.
    expect(epochs).toEqual([1n, 1n, 1n, 1n, 2n]);
    // The next block's epoch is what proposervm reports: the epoch the last block sealed is still open.
    const last = parseProposerBlock(hexBytes(containers.at(-1)!.bytes));
    const epoch = await new ProposervmClient({ baseUrl: url, blockchainID: 'P' }).getCurrentEpoch({});
    expect(epoch).toEqual({
      number: String(last.epoch!.number),
      startTime: String(last.epoch!.startTime),
      pChainHeight: String(last.epoch!.pChainHeight),
    });
    expect((await index.getLastAccepted({})).id).toBe(containers.at(-1)!.id);
  });

  it('finds every accepted P-Chain block by ID, and knows no other ID', async () => {
    const { url, state } = await start({ indexEnabled: true });
    state.dev.mine({ chain: 'P', blocks: 4 });
    const index = new IndexerClient({ baseUrl: url });
    const { containers } = await index.getContainerRange({ startIndex: 0, numToFetch: 100 });
    expect(containers).toHaveLength(5);
    for (const container of containers) {
      expect(await index.getContainerByID({ id: container.id })).toEqual(container);
      expect(await index.getIndex({ id: container.id })).toEqual({ index: container.index });
      expect(await index.isAccepted({ id: container.id })).toEqual({ isAccepted: true });
    }
    const unknown = cb58Encode(sha256(Buffer.from('no such container')));
    expect(await index.isAccepted({ id: unknown })).toEqual({ isAccepted: false });
    await expect(index.getContainerByID({ id: unknown })).rejects.toThrow('not found');
    await expect(index.getContainerByIndex({ index: 5 })).rejects.toThrow('no container at index 5');
    await expect(index.getContainerRange({ startIndex: 0, numToFetch: 0 })).rejects.toThrow(
      'numToFetch must be in [1,1024] but is 0',
    );
    await expect(index.getContainerRange({ startIndex: 9, numToFetch: 1 })).rejects.toThrow(
      'start index (9) > last accepted index (4)',
    );
    await expect(index.getLastAccepted({ encoding: 'json' })).rejects.toThrow('unsupported encoding in method');
  });

  it("lists the X-Chain's transactions as getTx answers them; vtx and the C-Chain's blocks are empty", async () => {
    const { url } = await start({ indexEnabled: true });
    const txs = new IndexerClient({ baseUrl: url, chain: 'X', index: 'tx' });
    const x = new XChainClient({ baseUrl: url });
    const { containers } = await txs.getContainerRange({ startIndex: 0, numToFetch: 10 });
    expect(containers.length).toBeGreaterThan(0);
    for (const container of containers) expect((await x.getTx({ txID: container.id })).tx).toBe(container.bytes);
    const blocks = new IndexerClient({ baseUrl: url, chain: 'X', index: 'block' });
    const first = parseProposerBlock(
      hexBytes((await blocks.getContainerByIndex({ index: 0, encoding: 'hexnc' })).bytes),
    );
    expect(`0x${first.inner.toString('hex')}`).toBe((await x.getBlockByHeight({ height: 1, encoding: 'hexnc' })).block);
    for (const [chain, kind] of [
      ['X', 'vtx'],
      ['C', 'block'],
    ])
      await expect(new IndexerClient({ baseUrl: url, chain, index: kind }).getLastAccepted({})).rejects.toThrow(
        'no containers have been accepted',
      );
  });

  it('drops what a revert undoes', async () => {
    const { url, state } = await start({ indexEnabled: true });
    const index = new IndexerClient({ baseUrl: url });
    const before = await index.getLastAccepted({});
    const { snapshotID } = state.dev.snapshot();
    state.dev.mine({ chain: 'P', blocks: 2 });
    expect((await index.getLastAccepted({})).index).toBe(String(Number(before.index) + 2));
    state.dev.revert({ snapshotID });
    expect(await index.getLastAccepted({})).toEqual(before);
  });
});

describe('@avalanche-sdk/client', () => {
  it('its index and proposervm clients resolve against the mock', async () => {
    const { url, state } = await start({ indexEnabled: true });
    state.dev.mine({ chain: 'P', blocks: 2 });
    const transport = { type: 'http', url } as const;
    const pIndex = createIndexApiClient({ chain: avalancheFuji, transport, clientType: 'indexPChainBlock' });
    const last = await pIndex.getLastAccepted({ encoding: 'hex' });
    expect(last.index).toBe('2');
    expect(await pIndex.isAccepted({ id: last.id, encoding: 'hex' })).toEqual({ isAccepted: true });
    const xTx = createIndexApiClient({ chain: avalancheFuji, transport, clientType: 'indexXChainTx' });
    expect((await xTx.getContainerByIndex({ index: 0, encoding: 'hex' })).index).toBe('0');
    const proposervm = createProposervmApiClient({ chain: avalancheFuji, transport, clientType: 'proposervmPChain' });
    expect(await proposervm.getProposedHeight()).toEqual({ height: '3' });
    expect((await proposervm.getCurrentEpoch()).number).toBe('1');
    const cProposervm = createProposervmApiClient({ chain: avalancheFuji, transport, clientType: 'proposervmCChain' });
    expect(await cProposervm.getProposedHeight()).toEqual({ height: '3' });
  });
});
