/**
 * The development controls refuse what the node could not hold before they change anything (issue 24 items 5, 11,
 * 12): times past what Go's time.Time writes in JSON, amounts past uint64 sums, funding of nothing, intervals the
 * timers cannot keep; and a snapshot keeps the mempool, so a reverted pool still builds its transactions.
 */
import { TransferableOutput, Utxo, addTxSignatures, pvm, utils } from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';
import { DevControls } from '../../mock/engine/dev.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { World } from '../../mock/world/world.ts';

const MAX_UINT64 = 2n ** 64n - 1n;
/** 9999-12-31T23:59:59Z. */
const LAST_SECOND = 253_402_300_799n;

let world: World;
let engine: Engine;
let dev: DevControls;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world, { mode: 'manual' });
  dev = new DevControls(world, engine);
});

/** What a refused control must leave as it was. */
const observed = () => ({
  time: world.time.get(),
  stakers: [...world.stakers.keys()],
  utxos: world.utxos.P.size + world.utxos.X.size,
  feeState: world.feeState.get(),
  validatorFeeState: world.validatorFeeState.get(),
  height: world.tip('P').height,
  timestamp: pChainReads(world, TX_TYPES).getTimestamp(),
});

describe('dev time controls', () => {
  it('refuse a time past 9999-12-31T23:59:59Z, changing nothing, and reach that second exactly', () => {
    const before = observed();
    expect(() => dev.setTime({ timestamp: '9223372036854775807' })).toThrow(
      'time 9223372036854775807 is after 9999-12-31T23:59:59Z, the last time the node',
    );
    expect(() => dev.increaseTime({ seconds: String(MAX_UINT64) })).toThrow(/is after 9999-12-31T23:59:59Z/);
    expect(() => dev.setTime({ timestamp: String(LAST_SECOND + 1n) })).toThrow(/is after/);
    // Past uint64, and a `mine` that is not a flag: refused before the time moves.
    expect(() => dev.setTime({ timestamp: '18446744073709551616' })).toThrow(/unsigned 64-bit integer/);
    expect(() => dev.setTime({ timestamp: String(world.time.get() + 10n), mine: 'no' })).toThrow(
      'mine must be true or false',
    );
    expect(observed()).toEqual(before);

    expect(dev.setTime({ timestamp: String(LAST_SECOND) })).toEqual({ timestamp: '9999-12-31T23:59:59Z' });
    expect(pChainReads(world, TX_TYPES).getTimestamp()).toEqual({ timestamp: '9999-12-31T23:59:59Z' });
    expect(() => dev.increaseTime({ seconds: 1 })).toThrow(/is after/);
    // Every staking period ended on the way, and a reset brings the world back.
    expect(world.stakers.size).toBe(before.stakers.length);
    dev.reset();
    expect(observed()).toEqual(before);
  });

  it('refuse an interval the timers cannot keep', () => {
    expect(() => dev.setIntervalMining({ interval: 2 ** 31 })).toThrow('interval must be at most 2147483647 ms');
    expect(dev.setIntervalMining({ interval: 0 })).toEqual({});
  });
});

describe('dev.fund', () => {
  const address = `P-${utils.formatBech32('local', new Uint8Array(20).fill(3))}`;

  it('refuses 0, and a balance past uint64 with the overflow the node answers such a sum with', () => {
    const before = observed();
    expect(() => dev.fund({ address, amount: 0 })).toThrow('amount must be more than 0');
    expect(() => dev.fund({ address, amount: '1', locktime: '18446744073709551616' })).toThrow(/locktime must be/);
    expect(observed()).toEqual(before);
    expect((dev.fund({ address, amount: String(MAX_UINT64) }) as { balance: string }).balance).toBe(String(MAX_UINT64));
    expect(() => dev.fund({ address, amount: '1' })).toThrow(/^overflow: /);
    expect(world.utxos.P.size).toBe(before.utxos - world.utxos.X.size + 1);
  });
});

describe('dev.setFeeState', () => {
  it('changes neither fee state when one value is refused', () => {
    const before = observed();
    expect(() => dev.setFeeState({ excess: 5, validatorExcess: 'x' })).toThrow(/validatorExcess must be/);
    expect(observed()).toEqual(before);
  });
});

describe('snapshots and the mempool', () => {
  it('a tx pooled at the snapshot is pooled again after the revert, and builds into a block', async () => {
    const unsigned = pvm.newBaseTx(
      {
        feeState: sdkFeeState(world),
        fromAddressesBytes: [ewoq],
        utxos: world
          .utxosOf('P', Buffer.from(ewoq).toString('hex'))
          .map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo)),
        outputs: [TransferableOutput.fromNative(world.network.avaxAssetID, 1_000n, [new Uint8Array(20).fill(4)])],
      },
      sdkContext(world),
    );
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
    const txID = engine.issue('P', unsigned.getSignedTx().toBytes());
    const { snapshotID } = dev.snapshot();
    dev.mine({ chain: 'P' });
    expect(world.txs.get(txID)?.status).toBe('Committed');

    dev.revert({ snapshotID });
    expect(world.txs.get(txID)?.status).toBe('Processing');
    expect(engine.pending('P')).toBe(1);
    dev.mine({ chain: 'P' });
    expect(world.txs.get(txID)?.status).toBe('Committed');
    // Reverting to the same snapshot again finds the pool as it was then, once more.
    dev.revert({ snapshotID });
    expect(engine.pending('P')).toBe(1);
    dev.reset();
    expect([engine.pending('P'), world.txs.has(txID)]).toEqual([0, false]);
  });
});
