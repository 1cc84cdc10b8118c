/**
 * The P-Chain mempool as AvalancheGo's: its drop cache (an LRU of 64, answered from before verifying again), its
 * conflict check on shared inputs, and a block built from the pool verifying each tx on the state the ones before left.
 */
import { TransferableOutput, type Utxo, pvm } from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { idOf, makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { World } from '../../mock/world/world.ts';
import { hex, pStakers, signByEwoq as sign, unpackUtxo } from './p-stakers.ts';
import { pDropReason, pRefusal } from './refusal.ts';
import { ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';

const recipient = new Uint8Array(20).fill(9);
const AVAX = 1_000_000_000n;

let world: World;
let stakers: ReturnType<typeof pStakers>;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  stakers = pStakers(world);
});

/** A UTXO the chain does not have, one per `n`. */
const ghostUtxo = (n: number) =>
  makeUtxo({
    txID: cb58Encode(new Uint8Array(32).fill(n % 256).map((b, i) => (i === 0 ? n >> 8 : b))),
    outputIndex: 0,
    assetID: world.network.avaxAssetID,
    amount: AVAX,
    owner: { locktime: 0n, threshold: 1, addresses: [hex(ewoq)] },
    stakeableLocktime: 0n,
  });

/** A send from a UTXO the chain never had (refused: the consumed UTXO is not found), one per `n`. */
function refusedSend(n: number): Promise<Uint8Array> {
  return sign(
    pvm.newBaseTx(
      {
        feeState: sdkFeeState(world),
        fromAddressesBytes: [ewoq],
        utxos: [unpackUtxo(ghostUtxo(n).bytes)],
        outputs: [TransferableOutput.fromNative(world.network.avaxAssetID, 1n, [recipient])],
      },
      sdkContext(world),
    ),
  );
}

describe('the drop cache (platform.getTxStatus "Dropped")', () => {
  it('is the mempool LRU of 64 (vms/txs/mempool): a tx refused again is the newest', async () => {
    const engine = new Engine(world);
    const txs = await Promise.all(Array.from({ length: 65 }, (_, i) => refusedSend(i + 1)));
    const refuse = (bytes: Uint8Array) => {
      expect(() => engine.issue('P', bytes)).toThrow(pRefusal(/failed to read consumed UTXO .*/));
    };
    refuse(txs[0]!);
    const first = idOf(txs[0]!);
    const reason = world.txs.get(first)?.reason;
    expect(world.txs.get(first)?.status).toBe('Dropped');
    expect(reason).toMatch(pDropReason(/failed to read consumed UTXO .*/, first));
    for (const bytes of txs.slice(1, 64)) refuse(bytes);
    // 64 refusals so far, the first the oldest; issued again, it is refused with its reason and becomes the newest.
    expect(() => engine.issue('P', txs[0]!)).toThrow(`couldn't issue tx: ${reason}`);
    const second = idOf(txs[1]!);
    refuse(txs[64]!);
    expect(world.txs.get(first)?.status).toBe('Dropped');
    expect(world.txs.get(second)).toBeUndefined();
  });
});

describe('a tx refused lately', () => {
  it('is refused again with its reason though it became valid, as the gossip mempool answers from its drop cache', async () => {
    const engine = new Engine(world);
    const bytes = await refusedSend(1);
    expect(() => engine.issue('P', bytes)).toThrow(pRefusal(/failed to read consumed UTXO .*/));
    const reason = world.txs.get(idOf(bytes))!.reason!;
    // The UTXO it spends now exists: the node still answers from its drop cache until the entry is evicted.
    const ghost = ghostUtxo(1);
    world.utxos.P.set(ghost.key, ghost);
    expect(() => engine.issue('P', bytes)).toThrow(`couldn't issue tx: ${reason}`);
    // Evicted by 64 newer refusals, it is verified again, and accepted.
    const others = await Promise.all(Array.from({ length: 64 }, (_, i) => refusedSend(i + 2)));
    for (const other of others) expect(() => engine.issue('P', other)).toThrow(pRefusal(/failed to read .*/));
    expect(world.txs.get(idOf(bytes))).toBeUndefined();
    expect(engine.issue('P', bytes)).toBe(idOf(bytes));
    expect(world.txs.get(idOf(bytes))?.status).toBe('Committed');
  });
});

describe('a block built from the pool (manual mining)', () => {
  it('verifies each tx again on the state the ones before it left: a 2nd validator of a node is dropped', async () => {
    const engine = new Engine(world, { mode: 'manual' });
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;
    const start = world.time.get();
    // Each validator tx spends other UTXOs, so the pool's conflict check (shared inputs) lets both in.
    expect(world.utxosOf('P', hex(ewoq)).length).toBeGreaterThanOrEqual(2);
    const validator = (utxo: Utxo, seed: number) =>
      stakers.validatorTx({ nodeID, start, end: start + staking.minStakeDuration, seed, utxos: [utxo] });
    const big = [...world.utxosOf('P', hex(ewoq))]
      .sort((a, b) => (a.amount > b.amount ? -1 : 1))
      .map((u) => unpackUtxo(u.bytes));
    const firstID = engine.issue('P', await validator(big[0]!, 5));
    const secondID = engine.issue('P', await validator(big[1]!, 6));
    expect(engine.pending('P')).toBe(2);
    engine.mine('P', 1);
    const validators = [...world.stakers.values()].filter((s) => s.nodeID === nodeID);
    expect(validators.map((s) => s.txID)).toEqual([firstID]);
    expect(world.tip('P').txIDs).toEqual([firstID]);
    expect(world.txs.get(secondID)).toMatchObject({ status: 'Dropped' });
    expect(world.txs.get(secondID)?.reason).toMatch(
      pDropReason(`duplicate validator: ${nodeID} on ${world.chainIDs.P}`, secondID),
    );
  });
});

describe('the pool', () => {
  it('refuses a tx spending what a pooled one spends, as the mempool does', async () => {
    const engine = new Engine(world, { mode: 'manual' });
    const send = (amount: bigint) =>
      sign(
        pvm.newBaseTx(
          {
            feeState: sdkFeeState(world),
            fromAddressesBytes: [ewoq],
            utxos: stakers.utxosOf(ewoq),
            outputs: [TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient])],
          },
          sdkContext(world),
        ),
      );
    const first = await send(AVAX);
    const second = await send(2n * AVAX);
    const firstID = engine.issue('P', first);
    // gossipMempool.Add: a tx already in the mempool is a duplicate, which issueTxFromRPC answers as added.
    expect(engine.issue('P', first)).toBe(firstID);
    expect(engine.pending('P')).toBe(1);
    // The P-Chain's own mempool (v1.14.1+) names no tx (platformvm/txs/mempool/mempool.go:113).
    const conflict = 'tx conflicts with other tx';
    expect(() => engine.issue('P', second)).toThrow(`couldn't issue tx: ${conflict}`);
    expect(world.txs.get(idOf(second))).toMatchObject({ status: 'Dropped', reason: conflict });
    engine.mine('P', 1);
    expect(world.tip('P').txIDs).toEqual([firstID]);
    // Refused lately, it is refused again with its drop reason, without being verified again.
    expect(() => engine.issue('P', second)).toThrow(`couldn't issue tx: ${conflict}`);
    const third = await send(3n * AVAX);
    expect(engine.issue('P', third)).toBe(idOf(third));
    expect(engine.pending('P')).toBe(1);
  });
});
