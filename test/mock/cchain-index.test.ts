/**
 * The C-Chain's blocks in `/ext/index/C/block` and its proposervm, over HTTP: viem builds blocks (a transfer, a
 * contract, legacy and EIP-1559 transactions), avalanchejs an atomic export; the index lists one proposervm block per
 * C-Chain block after genesis, in order, each wrapping coreth's block RLP whose header hashes to what
 * eth_getBlockByNumber answers, with the block's transactions and, for the atomic one, its ExtData.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type Hex, parseEther } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { IndexerClient, ProposervmClient } from '../../generated/client/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients, exportEwoqToP } from './c-clients.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** vms/proposervm/block's fields up to the inner block (linearcodec: u16 version, u32 type, then the fields). */
function unwrap(bytes: Buffer) {
  let at = 2;
  const u32 = () => bytes.readUInt32BE((at += 4) - 4);
  const type = u32();
  const parentID = cb58Encode(bytes.subarray(at, (at += 32)));
  const timestamp = bytes.readBigUInt64BE(at);
  at += 16;
  const certificate = u32();
  at += certificate;
  const size = u32();
  const inner = bytes.subarray(at, at + size);
  return { type, parentID, timestamp, inner };
}

const clients = cClients;

describe('the C-Chain in the indexer', () => {
  it("lists every C-Chain block after genesis in order, wrapping coreth's RLP of eth_getBlockByNumber's block", async () => {
    node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
    const { url } = node;
    const { pub, wallet } = clients(url);
    const to = '0x000000000000000000000000000000000000dEaD';
    const hashes = [
      await wallet.sendTransaction({ to, value: parseEther('1') }),
      await wallet.sendTransaction({ to, value: 1n, type: 'legacy' }),
      await wallet.sendTransaction({ to, value: 2n, type: 'eip2930', accessList: [] }),
    ];
    await node.state.dev.mine({ chain: 'C', blocks: 2 });
    // An atomic export: its block carries the tx in ExtData.
    const signedBytes = (await exportEwoqToP(url)).toBytes();

    const height = Number(await pub.getBlockNumber());
    expect(height).toBe(6);
    const index = new IndexerClient({ baseUrl: url, chain: 'C', index: 'block' });
    const { containers } = await index.getContainerRange({ startIndex: 0, numToFetch: 100, encoding: 'hexnc' });
    expect(containers.map((c) => c.index)).toEqual(['0', '1', '2', '3', '4', '5']);
    const genesis = await pub.getBlock({ blockNumber: 0n });
    let parentID = cb58Encode(Buffer.from(genesis.hash.slice(2), 'hex'));
    const mined: Hex[] = [];
    for (const [i, container] of containers.entries()) {
      const wrapper = unwrap(Buffer.from(container.bytes.slice(2), 'hex'));
      expect(wrapper.parentID).toBe(parentID);
      expect(wrapper.type).toBe(i === 0 ? 0 : 2);
      const block = await pub.getBlock({ blockNumber: BigInt(i + 1), includeTransactions: true });
      expect(wrapper.timestamp).toBe(block.timestamp);
      // coreth's block: header, transactions, uncles, version, ExtData.
      const [header, txs, uncles, version, extData] = RLP.decode(wrapper.inner) as [
        unknown,
        Uint8Array[],
        [],
        Uint8Array,
        Uint8Array,
      ];
      expect(hexOf(keccak_256(RLP.encode(header as Uint8Array[])))).toBe(block.hash);
      expect([uncles, version.length]).toEqual([[], 0]);
      expect(txs).toHaveLength(block.transactions.length);
      for (const [t, tx] of txs.entries()) {
        const encoded = Array.isArray(tx) ? RLP.encode(tx) : tx;
        expect(hexOf(keccak_256(encoded))).toBe(block.transactions[t]!.hash);
        mined.push(block.transactions[t]!.hash);
      }
      if (i === 5)
        expect(hexOf(extData)).toBe(hexOf(Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 1]), signedBytes.subarray(2)])));
      else expect(extData).toHaveLength(0);
      expect(await index.getContainerByID({ id: container.id, encoding: 'hexnc' })).toEqual(container);
      parentID = container.id;
    }
    expect(mined).toEqual(hashes);
    expect((await index.getLastAccepted({})).id).toBe(containers.at(-1)!.id);
    // proposervm's answers for C follow the C-Chain's own blocks: the epoch its last block opened is still current.
    const proposervm = new ProposervmClient({ baseUrl: url, blockchainID: 'C' });
    const pHeight = (await new ProposervmClient({ baseUrl: url }).getProposedHeight({})).height;
    expect(await proposervm.getProposedHeight({})).toEqual({ height: pHeight });
    expect((await proposervm.getCurrentEpoch({})).number).toBe('1');
  });

  it('drops the blocks a revert undoes, with the EVM', async () => {
    node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
    const index = new IndexerClient({ baseUrl: node.url, chain: 'C', index: 'block' });
    await node.state.dev.mine({ chain: 'C', blocks: 2 });
    const before = await index.getLastAccepted({});
    const { snapshotID } = node.state.dev.snapshot();
    await node.state.dev.mine({ chain: 'C', blocks: 3 });
    expect((await index.getLastAccepted({})).index).toBe('4');
    node.state.dev.revert({ snapshotID });
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const after = await index.getContainerRange({ startIndex: 0, numToFetch: 10 });
    expect(after.containers.map((c) => c.index)).toEqual(['0', '1', '2']);
    expect(after.containers[1]).toEqual(before);
    const { pub } = clients(node.url);
    expect(await pub.getBlockNumber()).toBe(3n);
  });
});
