/**
 * What a Primary Network staking period ends with, as AvalancheGo's rewardValidatorTx: the delegation fee a validator
 * accrues from delegators that ended before it, the stake returned as it was staked, and the reward UTXOs' indexes.
 */
import { pvmSerial, utils } from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { advanceTime } from '../../mock/engine/staking.ts';
import { makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import { setConnection } from '../../mock/world/uptime.ts';
import type { World } from '../../mock/world/world.ts';
import { hex, pStakers, unpackUtxo } from './p-stakers.ts';
import { ewoq } from './sdk-world.ts';

const recipient = new Uint8Array(20).fill(9);

let world: World;
let stakers: ReturnType<typeof pStakers>;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  stakers = pStakers(world);
});

describe('the delegation fee', () => {
  it('accrues to the validator when its delegator ends first, and is paid when the validator ends', async () => {
    const engine = new Engine(world);
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`;
    const owner = new Uint8Array(20).fill(77);
    const start = world.time.get();
    const validatorEnd = start + staking.minStakeDuration * 2n;
    const delegatorEnd = start + staking.minStakeDuration;
    const validatorID = engine.issue(
      'P',
      await stakers.validatorTx({ nodeID, start, end: validatorEnd, seed: 7, owner }),
    );
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    const delegatorID = engine.issue(
      'P',
      await stakers.delegatorTx({ nodeID, start, end: delegatorEnd, owner: recipient }),
    );
    // reward.Split: the delegator's remainder is rounded down, the validator's fee is the rest.
    const delegatorReward = world.stakers.get(delegatorID)!.potentialReward;
    const fee = delegatorReward - ((1_000_000n - 20_000n) * delegatorReward) / 1_000_000n;
    expect(fee).toBeGreaterThan(0n);
    const accrued = () =>
      (
        pChainReads(world, TX_TYPES).getCurrentValidators!({ nodeIDs: [nodeID] }) as {
          validators: Array<{ accruedDelegateeReward: string }>;
        }
      ).validators[0]?.accruedDelegateeReward;
    expect(accrued()).toBe('0');

    advanceTime(world, delegatorEnd);
    // getCurrentValidators' accruedDelegateeReward: the state's GetDelegateeReward, raised by each ended delegator.
    expect(accrued()).toBe(String(fee));
    advanceTime(world, validatorEnd);
    const validatorReward = world.stakers.get(validatorID)!.potentialReward;
    const paid = world.utxosOf('P', hex(owner)).reduce((sum, u) => sum + u.amount, 0n);
    expect(paid).toBe(validatorReward + fee);
    expect(world.rewardUtxos.get(validatorID)?.map((u) => u.amount)).toEqual([validatorReward, fee]);
  });
});

describe('stake returned at the end of a staking period', () => {
  it('keeps its output as staked, a stakeable lock that passed included (rewardValidatorTx: Out: out.Output())', async () => {
    const engine = new Engine(world);
    const staking = world.config.staking;
    const start = world.time.get();
    const end = start + staking.minStakeDuration;
    const lockedUntil = start + 60n;
    const locked = makeUtxo({
      txID: cb58Encode(new Uint8Array(32).fill(0xab)),
      outputIndex: 0,
      assetID: world.network.avaxAssetID,
      amount: staking.minValidatorStake,
      owner: { locktime: 0n, threshold: 1, addresses: [hex(ewoq)] },
      stakeableLocktime: lockedUntil,
    });
    world.utxos.P.set(locked.key, locked);
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(44))}`;
    // The chain's time, not the wall clock's: the lock is still on at issuance.
    const validatorID = engine.issue(
      'P',
      await stakers.validatorTx({ nodeID, start, end, seed: 8, minIssuanceTime: start }),
    );
    const stakes = world.stakers.get(validatorID)!.stake;
    const [stake] = stakes;
    // avalanchejs stakes the locked UTXO first: the stake output is a StakeableLockOut until `lockedUntil`.
    expect(stake?.stakeableLocktime).toBe(lockedUntil);
    advanceTime(world, end);
    const returned = world.utxos.P.get(stake!.key)!;
    expect(Buffer.from(returned.bytes).toString('hex')).toBe(Buffer.from(stake!.bytes).toString('hex'));
    expect(unpackUtxo(returned.bytes).output).toBeInstanceOf(pvmSerial.StakeableLockOut);
    // Past its lock, it counts as unlocked all the same.
    const balance = pChainReads(world, TX_TYPES).getBalance!({
      addresses: [`P-${utils.formatBech32(world.network.hrp, ewoq)}`],
    });
    expect(balance).toMatchObject({ lockedStakeable: '0' });
  });
});

describe('the reward UTXOs of a validator without a reward of its own', () => {
  it('put the accrued delegation fee at the first index after the stake, as rewardValidatorTx does', async () => {
    const engine = new Engine(world);
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(45))}`;
    const start = world.time.get();
    const end = start + staking.minStakeDuration;
    const supply = world.supply.get();
    // At the supply cap the validator is promised nothing; its delegator, added below the cap, is.
    world.supply.set(staking.rewardConfig.supplyCap);
    const validatorID = engine.issue('P', await stakers.validatorTx({ nodeID, start, end, seed: 9 }));
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    world.supply.set(supply);
    engine.issue('P', await stakers.delegatorTx({ nodeID, start, end, owner: recipient }));
    const validator = world.stakers.get(validatorID)!;
    expect(validator.potentialReward).toBe(0n);
    advanceTime(world, end);
    const next = Math.max(...validator.stake.map((u) => u.outputIndex)) + 1;
    const rewards = world.rewardUtxos.get(validatorID)!;
    expect(rewards.map((u) => u.outputIndex)).toEqual([next]);
    expect(rewards[0]!.amount).toBeGreaterThan(0n);
  });
});
