/**
 * Findings of a review of mock/engine and mock/world against AvalancheGo, each a case the node answers otherwise:
 * the mempool's drop cache (an LRU of 64), a block built from a pool re-verifying each transaction on the state
 * before it, the delegation fee a validator accrues from delegators that ended before it, and the stake and reward
 * UTXOs a staking period ends with.
 */
import { setConnection } from '../../mock/world/uptime.ts';
import {
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  pvm,
  pvmSerial,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { proofOfPossession as pop } from '../../mock/engine/bls.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/engine/p.ts';
import { advanceTime } from '../../mock/engine/staking.ts';
import { idOf, makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { World } from '../../mock/world/world.ts';
import { pDropReason, pRefusal } from './refusal.ts';

const recipient = new Uint8Array(20).fill(9);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const AVAX = 1_000_000_000n;

let world: World;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
});

const feeState = () => {
  const { capacity, excess } = world.feeState.get();
  const { minPrice, excessConversionConstant } = world.config.fee;
  return { capacity, excess, price: gasPrice(minPrice, excess, excessConversionConstant), timestamp: '' };
};
const pvmManager = () => utils.getManagerForVM('PVM');
const utxosOf = (owner: Uint8Array) => world.utxosOf('P', hex(owner)).map((u) => pvmManager().unpack(u.bytes, Utxo));

async function sign(unsigned: UnsignedTx): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return unsigned.getSignedTx().toBytes();
}

/** A signed AddPermissionlessValidatorTx of the Primary Network, paid and staked from ewoq's UTXOs (or `utxos`). */
function validatorTx(options: {
  nodeID: string;
  start: bigint;
  end: bigint;
  /** Makes the validator's BLS key. */
  seed: number;
  owner?: Uint8Array;
  utxos?: Utxo[];
  minIssuanceTime?: bigint;
}): Promise<Uint8Array> {
  const { nodeID, start, end, seed, owner = ewoq, utxos = utxosOf(ewoq), minIssuanceTime } = options;
  const { publicKey, proof } = pop(new Uint8Array(32).fill(seed));
  return sign(
    pvm.newAddPermissionlessValidatorTx(
      {
        feeState: feeState(),
        fromAddressesBytes: [ewoq],
        utxos,
        ...(minIssuanceTime === undefined ? {} : { minIssuanceTime }),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end,
        weight: world.config.staking.minValidatorStake,
        rewardAddresses: [owner],
        delegatorRewardsOwner: [owner],
        shares: 20_000,
        publicKey,
        signature: proof,
      },
      sdkContext(world),
    ),
  );
}

/** A signed AddPermissionlessDelegatorTx of the Primary Network from ewoq's UTXOs, its reward to `recipient`. */
function delegatorTx(options: { nodeID: string; start: bigint; end: bigint }): Promise<Uint8Array> {
  const { nodeID, start, end } = options;
  return sign(
    pvm.newAddPermissionlessDelegatorTx(
      {
        feeState: feeState(),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf(ewoq),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end,
        weight: world.config.staking.minDelegatorStake,
        rewardAddresses: [recipient],
      },
      sdkContext(world),
    ),
  );
}

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
async function refusedSend(n: number): Promise<Uint8Array> {
  const ghost = ghostUtxo(n);
  const unsigned = pvm.newBaseTx(
    {
      feeState: feeState(),
      fromAddressesBytes: [ewoq],
      utxos: [pvmManager().unpack(ghost.bytes, Utxo)],
      outputs: [TransferableOutput.fromNative(world.network.avaxAssetID, 1n, [recipient])],
    },
    sdkContext(world),
  );
  return sign(unsigned);
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
      validatorTx({ nodeID, start, end: start + staking.minStakeDuration, seed, utxos: [utxo] });
    const big = [...world.utxosOf('P', hex(ewoq))]
      .sort((a, b) => (a.amount > b.amount ? -1 : 1))
      .map((u) => pvmManager().unpack(u.bytes, Utxo));
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
            feeState: feeState(),
            fromAddressesBytes: [ewoq],
            utxos: utxosOf(ewoq),
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
    const conflict = `tx conflicts with other tx: ${idOf(second)}`;
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

describe('the delegation fee', () => {
  it('accrues to the validator when its delegator ends first, and is paid when the validator ends', async () => {
    const engine = new Engine(world);
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`;
    const owner = new Uint8Array(20).fill(77);
    const start = world.time.get();
    const validatorEnd = start + staking.minStakeDuration * 2n;
    const delegatorEnd = start + staking.minStakeDuration;
    const validatorID = engine.issue('P', await validatorTx({ nodeID, start, end: validatorEnd, seed: 7, owner }));
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    const delegatorID = engine.issue('P', await delegatorTx({ nodeID, start, end: delegatorEnd }));
    // reward.Split: the delegator's remainder is rounded down, the validator's fee is the rest.
    const delegatorReward = world.stakers.get(delegatorID)!.potentialReward;
    const fee = delegatorReward - ((1_000_000n - 20_000n) * delegatorReward) / 1_000_000n;
    expect(fee).toBeGreaterThan(0n);
    const accrued = () =>
      (
        pChainReads(world).getCurrentValidators!({ nodeIDs: [nodeID] }) as {
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
    const validatorID = engine.issue('P', await validatorTx({ nodeID, start, end, seed: 8, minIssuanceTime: start }));
    const stakes = world.stakers.get(validatorID)!.stake;
    const [stake] = stakes;
    // avalanchejs stakes the locked UTXO first: the stake output is a StakeableLockOut until `lockedUntil`.
    expect(stake?.stakeableLocktime).toBe(lockedUntil);
    advanceTime(world, end);
    const returned = world.utxos.P.get(stake!.key)!;
    expect(Buffer.from(returned.bytes).toString('hex')).toBe(Buffer.from(stake!.bytes).toString('hex'));
    expect(pvmManager().unpack(returned.bytes, Utxo).output).toBeInstanceOf(pvmSerial.StakeableLockOut);
    // Past its lock, it counts as unlocked all the same.
    const balance = pChainReads(world).getBalance!({ addresses: [`P-${utils.formatBech32(world.network.hrp, ewoq)}`] });
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
    const validatorID = engine.issue('P', await validatorTx({ nodeID, start, end, seed: 9 }));
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    world.supply.set(supply);
    engine.issue('P', await delegatorTx({ nodeID, start, end }));
    const validator = world.stakers.get(validatorID)!;
    expect(validator.potentialReward).toBe(0n);
    advanceTime(world, end);
    const next = Math.max(...validator.stake.map((u) => u.outputIndex)) + 1;
    const rewards = world.rewardUtxos.get(validatorID)!;
    expect(rewards.map((u) => u.outputIndex)).toEqual([next]);
    expect(rewards[0]!.amount).toBeGreaterThan(0n);
  });
});
