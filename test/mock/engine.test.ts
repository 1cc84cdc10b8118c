/**
 * The transaction engine on a local world, with transactions built and signed by avalanchejs 5.2.0 as an app builds
 * them: issue, see the effects, and each refusal in the node's words.
 */
import { setConnection } from '../../mock/world/uptime.ts';
import {
  Credential,
  Signature,
  TransferableInput,
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  pvm,
  pvmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { DevControls } from '../../mock/engine/dev.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { proofOfPossession as pop } from '../../mock/engine/bls.ts';
import { advanceTime } from '../../mock/engine/staking.ts';
import { loadWorld, saveWorld } from '../../mock/engine/state-file.ts';
import { idOf } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { EWOQ_PRIVATE_KEY } from '../../mock/world/networks.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';
import { pRefusal } from './refusal.ts';

const OTHER_KEY = new Uint8Array(32).fill(7);
const other = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY));
const recipient = new Uint8Array(20).fill(9);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const AVAX = 1_000_000_000n;
const proofOfPossession = (secret: Uint8Array) => {
  const { publicKey, proof } = pop(secret);
  return { publicKey, signature: proof };
};

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

const feeState = (w: World) => {
  const { capacity, excess } = w.feeState.get();
  return {
    capacity,
    excess,
    price: gasPrice(w.config.fee.minPrice, excess, w.config.fee.excessConversionConstant),
    timestamp: new Date().toISOString(),
  };
};

const manager = (chain: UtxoChain) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
const utxosOf = (chain: UtxoChain, owner: Uint8Array) =>
  world.utxosOf(chain, hex(owner)).map((u) => manager(chain).unpack(u.bytes, Utxo));
const balanceOf = (chain: UtxoChain, owner: Uint8Array) =>
  world.utxosOf(chain, hex(owner)).reduce((sum, u) => sum + u.amount, 0n);
const atomicOf = (destination: UtxoChain, source: UtxoChain, owner: Uint8Array) =>
  world
    .atomicUtxosOf(world.chainIDs[destination], world.chainIDs[source], hex(owner))
    .map((u) => manager(destination).unpack(u.bytes, Utxo));

async function sign(unsigned: UnsignedTx, key = EWOQ): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [key] });
  return unsigned.getSignedTx().toBytes();
}

/** A real signature, by a key that owns none of the inputs. */
async function signWrong(unsigned: UnsignedTx): Promise<Uint8Array> {
  const signature = await secp256k1.sign(unsigned.toBytes(), OTHER_KEY);
  for (const credential of unsigned.credentials) credential.setSignature(0, signature);
  return unsigned.getSignedTx().toBytes();
}

/** A BaseTx spending `utxo` whole and paying `amount` to the recipient, signed by ewoq: what no SDK would build. */
async function rawSend(chain: UtxoChain, utxo: Utxo, amount: bigint): Promise<Uint8Array> {
  const input = TransferableInput.fromUtxoAndSigindicies(utxo, [0]);
  const output = TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient]);
  const base = avaxSerial.BaseTx.fromNative(
    world.network.networkID,
    world.chainIDs[chain],
    [output],
    [input],
    new Uint8Array(),
  );
  const tx = chain === 'X' ? new avmSerial.BaseTx(base) : new pvmSerial.BaseTx(base);
  const signature = await secp256k1.sign(manager(chain).packCodec(tx), EWOQ);
  return new avaxSerial.SignedTx(tx, [new Credential([new Signature(signature)])]).toBytes();
}

const pay = (amount: bigint, to = recipient) => [
  TransferableOutput.fromNative(world.network.avaxAssetID, amount, [to]),
];
const xSend = (amount: bigint, to = recipient) =>
  avm.newBaseTx(sdkContext(world), [ewoq], utxosOf('X', ewoq), pay(amount, to));
const pSend = (amount: bigint, to = recipient) =>
  pvm.newBaseTx(
    { feeState: feeState(world), fromAddressesBytes: [ewoq], utxos: utxosOf('P', ewoq), outputs: pay(amount, to) },
    sdkContext(world),
  );

describe('X-Chain', () => {
  it('accepts a BaseTx into a block of its own: the recipient is paid, the sender gets the change', async () => {
    const before = balanceOf('X', ewoq);
    const tip = world.tip('X');
    const bytes = await sign(xSend(AVAX));
    const txID = engine.issue('X', bytes);
    expect(txID).toBe(idOf(bytes));
    expect(world.txs.get(txID)?.status).toBe('Accepted');
    expect(balanceOf('X', recipient)).toBe(AVAX);
    expect(utxosOf('X', recipient).map((u) => u.utxoId.txID.toString())).toEqual([txID]);
    expect(balanceOf('X', ewoq)).toBe(before - AVAX - world.config.txFee);
    const block = world.tip('X');
    expect([block.height, block.parentID, block.txIDs]).toEqual([tip.height + 1, tip.id, [txID]]);
    expect(world.txs.get(txID)?.blockID).toBe(block.id);
    expect(idOf(block.bytes)).toBe(block.id);
  });

  it('refuses the same tx again, a wrong signature, an overspend and a time-locked UTXO as the node does', async () => {
    const bytes = await sign(xSend(AVAX));
    engine.issue('X', bytes);
    expect(() => engine.issue('X', bytes)).toThrow(/^failed to verify transfer: failed to get utxo \w+: not found$/);
    const wrong = await signWrong(xSend(5n));
    expect(() => engine.issue('X', wrong)).toThrow(
      `failed to verify transfer: wrong signature: expected signature from ${cb58Encode(ewoq)} but got from ` +
        `${cb58Encode(other)}`,
    );
    const [utxo] = utxosOf('X', ewoq);
    expect(() => engine.issue('X', Uint8Array.of(0, 0, 0, 0))).toThrow();
    const over = await rawSend('X', utxo!, world.utxosOf('X', hex(ewoq))[0]!.amount);
    expect(() => engine.issue('X', over)).toThrow(/^insufficient funds$/);
  });

  it('refuses to spend a time-locked output', async () => {
    const locked = TransferableOutput.fromNative(
      world.network.avaxAssetID,
      3n * AVAX,
      [ewoq],
      world.time.get() + 3600n,
    );
    engine.issue('X', await sign(avm.newBaseTx(sdkContext(world), [ewoq], utxosOf('X', ewoq), [locked])));
    const lockedUtxo = utxosOf('X', ewoq).find((u) => u.getOutputOwners().locktime.value() > 0n)!;
    const spend = await rawSend('X', lockedUtxo, AVAX);
    expect(() => engine.issue('X', spend)).toThrow(/^failed to verify transfer: output is time locked$/);
  });
});

describe('P-Chain', () => {
  it('commits a BaseTx paying the dynamic fee: recipient paid, change back, block', async () => {
    const before = balanceOf('P', ewoq);
    const unsigned = pSend(AVAX);
    const bytes = await sign(unsigned);
    const txID = engine.issue('P', bytes);
    expect(world.txs.get(txID)?.status).toBe('Committed');
    expect(balanceOf('P', recipient)).toBe(AVAX);
    const burned = before - AVAX - balanceOf('P', ewoq);
    expect(burned).toBe(
      pvm.calculateFee(unsigned.getTx(), sdkContext(world).platformFeeConfig.weights, feeState(world).price),
    );
    expect(world.tip('P').txIDs).toEqual([txID]);
  });

  it('refuses the same tx again, a wrong signature and an overspend in the node words', async () => {
    const bytes = await sign(pSend(AVAX));
    engine.issue('P', bytes);
    expect(() => engine.issue('P', bytes)).toThrow(pRefusal(/failed to read consumed UTXO \w+:\d+ due to: not found/));
    const wrong = await signWrong(pSend(5n));
    expect(() => engine.issue('P', wrong)).toThrow(
      pRefusal(
        'failed to verify transfer: wrong signature: ' +
          `expected signature from ${cb58Encode(ewoq)} but got from ${cb58Encode(other)}`,
        idOf(wrong),
      ),
    );
    const utxo = world.utxosOf('P', hex(ewoq)).find((u) => u.stakeableLocktime === 0n)!;
    const over = await rawSend('P', manager('P').unpack(utxo.bytes, Utxo), utxo.amount);
    expect(() => engine.issue('P', over)).toThrow(pRefusal(/insufficient unlocked funds: needs \d+ more \w+/));
  });
});

describe('atomic transfers', () => {
  it('exports AVAX from X to P and imports it', async () => {
    const ctx = sdkContext(world);
    const exported = avm.newExportTx(ctx, world.chainIDs.P, [ewoq], utxosOf('X', ewoq), pay(10n * AVAX, ewoq));
    engine.issue('X', await sign(exported));
    expect(world.atomicUtxosOf(world.chainIDs.P, world.chainIDs.X, hex(ewoq)).map((u) => u.amount)).toEqual([
      10n * AVAX,
    ]);
    const imported = pvm.newImportTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        sourceChainId: world.chainIDs.X,
        toAddressesBytes: [recipient],
        utxos: atomicOf('P', 'X', ewoq),
      },
      ctx,
    );
    const txID = engine.issue('P', await sign(imported));
    expect(world.txs.get(txID)?.status).toBe('Committed');
    expect(atomicOf('P', 'X', ewoq)).toEqual([]);
    expect(balanceOf('P', recipient)).toBeGreaterThan(9n * AVAX);
    expect(() => engine.issue('P', imported.getSignedTx().toBytes())).toThrow(
      /failed to get shared memory: not found$/,
    );
  });
});

describe('subnets and chains', () => {
  it('creates a subnet, then a chain on it authorized by the subnet owner', async () => {
    const ctx = sdkContext(world);
    const subnetTx = pvm.newCreateSubnetTx(
      { feeState: feeState(world), fromAddressesBytes: [ewoq], utxos: utxosOf('P', ewoq), subnetOwners: [ewoq] },
      ctx,
    );
    const subnetID = engine.issue('P', await sign(subnetTx));
    expect(world.subnets.get(subnetID)?.owner.addresses).toEqual([hex(ewoq)]);
    const chainTx = pvm.newCreateChainTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        chainName: 'mychain',
        subnetId: subnetID,
        vmId: world.chainIDs.X,
        fxIds: [],
        genesisData: { hello: 'world' },
        subnetAuth: [0],
      },
      ctx,
    );
    // avalanchejs' addTxSignatures signs inputs only: the subnet's owner signs the authorization (the last credential).
    await addTxSignatures({ unsignedTx: chainTx, privateKeys: [EWOQ] });
    chainTx.credentials.at(-1)!.setSignature(0, await secp256k1.sign(chainTx.toBytes(), EWOQ));
    const chainID = engine.issue('P', chainTx.getSignedTx().toBytes());
    expect(world.chains.get(chainID)).toMatchObject({ name: 'mychain', subnetID });
    const stranger = pvm.newCreateChainTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        chainName: 'other',
        subnetId: subnetID,
        vmId: world.chainIDs.X,
        fxIds: [],
        genesisData: {},
        subnetAuth: [0],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: stranger, privateKeys: [EWOQ] });
    stranger.credentials.at(-1)!.setSignature(0, await secp256k1.sign(stranger.toBytes(), OTHER_KEY));
    expect(() => engine.issue('P', stranger.getSignedTx().toBytes())).toThrow(
      /unauthorized modification: wrong signature/,
    );
  });

  it('adds a subnet validator (a Primary Network validator), removes it, transfers the subnet', async () => {
    const ctx = sdkContext(world);
    const subnetID = engine.issue(
      'P',
      await sign(
        pvm.newCreateSubnetTx(
          { feeState: feeState(world), fromAddressesBytes: [ewoq], utxos: utxosOf('P', ewoq), subnetOwners: [ewoq] },
          ctx,
        ),
      ),
    );
    const primary = [...world.stakers.values()].find((s) => s.subnetID === world.chainIDs.P && !s.validatorTxID)!;
    const authorized = async (unsigned: UnsignedTx) => {
      await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
      unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
      return unsigned.getSignedTx().toBytes();
    };
    const end = world.time.get() + world.config.staking.minStakeDuration;
    const add = pvm.newAddSubnetValidatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: primary.nodeID,
        start: world.time.get(),
        end,
        weight: 10n,
        subnetId: subnetID,
        subnetAuth: [0],
      },
      ctx,
    );
    const addID = engine.issue('P', await authorized(add));
    expect(world.stakers.get(addID)).toMatchObject({ subnetID, nodeID: primary.nodeID, weight: 10n });
    const stranger = pvm.newAddSubnetValidatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: `NodeID-${cb58Encode(new Uint8Array(20).fill(1))}`,
        start: world.time.get(),
        end,
        weight: 10n,
        subnetId: subnetID,
        subnetAuth: [0],
      },
      ctx,
    );
    expect(() => engine.issue('P', stranger.getSignedTx().toBytes())).toThrow(
      /isn't a current or pending validator of the primary network$/,
    );
    const remove = pvm.newRemoveSubnetValidatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: primary.nodeID,
        subnetId: subnetID,
        subnetAuth: [0],
      },
      ctx,
    );
    engine.issue('P', await authorized(remove));
    expect(world.stakers.has(addID)).toBe(false);
    const transfer = pvm.newTransferSubnetOwnershipTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        subnetId: subnetID,
        subnetAuth: [0],
        subnetOwners: [recipient],
      },
      ctx,
    );
    engine.issue('P', await authorized(transfer));
    expect(world.subnets.get(subnetID)?.owner.addresses).toEqual([hex(recipient)]);
  });
});

describe('staking', () => {
  it('adds a validator and a delegator; past their end they leave the set, stake back and rewards paid', async () => {
    const ctx = sdkContext(world);
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;
    const start = world.time.get();
    const end = start + staking.minStakeDuration * 2n;
    const owner = new Uint8Array(20).fill(77);
    const validatorTx = pvm.newAddPermissionlessValidatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end,
        weight: staking.minValidatorStake,
        rewardAddresses: [owner],
        delegatorRewardsOwner: [owner],
        shares: 20_000,
        ...proofOfPossession(new Uint8Array(32).fill(5)),
      },
      ctx,
    );
    const validatorID = engine.issue('P', await sign(validatorTx));
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    const current = () =>
      [...world.stakers.values()]
        .filter((s) => s.startTime <= world.time.get() && world.time.get() < s.endTime)
        .map((s) => s.txID);
    expect(current()).toContain(validatorID);
    const tooShort = pvm.newAddPermissionlessDelegatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end: start + 60n,
        weight: staking.minDelegatorStake,
        rewardAddresses: [recipient],
      },
      ctx,
    );
    expect(() => engine.issue('P', tooShort.getSignedTx().toBytes())).toThrow(pRefusal('staking period is too short'));
    const delegatorTx = pvm.newAddPermissionlessDelegatorTx(
      {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end,
        weight: staking.minDelegatorStake,
        rewardAddresses: [recipient],
      },
      ctx,
    );
    const delegatorID = engine.issue('P', await sign(delegatorTx));
    expect(world.stakers.get(delegatorID)?.validatorTxID).toBe(validatorID);
    const ewoqBefore = balanceOf('P', ewoq);

    advanceTime(world, end);
    expect(current()).not.toContain(validatorID);
    expect(current()).not.toContain(delegatorID);
    expect(balanceOf('P', ewoq)).toBe(ewoqBefore + staking.minValidatorStake + staking.minDelegatorStake);
    const validatorReward = world.stakers.get(validatorID)!.potentialReward;
    const delegatorReward = world.stakers.get(delegatorID)!.potentialReward;
    expect(validatorReward).toBeGreaterThan(0n);
    // reward.Split rounds the delegator's part down, so the validator's fee is the rest.
    const fee = delegatorReward - ((1_000_000n - 20_000n) * delegatorReward) / 1_000_000n;
    expect(balanceOf('P', recipient)).toBe(delegatorReward - fee);
    expect(balanceOf('P', owner)).toBe(validatorReward + fee);
    expect(world.rewardUtxos.get(validatorID)?.length).toBe(2);
  });

  it("accrues a delegator's fee to its validator until the validator's end, however the time moves", async () => {
    const ctx = sdkContext(world);
    const staking = world.config.staking;
    const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`;
    const start = world.time.get();
    const owner = new Uint8Array(20).fill(78);
    const stake = (validator: boolean, end: bigint) => {
      const common = {
        feeState: feeState(world),
        fromAddressesBytes: [ewoq],
        utxos: utxosOf('P', ewoq),
        nodeId: nodeID,
        subnetId: world.chainIDs.P,
        start,
        end,
      };
      return validator
        ? pvm.newAddPermissionlessValidatorTx(
            {
              ...common,
              weight: staking.minValidatorStake,
              rewardAddresses: [owner],
              delegatorRewardsOwner: [owner],
              shares: 100_000,
              ...proofOfPossession(new Uint8Array(32).fill(6)),
            },
            ctx,
          )
        : pvm.newAddPermissionlessDelegatorTx(
            { ...common, weight: staking.minDelegatorStake, rewardAddresses: [recipient] },
            ctx,
          );
    };
    const validatorID = engine.issue('P', await sign(stake(true, start + 2n * staking.minStakeDuration)));
    // A node that runs: connected from its start, so its stakers earn their rewards.
    setConnection(world, nodeID, { connected: true });
    const delegatorID = engine.issue('P', await sign(stake(false, start + staking.minStakeDuration)));
    // reward.Split: the delegator's part rounds down, so the validator's fee rounds up.
    const reward = world.stakers.get(delegatorID)!.potentialReward;
    const fee = reward - (reward * 900_000n) / 1_000_000n;
    expect(fee).toBeGreaterThan(0n);

    // The delegator ends first, in a call of its own: the validator holds its fee, as getCurrentValidators says.
    advanceTime(world, start + staking.minStakeDuration);
    const listed = (
      pChainReads(world, TX_TYPES).getCurrentValidators!({ nodeIDs: [nodeID] }) as {
        validators: Array<{ accruedDelegateeReward: string }>;
      }
    ).validators[0];
    expect(listed?.accruedDelegateeReward).toBe(String(fee));
    expect(balanceOf('P', owner)).toBe(0n);

    advanceTime(world, start + 2n * staking.minStakeDuration);
    expect(balanceOf('P', owner)).toBe(world.stakers.get(validatorID)!.potentialReward + fee);
  });
});

describe('dev controls', () => {
  it('snapshot, send, revert (twice, the same), nested snapshots discarded by an older revert', async () => {
    const dev = new DevControls(world, engine);
    const before = balanceOf('X', ewoq);
    const outer = dev.snapshot().snapshotID;
    engine.issue('X', await sign(xSend(AVAX)));
    const inner = dev.snapshot().snapshotID;
    engine.issue('X', await sign(xSend(AVAX)));
    expect(balanceOf('X', recipient)).toBe(2n * AVAX);
    dev.revert({ snapshotID: inner });
    expect(balanceOf('X', recipient)).toBe(AVAX);
    dev.revert({ snapshotID: outer });
    expect([balanceOf('X', recipient), balanceOf('X', ewoq)]).toEqual([0n, before]);
    expect(() => dev.revert({ snapshotID: inner })).toThrow(`unknown snapshot: ${inner}`);
    engine.issue('X', await sign(xSend(3n * AVAX)));
    dev.revert({ snapshotID: outer });
    expect([balanceOf('X', recipient), balanceOf('X', ewoq)]).toEqual([0n, before]);
  });

  it('fund, mine in manual mode, set the time and the fee state, reset', async () => {
    const manual = new Engine(world, { mode: 'manual' });
    const dev = new DevControls(world, manual);
    const address = `P-${utils.formatBech32(world.network.hrp, recipient)}`;
    dev.fund({ address, amount: String(7n * AVAX) });
    expect(balanceOf('P', recipient)).toBe(7n * AVAX);
    const txID = manual.issue('X', await sign(xSend(AVAX)));
    expect(world.txs.get(txID)?.status).toBe('Processing');
    const height = world.tip('X').height;
    expect(dev.mine({ chain: 'X', blocks: 3 }).blockIDs).toHaveLength(3);
    expect(world.txs.get(txID)?.status).toBe('Accepted');
    expect(world.tip('X').height).toBe(height + 3);
    const time = world.time.get();
    dev.increaseTime({ seconds: 3600 });
    expect(world.time.get()).toBe(time + 3600n);
    expect(() => dev.setTime({ timestamp: String(time) })).toThrow(
      `time ${time} is before the chain time ${time + 3600n}`,
    );
    expect(dev.listAccounts().accounts[0]).toMatchObject({
      privateKey: EWOQ_PRIVATE_KEY,
      xAddress: 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
      cAddress: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
    });
    dev.setFeeState({ excess: '5000000' });
    expect(
      gasPrice(world.config.fee.minPrice, world.feeState.get().excess, world.config.fee.excessConversionConstant),
    ).toBeGreaterThan(1n);
    dev.reset();
    expect([balanceOf('P', recipient), world.time.get(), world.feeState.get().excess, world.tip('X').height]).toEqual([
      0n,
      time,
      0n,
      height,
    ]);
  });
});

describe('--state', () => {
  it('saves a world and loads it back with the same balances, blocks and transactions', async () => {
    const txID = engine.issue('X', await sign(xSend(AVAX)));
    const file = join(mkdtempSync(join(tmpdir(), 'mock-state-')), 'world.json');
    saveWorld(world, { network: 'local', accounts: 0 }, file);
    const loaded = loadWorld(file)!.world;
    expect(loaded.tip('X').id).toBe(world.tip('X').id);
    expect(loaded.txs.get(txID)?.status).toBe('Accepted');
    expect(loaded.utxosOf('X', hex(recipient)).map((u) => u.amount)).toEqual([AVAX]);
    expect(loaded.time.get()).toBe(world.time.get());
    // Bytes come back as bytes (Buffers among them, whose own toJSON would have written them as {type, data}).
    for (const table of [loaded.utxos.X, loaded.utxos.P, loaded.txs])
      for (const record of table.values()) expect(record.bytes).toBeInstanceOf(Uint8Array);
    expect([...loaded.utxos.X.values()].map((u) => hex(u.bytes))).toEqual(
      [...world.utxos.X.values()].map((u) => hex(u.bytes)),
    );
    expect(loadWorld(join(tmpdir(), 'no such world.json'))).toBeUndefined();
  });

  it('refuses a file an older mock saved, whose world lacks parts this one journals', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-state-')), 'old.json');
    saveWorld(world, { network: 'local', accounts: 0 }, file);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, version: 1 }));
    expect(() => loadWorld(file)).toThrow(
      `${file} was saved by an older mock (state version 1; this one reads version 8, whose P-Chain holds the ` +
        "X- and C-Chain's genesis transactions): start without it, or delete it to save a new one",
    );
  });
});

describe('snapshots', () => {
  it('revert undoes a send', async () => {
    const mark = world.snapshot();
    const before = balanceOf('X', ewoq);
    engine.issue('X', await sign(xSend(AVAX)));
    expect(balanceOf('X', recipient)).toBe(AVAX);
    world.revert(mark);
    engine.restorePools();
    expect([balanceOf('X', recipient), balanceOf('X', ewoq)]).toEqual([0n, before]);
  });
});

describe('stake outputs (add_permissionless_validator_tx.go SyntacticVerify)', () => {
  it('refuses a zero stake output and stake outputs out of order', async () => {
    const staking = world.config.staking;
    const build = (stake: (weight: bigint) => TransferableOutput[]) => {
      const unsigned = pvm.newAddPermissionlessValidatorTx(
        {
          feeState: feeState(world),
          fromAddressesBytes: [ewoq],
          utxos: utxosOf('P', ewoq),
          nodeId: `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`,
          subnetId: world.chainIDs.P,
          start: world.time.get(),
          end: world.time.get() + staking.minStakeDuration * 2n,
          weight: staking.minValidatorStake,
          rewardAddresses: [ewoq],
          delegatorRewardsOwner: [ewoq],
          shares: 20_000,
          ...proofOfPossession(new Uint8Array(32).fill(6)),
        },
        sdkContext(world),
      );
      // What no SDK builds: the stake outputs replaced before signing.
      (unsigned.getTx() as unknown as { stake: TransferableOutput[] }).stake = stake(staking.minValidatorStake);
      return sign(unsigned);
    };
    const stakeOut = (amount: bigint) => TransferableOutput.fromNative(world.network.avaxAssetID, amount, [ewoq]);
    const zero = await build((w) => [stakeOut(0n), stakeOut(w)]);
    expect(() => engine.issue('P', zero)).toThrow(pRefusal('failed to verify output: output has no value', idOf(zero)));
    const unsorted = await build((w) => [stakeOut(w / 2n + 1n), stakeOut(w / 2n - 1n)]);
    expect(() => engine.issue('P', unsorted)).toThrow(pRefusal('outputs not sorted', idOf(unsorted)));
  });
});
