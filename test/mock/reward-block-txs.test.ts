/**
 * The mempool's transactions in the Banff proposal block that ends a staking period, as AvalancheGo v1.14.2 builds and
 * accepts it: block/builder/builder.go buildBlock packs the mempool (packEtnaBlockTxs, at the proposal's time) into
 * the proposal block beside the RewardValidatorTx, and block/executor/verifier.go executes them on the proposal's
 * decision state, below both options, so they are Committed, their UTXOs, exports and stakers made, whether the commit
 * or the abort block follows (acceptor.go optionBlock applies the decision state first). Transactions built by
 * avalanchejs 5.2.0 and issued while automine is off, then the time moved past a staker's end.
 */
import { TransferableOutput, Utxo, pvm, utils } from '@avalabs/avalanchejs';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexerClient, PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { bech32Encode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { hex, pStakers, signByEwoq } from './p-stakers.ts';
import { ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
const DAY = 86_400n;
const nodeOf = (fill: number) => `NodeID-${cb58Encode(new Uint8Array(20).fill(fill))}`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const fromHex = (text: string) => Buffer.from(text.slice(2), 'hex');
const asHex = (bytes: Uint8Array) => utils.bufferToHex(utils.addChecksum(bytes));
const recipient = new Uint8Array(20).fill(7);
/** builder.go NewRewardValidatorTx: codec version, type 20, the staker's tx ID, no credentials. */
const rewardTx = (stakerTxID: string) => Buffer.concat([Buffer.alloc(2), u32(20), cb58Decode(stakerTxID)!, u32(0)]);

let node: RunningMockNode;
let p: PChainClient;
beforeEach(async () => {
  node = await startMockNode({ port: 0, validateResults: true, indexEnabled: true, world: { accounts: 0 } });
  p = new PChainClient({ baseUrl: node.url });
});
afterEach(() => node.close());

const height = async () => Number((await p.getHeight({})).height);
const hexBlock = async (h: number) =>
  fromHex(String((await p.getBlockByHeight({ height: h, encoding: 'hexnc' })).block));
const jsonBlock = async (h: number) =>
  (await p.getBlockByHeight({ height: h, encoding: 'json' })).block as unknown as Record<string, unknown>;
const status = async (txID: string) => (await p.getTxStatus({ txID })).status;
const validatorsAt = async (h: number) =>
  Object.keys((await p.getValidatorsAt({ height: String(h) } as never)) as object);

/** A UTXO of its own for ewoq on P (dev.fund), so that each pooled tx spends another. */
async function ewoqUtxo(amount: bigint): Promise<Utxo> {
  const { utxoID } = await node.dev.fund({ address: `P-${bech32Encode('local', ewoq)}`, amount: String(amount) });
  const utxo = node.world.utxosOf('P', hex(ewoq)).find((u) => u.txID === utxoID!.txID)!;
  return utils.getManagerForVM('PVM').unpack(utxo.bytes, Utxo);
}

/** A signed P-Chain BaseTx paying `amount` to `recipient`, and an ExportTx of `exported` to X, from their own UTXOs. */
async function transfers(amount: bigint, exported: bigint) {
  const world = node.world;
  const context = sdkContext(world);
  const output = (value: bigint) => [TransferableOutput.fromNative(world.network.avaxAssetID, value, [recipient])];
  const base = await signByEwoq(
    pvm.newBaseTx(
      {
        feeState: sdkFeeState(world),
        fromAddressesBytes: [ewoq],
        utxos: [await ewoqUtxo(10n * AVAX)],
        outputs: output(amount),
      },
      context,
    ),
  );
  const exportTx = await signByEwoq(
    pvm.newExportTx(
      {
        feeState: sdkFeeState(world),
        fromAddressesBytes: [ewoq],
        utxos: [await ewoqUtxo(10n * AVAX)],
        destinationChainId: world.chainIDs.X,
        outputs: output(exported),
      },
      context,
    ),
  );
  return { base, exportTx };
}

const issue = async (bytes: Uint8Array) => (await p.issueTx({ tx: asHex(bytes) })).txID;
const idOf = (bytes: Uint8Array) => cb58Encode(sha256(bytes));

/** The BanffProposalBlock the node builds: type 29, time, its decision txs, parent, height, the reward tx. */
function proposalBytes(time: bigint, decisions: Uint8Array[], parentID: string, at: number, stakerTxID: string) {
  return Buffer.concat([
    Buffer.alloc(2),
    u32(29),
    u64(time),
    u32(decisions.length),
    ...decisions.map((tx) => tx.subarray(2)),
    cb58Decode(parentID)!,
    u64(BigInt(at)),
    rewardTx(stakerTxID).subarray(2),
  ]);
}

describe("a reward proposal block carries the mempool's transactions", () => {
  it('packs them at the staker end, Committed with the commit block; a staker they add is ended in turn', async () => {
    const end = node.world.time.get() + 3n * DAY;
    const staker = await node.dev.addStaker({
      nodeID: nodeOf(61),
      weight: String(2_000n * AVAX),
      endTime: String(end),
      rewardAddresses: [`P-${bech32Encode('local', new Uint8Array(20).fill(61))}`],
      connected: true,
    });
    node.dev.setAutomine({ enabled: false });
    const { base, exportTx } = await transfers(3n * AVAX, 2n * AVAX);
    // A validator whose period starts when a block takes it (post-Durango) and lasts a day and a half.
    const validator = await pStakers(node.world).validatorTx({
      nodeID: nodeOf(62),
      start: 0n,
      end: end + DAY + DAY / 2n,
      seed: 62,
      utxos: [await ewoqUtxo(2_100n * AVAX)],
    });
    const decisions = [base, exportTx, validator];
    const ids = [];
    for (const tx of decisions) ids.push(await issue(tx));
    expect(ids).toEqual(decisions.map(idOf));
    for (const id of ids) expect(await status(id)).toBe('Processing');
    const before = await height();
    const parent = await jsonBlock(before);

    await node.dev.setTime({ timestamp: String(end + 2n * DAY) });
    // The staker's proposal (with the three txs) and commit; the new validator's proposal (empty) and abort (its node
    // never connected); the block dev.setTime builds at its time, empty: the pool was drained.
    expect(await height()).toBe(before + 5);
    const proposal = await hexBlock(before + 1);
    expect(proposal).toEqual(proposalBytes(end, decisions, String(parent.id), before + 1, staker.txID));
    const proposalID = idOf(proposal);
    const rewardTxID = idOf(rewardTx(staker.txID));
    const txJson = async (txID: string) => (await p.getTx({ txID, encoding: 'json' })).tx;
    expect(await jsonBlock(before + 1)).toEqual({
      time: Number(end),
      txs: await Promise.all(ids.map(txJson)),
      parentID: parent.id,
      height: before + 1,
      id: proposalID,
      tx: { unsignedTx: { txID: staker.txID }, credentials: [], id: rewardTxID },
    });
    expect((await p.getBlock({ blockID: proposalID, encoding: 'hexnc' })).block).toBe(`0x${proposal.toString('hex')}`);
    expect((await hexBlock(before + 2)).readUInt32BE(2)).toBe(31);
    for (const id of [...ids, rewardTxID]) expect(await status(id)).toBe('Committed');
    for (const [i, tx] of decisions.entries())
      expect((await p.getTx({ txID: ids[i]!, encoding: 'hexnc' })).tx).toBe(`0x${Buffer.from(tx).toString('hex')}`);

    // The validator the proposal added: in the set from the option's height (the node writes a proposal's state with
    // its option), ended by its own proposal block and the abort block once the time passed its end.
    const validatorEnd = end + DAY + DAY / 2n;
    expect(await validatorsAt(before + 1)).not.toContain(nodeOf(62));
    expect(await validatorsAt(before + 2)).toContain(nodeOf(62));
    expect(await validatorsAt(before + 4)).not.toContain(nodeOf(62));
    const second = await hexBlock(before + 3);
    expect(second).toEqual(proposalBytes(validatorEnd, [], idOf(await hexBlock(before + 2)), before + 3, ids[2]!));
    expect((await hexBlock(before + 4)).readUInt32BE(2)).toBe(30);
    expect(await status(idOf(rewardTx(ids[2]!)))).toBe('Aborted');
    expect(await status(ids[2]!)).toBe('Committed');
    expect((await jsonBlock(before + 5)).txs).toEqual([]);
    expect(node.state.engine.pending('P')).toBe(0);

    // The index lists the proposervm block wrapping the proposal block's bytes, with its txs.
    const index = new IndexerClient({ baseUrl: node.url, chain: 'P', index: 'block' });
    const container = await index.getContainerByIndex({ index: before, encoding: 'hexnc' });
    const wrapped = fromHex(container.bytes);
    expect(wrapped.indexOf(proposal)).toBeGreaterThan(0);
    expect((await index.getContainerByID({ id: container.id, encoding: 'hexnc' })).bytes).toBe(container.bytes);
  });

  it('applies them with the abort block too, and drops what the proposal time no longer allows', async () => {
    const end = node.world.time.get() + 3n * DAY;
    const staker = await node.dev.addStaker({
      nodeID: nodeOf(71),
      weight: String(2_000n * AVAX),
      endTime: String(end),
      rewardAddresses: [`P-${bech32Encode('local', new Uint8Array(20).fill(71))}`],
      connected: false,
    });
    node.dev.setAutomine({ enabled: false });
    const { base, exportTx } = await transfers(3n * AVAX, 2n * AVAX);
    // Valid when issued, but its period (to two days from now) is over by the proposal's time.
    const late = await pStakers(node.world).validatorTx({
      nodeID: nodeOf(72),
      start: 0n,
      end: node.world.time.get() + 2n * DAY,
      seed: 72,
      utxos: [await ewoqUtxo(2_100n * AVAX)],
    });
    const ids = [await issue(base), await issue(late), await issue(exportTx)];
    const before = await height();
    const parent = await jsonBlock(before);

    await node.dev.setTime({ timestamp: String(end), mine: false });
    expect(await height()).toBe(before + 2);
    expect(await hexBlock(before + 1)).toEqual(
      proposalBytes(end, [base, exportTx], String(parent.id), before + 1, staker.txID),
    );
    expect((await hexBlock(before + 2)).readUInt32BE(2)).toBe(30);
    expect(await status(idOf(rewardTx(staker.txID)))).toBe('Aborted');
    expect([await status(ids[0]!), await status(ids[2]!)]).toEqual(['Committed', 'Committed']);
    // Verified again at the proposal's time, as packEtnaBlockTxs executes each: marked dropped with its reason.
    const dropped = await p.getTxStatus({ txID: ids[1]! });
    expect(dropped).toEqual({ status: 'Dropped', reason: expect.stringMatching(/staking period is too short/) });
    expect(node.state.engine.pending('P')).toBe(0);

    // The abort block keeps the decision state: the payment and the export are made.
    const owned = (chain: 'P') => node.world.utxosOf(chain, hex(recipient)).reduce((sum, u) => sum + u.amount, 0n);
    expect(owned('P')).toBe(3n * AVAX);
    const address = `X-${bech32Encode('local', recipient)}`;
    const x = new XChainClient({ baseUrl: node.url });
    const imported = await x.getUTXOs({ addresses: [address], sourceChain: 'P', encoding: 'hex' } as never);
    expect(imported.numFetched).toBe('1');
    expect(imported.utxos[0]).toContain(Buffer.from(cb58Decode(ids[2]!)!).toString('hex'));
  });

  it('holds at most 128 KiB of txs a block before Etna (packDurangoBlockTxs), the rest waiting for the next', async () => {
    const fuji = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 0 } });
    try {
      // 2024-06-01: after Fuji's Durango (P-Chain BaseTxs), before its Etna (gas metering).
      await fuji.dev.setTime({ timestamp: '1717200000' });
      fuji.dev.setAutomine({ enabled: false });
      const world = fuji.world;
      const fujiP = new PChainClient({ baseUrl: fuji.url });
      // Two BaseTxs of 900 outputs each (~76 KiB; avalanchejs builds none over 1,000,000 gas): each fits a block, both do not.
      const big = async (fill: number) => {
        const { utxoID } = await fuji.dev.fund({ address: `P-${bech32Encode('fuji', ewoq)}`, amount: String(AVAX) });
        const utxo = world.utxosOf('P', hex(ewoq)).find((u) => u.txID === utxoID!.txID)!;
        const outputs = Array.from({ length: 900 }, (_, i) => {
          const owner = new Uint8Array(20).fill(fill);
          new DataView(owner.buffer).setUint16(0, i);
          return TransferableOutput.fromNative(world.network.avaxAssetID, 1n, [owner]);
        });
        const utxos = [utils.getManagerForVM('PVM').unpack(utxo.bytes, Utxo)];
        return signByEwoq(
          pvm.newBaseTx(
            { feeState: sdkFeeState(world), fromAddressesBytes: [ewoq], utxos, outputs },
            sdkContext(world),
          ),
        );
      };
      const txs = [await big(1), await big(2)];
      for (const tx of txs) expect(tx.length).toBeGreaterThan(64 * 1024);
      const ids = [];
      for (const tx of txs) ids.push((await fujiP.issueTx({ tx: asHex(tx) })).txID);
      const txsOf = async () =>
        (
          (await fujiP.getBlockByHeight({ height: Number((await fujiP.getHeight({})).height), encoding: 'json' }))
            .block as unknown as { txs: Array<{ id: string }> }
        ).txs.map((tx) => tx.id);
      await fuji.dev.mine({ chain: 'P' });
      expect(await txsOf()).toEqual([ids[0]]);
      await fuji.dev.mine({ chain: 'P' });
      expect(await txsOf()).toEqual([ids[1]]);
    } finally {
      await fuji.close();
    }
  });
});
