/**
 * The P-Chain's dynamic fee state moves as the node's does (vms/components/gas/state.go): each block refills the
 * capacity and drains the excess for its time, each accepted transaction consumes its gas.
 */
import { TransferableOutput, type UnsignedTx, Utxo, addTxSignatures, pvm, utils } from '@avalabs/avalanchejs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { loadWorld, saveWorld } from '../../mock/engine/state-file.ts';
import { DevControls } from '../../mock/engine/dev.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { advanceGasState, consumeGas } from '../../mock/engine/fee-state.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { idOf } from '../../mock/world/codec.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import { goStringify } from '../../runtime/server/encode.ts';
import type { World } from '../../mock/world/world.ts';

const recipient = new Uint8Array(20).fill(9);
const AVAX = 1_000_000_000n;

let world: World;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
});

/** The fee state as the read answers it: Go's uint64s as bigints, written exactly by the result writer. */
const readFeeState = () => pChainReads(world, TX_TYPES).getFeeState();

/** A P-Chain BaseTx by avalanchejs, priced from getFeeState as a wallet prices it; its bytes and gas. */
async function send(
  amount = AVAX,
  only?: (utxoKey: string) => boolean,
  s = readFeeState(),
): Promise<{ bytes: Uint8Array; gas: bigint; unsigned: UnsignedTx }> {
  const unsigned = pvm.newBaseTx(
    {
      feeState: { capacity: BigInt(s.capacity), excess: BigInt(s.excess), price: BigInt(s.price), timestamp: '' },
      fromAddressesBytes: [ewoq],
      utxos: world
        .utxosOf('P', Buffer.from(ewoq).toString('hex'))
        .filter((u) => only?.(u.key) ?? true)
        .map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo)),
      outputs: [TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient])],
    },
    sdkContext(world),
  );
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  const gas = pvm.calculateFee(unsigned.getTx(), sdkContext(world).platformFeeConfig.weights, 1n) as bigint;
  return { bytes: unsigned.getSignedTx().toBytes(), gas, unsigned };
}

describe('P-Chain fee state', () => {
  it('each accepted tx consumes its gas: getFeeState capacity and excess move, the block a second on', async () => {
    const engine = new Engine(world);
    const { maxCapacity, targetPerSecond } = world.config.fee;
    const first = await send();
    engine.issue('P', first.bytes);
    expect(readFeeState()).toMatchObject({ capacity: maxCapacity - first.gas, excess: first.gas });
    const second = await send();
    engine.issue('P', second.bytes);
    // The refill of one second puts the capacity back to its maximum before the second tx consumes.
    const drained = first.gas > targetPerSecond ? first.gas - targetPerSecond : 0n;
    expect(readFeeState()).toMatchObject({
      capacity: maxCapacity - second.gas,
      excess: drained + second.gas,
    });
  });

  it('the dynamic fee follows the excess; dev time refills and drains it; a snapshot reverts it', async () => {
    const engine = new Engine(world);
    const dev = new DevControls(world, engine);
    const { minPrice, excessConversionConstant: k, targetPerSecond, maxCapacity } = world.config.fee;
    dev.setFeeState({ excess: String(10n * k), capacity: '0' });
    const snapshot = dev.snapshot().snapshotID;
    const priced = readFeeState();
    expect(BigInt(priced.price)).toBe(gasPrice(minPrice, 10n * k, k));
    expect(BigInt(priced.price)).toBeGreaterThan(1000n * minPrice);
    // Priced as if the excess were still 0: short of the fee the node asks now.
    const cheap = await send(AVAX, undefined, { ...priced, price: minPrice });
    expect(() => engine.issue('P', cheap.bytes)).toThrow(/insufficient unlocked funds|flow check failed/);
    const before = world.feeState.get();
    const { bytes, gas } = await send();
    engine.issue('P', bytes);
    const after = world.feeState.get();
    // A block of its own, a second on: refilled by maxPerSecond, drained by targetPerSecond, then the gas consumed.
    expect(after).toMatchObject({ excess: before.excess - targetPerSecond + gas, timestamp: world.time.get() });
    dev.increaseTime({ seconds: 10, mine: false });
    expect(world.feeState.get()).toMatchObject({
      capacity: maxCapacity,
      excess: after.excess - 10n * targetPerSecond,
      timestamp: world.time.get(),
    });
    dev.revert({ snapshotID: snapshot });
    expect(world.feeState.get()).toEqual(before);
  });

  it('a block packs only what its capacity holds; the rest waits in the pool for a later block', async () => {
    const engine = new Engine(world, { mode: 'manual' });
    const dev = new DevControls(world, engine);
    const genesis = new Set(world.utxosOf('P', Buffer.from(ewoq).toString('hex')).map((u) => u.key));
    const address = `P-${utils.formatBech32(world.network.hrp, ewoq)}`;
    dev.fund({ address, amount: String(10n * AVAX) });
    const first = await send(AVAX, (key) => genesis.has(key));
    const second = await send(AVAX, (key) => !genesis.has(key));
    engine.issue('P', first.bytes);
    engine.issue('P', second.bytes);
    // This world only: no refill between blocks, a capacity that holds the first tx and not both.
    (world as { config: World['config'] }).config = { ...world.config, fee: { ...world.config.fee, maxPerSecond: 0n } };
    dev.setFeeState({ capacity: String(first.gas + second.gas - 1n) });
    dev.mine({ chain: 'P' });
    expect(engine.pending('P')).toBe(1);
    expect(world.tip('P').txIDs).toHaveLength(1);
    expect(world.feeState.get().capacity).toBe(second.gas - 1n);
    dev.setFeeState({ capacity: String(second.gas) });
    dev.mine({ chain: 'P' });
    expect([engine.pending('P'), world.tip('P').txIDs.length, world.feeState.get().capacity]).toEqual([0, 1, 0n]);
  });

  it('automine: a tx the capacity cannot hold waits without a block, and the fee state stays', async () => {
    const engine = new Engine(world);
    (world as { config: World['config'] }).config = { ...world.config, fee: { ...world.config.fee, maxPerSecond: 0n } };
    new DevControls(world, engine).setFeeState({ capacity: '0' });
    const before = world.feeState.get();
    const height = world.tip('P').height;
    const { bytes } = await send();
    engine.issue('P', bytes);
    expect([engine.pending('P'), world.tip('P').height, world.feeState.get()]).toEqual([1, height, before]);
  });

  it('--state saves the moved fee state and loads it back', async () => {
    new Engine(world).issue('P', (await send()).bytes);
    const moved = world.feeState.get();
    expect(moved.capacity).toBeLessThan(world.config.fee.maxCapacity);
    const file = join(mkdtempSync(join(tmpdir(), 'fee-state-')), 'world.json');
    saveWorld(world, { network: 'local', accounts: 0 }, file);
    expect(loadWorld(file)?.world.feeState.get()).toEqual(moved);
  });

  it('AdvanceTime caps the capacity and floors the excess; ConsumeGas refuses short capacity in the node words', () => {
    const config = world.config.fee;
    const state = { capacity: config.maxCapacity - 5n, excess: 7n, timestamp: 100n };
    expect(advanceGasState(state, config, 3n)).toEqual({ capacity: config.maxCapacity, excess: 0n, timestamp: 103n });
    expect(() => consumeGas({ ...state, capacity: 9n }, 10n)).toThrow(/^insufficient capacity$/);
    expect(consumeGas(state, 5n)).toMatchObject({ capacity: config.maxCapacity - 10n, excess: 12n });
  });

  it('a price capped at 2^64-1 is written exactly, as the node writes its uint64 (not the double nearest it)', () => {
    const s = world.feeState.get();
    world.feeState.set({ ...s, excess: 100_000_000n });
    world.validatorFeeState.set({ ...world.validatorFeeState.get(), excess: 100_000_000n });
    const reads = pChainReads(world, TX_TYPES);
    for (const answer of [reads.getFeeState(), reads.getValidatorFeeState()]) {
      expect(goStringify(answer)).toMatch(
        /^\{[^}]*"excess":100000000,"price":18446744073709551615,"timestamp":"[^"]+"\}$/,
      );
    }
  });
});

describe('mempool byte budget (vms/txs/mempool maxMempoolSize)', () => {
  it('refuses a tx beyond the pool budget as the node does, not marked dropped; a mined block frees it', async () => {
    const engine = new Engine(world, { mode: 'manual' });
    const dev = new DevControls(world, engine);
    const genesis = new Set(world.utxosOf('P', Buffer.from(ewoq).toString('hex')).map((u) => u.key));
    dev.fund({ address: `P-${utils.formatBech32(world.network.hrp, ewoq)}`, amount: String(10n * AVAX) });
    const first = await send(AVAX, (key) => genesis.has(key));
    const second = await send(AVAX, (key) => !genesis.has(key));
    expect(engine.mempoolBytes).toBe(64 * 1024 * 1024);
    engine.mempoolBytes = first.bytes.length + second.bytes.length - 1;
    engine.issue('P', first.bytes);
    const id = idOf(second.bytes);
    const available = second.bytes.length - 1;
    expect(() => engine.issue('P', second.bytes)).toThrow(
      `couldn't issue tx: mempool is full: ${id} size (${second.bytes.length}) > available space (${available})`,
    );
    expect(world.txs.get(id)).toBeUndefined();
    expect(engine.pending('P')).toBe(1);
    dev.mine({ chain: 'P' });
    expect(engine.issue('P', second.bytes)).toBe(id);
    expect(engine.pending('P')).toBe(1);
  });
});
