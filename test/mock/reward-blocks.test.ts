/**
 * The blocks that end a staking period, as AvalancheGo's P-Chain builds them (block/builder/builder.go buildBlock):
 * when the chain time reaches the end of the first current staker, a Banff proposal block holding a
 * RewardValidatorTx{TxID}, then the option the node prefers (block/executor/options.go: commit when the staker's uptime
 * suffices, abort otherwise). Read back over HTTP: heights, blocks, the reward transaction, its status, the reward
 * UTXOs, the block index (proposervm wraps the option in an `option` block) and a dumped and reloaded state.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexerClient, PChainClient } from '../../generated/client/dist/index.js';
import { bech32Encode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const AVAX = 1_000_000_000n;
const nodeOf = (fill: number) => `NodeID-${cb58Encode(new Uint8Array(20).fill(fill))}`;
const address = (fill: number) => `P-${bech32Encode('local', new Uint8Array(20).fill(fill))}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
const hexOf = (text: string) => Buffer.from(text.slice(2), 'hex');
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** txs.NewSigned(&RewardValidatorTx{TxID}, txs.Codec, nil): codec version, type 20, the ID, no credentials. */
function rewardTxBytes(stakerTxID: string): Buffer {
  return Buffer.concat([Buffer.alloc(2), u32(20), cb58Decode(stakerTxID)!, u32(0)]);
}

let node: RunningMockNode;
let p: PChainClient;
beforeEach(async () => {
  node = await startMockNode({ port: 0, validateResults: true, indexEnabled: true, world: { accounts: 0 } });
  p = new PChainClient({ baseUrl: node.url });
});
afterEach(() => node.close());

const height = async () => Number((await p.getHeight({})).height);
const jsonBlock = async (h: number) =>
  (await p.getBlockByHeight({ height: h, encoding: 'json' })).block as unknown as Record<string, unknown>;
const hexBlock = async (h: number) => hexOf(String((await p.getBlockByHeight({ height: h, encoding: 'hexnc' })).block));

/** A staker of the Primary Network ending `seconds` from now; its node connected or not. */
async function stake(fill: number, seconds: bigint, connected: boolean) {
  const end = node.world.time.get() + seconds;
  const { txID } = await node.dev.addStaker({
    nodeID: nodeOf(fill),
    weight: String(2_000n * AVAX),
    endTime: String(end),
    rewardAddresses: [address(fill)],
    connected,
  });
  return { txID, end };
}

/** Checks the two blocks at `at` and `at + 1` end `staker` with `option` (31 commit, 30 abort); the reward tx's ID. */
async function expectRewardBlocks(at: number, staker: { txID: string; end: bigint }, option: 30 | 31) {
  const parent = await jsonBlock(at - 1);
  const proposalBytes = await hexBlock(at);
  const rewardTx = rewardTxBytes(staker.txID);
  const rewardTxID = cb58Encode(sha256(rewardTx));
  // BanffProposalBlock: type 29, time, no decision txs, parent, height, then the tx without its codec version.
  const u64 = (n: bigint | number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(n));
    return b;
  };
  expect(proposalBytes).toEqual(
    Buffer.concat([
      Buffer.alloc(2),
      u32(29),
      u64(staker.end),
      u32(0),
      cb58Decode(String(parent.id))!,
      u64(at),
      rewardTx.subarray(2),
    ]),
  );
  const proposalID = cb58Encode(sha256(proposalBytes));
  expect(await jsonBlock(at)).toEqual({
    time: Number(staker.end),
    txs: [],
    parentID: parent.id,
    height: at,
    id: proposalID,
    tx: { unsignedTx: { txID: staker.txID }, credentials: [], id: rewardTxID },
  });
  const optionBytes = await hexBlock(at + 1);
  expect(optionBytes).toEqual(
    Buffer.concat([Buffer.alloc(2), u32(option), u64(staker.end), cb58Decode(proposalID)!, u64(at + 1)]),
  );
  const optionID = cb58Encode(sha256(optionBytes));
  expect(await jsonBlock(at + 1)).toEqual({
    time: Number(staker.end),
    parentID: proposalID,
    height: at + 1,
    id: optionID,
  });
  expect((await p.getBlock({ blockID: optionID, encoding: 'json' })).block).toMatchObject({ id: optionID });
  // The reward transaction, as the state holds it (json and hex), and its status.
  expect((await p.getTx({ txID: rewardTxID, encoding: 'hexnc' })).tx).toBe(`0x${rewardTx.toString('hex')}`);
  expect((await p.getTx({ txID: rewardTxID, encoding: 'json' })).tx).toEqual({
    unsignedTx: { txID: staker.txID },
    credentials: [],
    id: rewardTxID,
  });
  expect((await p.getTxStatus({ txID: rewardTxID })).status).toBe(option === 31 ? 'Committed' : 'Aborted');
  return { rewardTxID, proposalID, optionID };
}

describe('a staking period that ends', () => {
  it('is ended by a proposal block and its commit block, the reward paid, then the block at the new time', async () => {
    const staker = await stake(41, 3n * 24n * 3600n, true);
    const before = await height();
    await node.dev.setTime({ timestamp: String(staker.end + 100n) });
    // Proposal, commit, and the block dev.setTime builds at its time.
    expect(await height()).toBe(before + 3);
    await expectRewardBlocks(before + 1, staker, 31);
    expect((await jsonBlock(before + 3)).time).toBe(Number(staker.end + 100n));
    const rewards = await p.getRewardUTXOs({ txID: staker.txID } as never);
    expect(Number(rewards.numFetched)).toBe(1);
    expect((await p.getCurrentValidators({ nodeIDs: [nodeOf(41)] })).validators).toEqual([]);
    // The proposal block changes no state: the validator leaves the set at its option's height.
    const at = async (h: number) => Object.keys((await p.getValidatorsAt({ height: String(h) } as never)) as object);
    expect(await at(before + 1)).toContain(nodeOf(41));
    expect(await at(before + 2)).not.toContain(nodeOf(41));
  });

  it('is aborted when its node was not up: stake back, no reward, the reward tx Aborted', async () => {
    const staker = await stake(42, 3n * 24n * 3600n, false);
    const before = await height();
    const balance = async () => BigInt((await p.getBalance({ addresses: [address(42)] })).balance);
    expect(await balance()).toBe(0n);
    await node.dev.setTime({ timestamp: String(staker.end), mine: false });
    // The node builds the reward blocks on its own; only the block at the new time is left out.
    expect(await height()).toBe(before + 2);
    await expectRewardBlocks(before + 1, staker, 30);
    expect((await p.getRewardUTXOs({ txID: staker.txID } as never)).numFetched).toBe('0');
    expect(await balance()).toBe(2_000n * AVAX);
  });

  it('ends stakers one at a time, in the iterator order, and the index lists the proposervm option blocks', async () => {
    const first = await stake(43, 3n * 24n * 3600n, true);
    const second = await stake(44, 4n * 24n * 3600n, true);
    const before = await height();
    await node.dev.setTime({ timestamp: String(second.end + 1n) });
    expect(await height()).toBe(before + 5);
    const one = await expectRewardBlocks(before + 1, first, 31);
    const two = await expectRewardBlocks(before + 3, second, 31);
    const index = new IndexerClient({ baseUrl: node.url, chain: 'P', index: 'block' });
    const { containers } = await index.getContainerRange({ startIndex: before, numToFetch: 5, encoding: 'hexnc' });
    expect(containers).toHaveLength(5);
    const inner = (bytes: Buffer) => {
      const type = bytes.readUInt32BE(2);
      // vms/proposervm/block/option.go: type 1, the parent (a proposervm block), the inner block's bytes.
      if (type === 1) return { type, parentID: cb58Encode(bytes.subarray(6, 38)), inner: bytes.subarray(42) };
      return { type, parentID: cb58Encode(bytes.subarray(6, 38)) };
    };
    for (const [i, option] of [
      [1, one.optionID],
      [3, two.optionID],
    ] as const) {
      const bytes = hexOf(containers[i]!.bytes);
      const parsed = inner(bytes);
      expect(parsed.type).toBe(1);
      expect(bytes.readUInt32BE(38)).toBe(bytes.length - 42);
      expect(parsed.parentID).toBe(containers[i - 1]!.id);
      expect(containers[i]!.id).toBe(cb58Encode(sha256(bytes)));
      expect(cb58Encode(sha256(parsed.inner!))).toBe(option);
      // The block after an option is built on it.
      expect(inner(hexOf(containers[i + 1]!.bytes)).parentID).toBe(containers[i]!.id);
    }
    // A dumped state, loaded again, serves the same blocks and reward transactions.
    const { state } = await node.dev.dumpState({});
    await node.dev.reset({});
    expect(await height()).toBeLessThan(before);
    await node.dev.loadState({ state });
    expect(await height()).toBe(before + 5);
    await expectRewardBlocks(before + 3, second, 31);
    expect((await index.getContainerByIndex({ index: before + 3, encoding: 'hexnc' })).id).toBe(containers[3]!.id);
  });
});
