/**
 * The Etna L1 transactions on the mock's engine, built with avalanchejs 5.2.0's builders and warp messages signed
 * by the L1's own BLS keys: convert a subnet, register, reweigh, top up, drain (the continuous fee), disable and
 * remove validators, each visible in the P-Chain's reads; every refusal in the node's words.
 */
import {
  Address,
  BigIntPr,
  BlsPublicKey,
  BlsSignature,
  Bytes,
  Id,
  Int,
  L1Validator,
  NodeId,
  PChainOwner,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  avaxSerial,
  bls,
  pvm,
  pvmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { bls12_381 } from '@noble/curves/bls12-381';
import { sha256 } from '@noble/hashes/sha2.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { startMockNode } from '../../mock/node.ts';
import { appendIndex, conversionID } from '../../mock/engine/l1.ts';
import { validatorCost } from '../../mock/engine/l1-state.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { advanceTime } from '../../mock/engine/staking.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { World } from '../../mock/world/world.ts';
import { pRefusal } from './refusal.ts';
import { callRpc } from '../support/rpc.ts';

const DISABLER = new Uint8Array(32).fill(11);
const disabler = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(DISABLER)));
const refundee = new Uint8Array(20).fill(0x55);
const MANAGER = new Uint8Array(20).fill(0xaa);
const AVAX = 1_000_000_000n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const warpRefusal = (inner: string) =>
  new RegExp(`^couldn't issue tx: failed verification: failed verifying warp messages: ${inner}$`);

/** A BLS key of the L1: its secret, compressed public key and proof of possession (avalanchejs' own signer). */
function blsKey(seed: number) {
  const secret = new Uint8Array(32).fill(seed);
  const publicKey = bls12_381.getPublicKey(secret);
  return { secret, publicKey, pop: bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret)) };
}
const keys = [blsKey(1), blsKey(2), blsKey(3)];
const nodeIDs = [1, 2, 3].map((n) => `NodeID-${cb58Encode(new Uint8Array(20).fill(n))}`);

let world: World;
let engine: Engine;
let reads: ReturnType<typeof pChainReads>;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
  reads = pChainReads(world, TX_TYPES);
});

const base = () => {
  const { capacity, excess } = world.feeState.get();
  const price = gasPrice(world.config.fee.minPrice, excess, world.config.fee.excessConversionConstant);
  const manager = utils.getManagerForVM('PVM');
  return {
    feeState: { capacity, excess, price, timestamp: new Date().toISOString() },
    fromAddressesBytes: [ewoq],
    utxos: world.utxosOf('P', hex(ewoq)).map((u) => manager.unpack(u.bytes, Utxo)),
  };
};

/** Signs the inputs with ewoq and, with `authKey`, the authorization (the last credential). */
async function sign(unsigned: UnsignedTx, authKey?: Uint8Array): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (authKey) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), authKey));
  return unsigned.getSignedTx().toBytes();
}

/** avalanchejs checks a proof of possession when it is made: a forged one is written over a valid one. */
function proof(i: number, forgedWith?: Uint8Array) {
  const made = new pvmSerial.ProofOfPossession(keys[i]!.publicKey, keys[i]!.pop.slice());
  if (forgedWith) made.signature.set(forgedWith);
  return made;
}

const l1Validator = (i: number, balance: bigint, forgedWith?: Uint8Array) =>
  L1Validator.fromNative(
    nodeIDs[i]!,
    100n,
    balance,
    proof(i, forgedWith),
    PChainOwner.fromNative([refundee], 1),
    PChainOwner.fromNative([disabler], 1),
  );

/** A subnet with a chain (its manager's), converted with validators 0 and 1 (balances as given). */
async function convertedL1(balances: [bigint, bigint] = [AVAX, AVAX]) {
  const ctx = sdkContext(world);
  const subnetID = engine.issue('P', await sign(pvm.newCreateSubnetTx({ ...base(), subnetOwners: [ewoq] }, ctx)));
  const chain = pvm.newCreateChainTx(
    {
      ...base(),
      chainName: 'l1',
      subnetId: subnetID,
      vmId: world.chainIDs.X,
      fxIds: [],
      genesisData: {},
      subnetAuth: [0],
    },
    ctx,
  );
  const chainID = engine.issue('P', await sign(chain, EWOQ));
  const convert = pvm.newConvertSubnetToL1Tx(
    {
      ...base(),
      subnetId: subnetID,
      chainId: chainID,
      address: MANAGER,
      validators: [l1Validator(0, balances[0]), l1Validator(1, balances[1])],
      subnetAuth: [0],
    },
    ctx,
  );
  const convertID = engine.issue('P', await sign(convert, EWOQ));
  return { subnetID, chainID, convertID };
}

/** A warp message from `chainID`, signed by `signers` (indexes into keys, in the canonical order's bit vector). */
function warpMessage(
  chainID: string,
  payload: Uint8Array,
  signers: number[],
  bitset: number[],
  networkID?: number,
  source = MANAGER,
) {
  const codec = pvmSerial.warp.getWarpManager().getDefaultCodec();
  const call = new pvmSerial.warp.AddressedCallPayloads.AddressedCall(new Address(source), new Bytes(payload));
  const unsigned = new pvmSerial.warp.WarpUnsignedMessage(
    new Int(networkID ?? world.network.networkID),
    Id.fromString(chainID),
    new Bytes(utils.concatBytes(new Uint8Array(2), call.toBytes(codec))),
  );
  const unsignedBytes = utils.concatBytes(new Uint8Array(2), unsigned.toBytes(codec));
  const signatures = signers.map((i) => bls.sign(unsignedBytes, bls.secretKeyFromBytes(keys[i]!.secret)));
  const aggregate = bls12_381.aggregateSignatures(signatures);
  const signature = new pvmSerial.warp.WarpSignature(
    new Bytes(new Uint8Array(bitset)),
    BlsSignature.fromBytes(aggregate)[0],
  );
  return utils.concatBytes(new Uint8Array(2), new pvmSerial.warp.WarpMessage(unsigned, signature).toBytes(codec));
}

/** Bits of the canonical set (validators ordered by uncompressed public key) for the given key indexes. */
function bitsFor(indexes: number[], among: number[]): number[] {
  const order = [...among].sort((a, b) =>
    Buffer.compare(
      Buffer.from(bls12_381.G1.ProjectivePoint.fromHex(keys[a]!.publicKey).toRawBytes(false)),
      Buffer.from(bls12_381.G1.ProjectivePoint.fromHex(keys[b]!.publicKey).toRawBytes(false)),
    ),
  );
  const value = indexes.reduce((sum, i) => sum | (1 << order.indexOf(i)), 0);
  return value === 0 ? [] : [value];
}

function registerPayload(subnetID: string, expiry: bigint, node = 2, weight = 50n) {
  const codec = pvmSerial.warp.getWarpManager().getDefaultCodec();
  const message = new pvmSerial.warp.AddressedCallPayloads.RegisterL1ValidatorMessage(
    Id.fromString(subnetID),
    new NodeId(new Uint8Array(20).fill(node + 1)),
    BlsPublicKey.fromBytes(keys[node]!.publicKey)[0],
    new BigIntPr(expiry),
    PChainOwner.fromNative([refundee], 1),
    PChainOwner.fromNative([disabler], 1),
    new BigIntPr(weight),
  );
  return utils.concatBytes(new Uint8Array(2), message.toBytes(codec));
}

function weightPayload(validationID: string, nonce: bigint, weight: bigint) {
  const codec = pvmSerial.warp.getWarpManager().getDefaultCodec();
  const message = new pvmSerial.warp.AddressedCallPayloads.L1ValidatorWeightMessage(
    Id.fromString(validationID),
    new BigIntPr(nonce),
    new BigIntPr(weight),
  );
  return utils.concatBytes(new Uint8Array(2), message.toBytes(codec));
}

const register = async (message: Uint8Array, pop = keys[2]!.pop, balance = AVAX) =>
  sign(pvm.newRegisterL1ValidatorTx({ ...base(), balance, blsSignature: pop, message }, sdkContext(world)));
const setWeight = async (message: Uint8Array) =>
  sign(pvm.newSetL1ValidatorWeightTx({ ...base(), message }, sdkContext(world)));

describe('ConvertSubnetToL1Tx', () => {
  it('converts a subnet: getSubnet, getL1Validator, getCurrentValidators and getValidatorsAt show the L1', async () => {
    const { subnetID, chainID, convertID } = await convertedL1([AVAX, 2n * AVAX]);
    expect(world.txs.get(convertID)?.status).toBe('Committed');
    const expectedID = conversionID(
      subnetID,
      chainID,
      MANAGER,
      [0, 1].map((i) => ({ nodeID: new Uint8Array(20).fill(i + 1), publicKey: keys[i]!.publicKey, weight: 100n })),
    );
    expect(reads.getSubnet!({ subnetID })).toMatchObject({
      isPermissioned: false,
      conversionID: expectedID,
      managerChainID: chainID,
      managerAddress: `0x${hex(MANAGER)}`,
    });
    const validationID = appendIndex(subnetID, 1);
    expect(reads.getL1Validator!({ validationID })).toMatchObject({
      validationID,
      subnetID,
      nodeID: nodeIDs[1],
      publicKey: `0x${hex(keys[1]!.publicKey)}`,
      weight: '100',
      balance: String(2n * AVAX),
      minNonce: '0',
      startTime: String(world.time.get()),
      remainingBalanceOwner: { threshold: '1', addresses: [`P-${utils.formatBech32('local', refundee)}`] },
    });
    const current = reads.getCurrentValidators!({ subnetID }) as { validators: Array<Record<string, unknown>> };
    expect(current.validators.map((v) => v.validationID)).toEqual([appendIndex(subnetID, 0), validationID]);
    expect(current.validators[0]).not.toHaveProperty('txID');
    const height = String(world.tip('P').height);
    expect(reads.getValidatorsAt!({ subnetID, height })).toEqual({
      [nodeIDs[0]!]: { publicKey: `0x${hex(keys[0]!.publicKey)}`, weight: '100' },
      [nodeIDs[1]!]: { publicKey: `0x${hex(keys[1]!.publicKey)}`, weight: '100' },
    });
  });

  it('refuses a second conversion, a bad proof of possession, a missing authorization', async () => {
    const { subnetID, chainID } = await convertedL1();
    const again = pvm.newConvertSubnetToL1Tx(
      {
        ...base(),
        subnetId: subnetID,
        chainId: chainID,
        address: MANAGER,
        validators: [l1Validator(2, 0n)],
        subnetAuth: [0],
      },
      sdkContext(world),
    );
    expect(() => engine.issue('P', new Uint8Array(0))).toThrow(/^couldn't parse tx: /);
    const againBytes = await sign(again, EWOQ);
    expect(() => engine.issue('P', againBytes)).toThrow(pRefusal(`"${subnetID}" is immutable`));

    const ctx = sdkContext(world);
    const fresh = engine.issue('P', await sign(pvm.newCreateSubnetTx({ ...base(), subnetOwners: [ewoq] }, ctx)));
    const convert = (validators: L1Validator[]) =>
      pvm.newConvertSubnetToL1Tx(
        { ...base(), subnetId: fresh, chainId: chainID, address: MANAGER, validators, subnetAuth: [0] },
        ctx,
      );
    const wrongPop = l1Validator(2, 0n, keys[1]!.pop);
    expect(() => engine.issue('P', signSync(convert([wrongPop])))).toThrow(pRefusal('invalid proof of possession'));
    // avalanchejs sorts the validators; an unsigned authorization is the owner's missing signature.
    expect(() => engine.issue('P', signSync(convert([l1Validator(1, 0n), l1Validator(0, 0n)])))).toThrow(
      pRefusal('unauthorized modification: invalid signature'),
    );
  });
});

/** The unsigned bytes are enough where the refusal comes before any signature is read. */
const signSync = (unsigned: UnsignedTx) => unsigned.getSignedTx().toBytes();

describe('RegisterL1ValidatorTx and SetL1ValidatorWeightTx', () => {
  it('registers a validator with a warp message its L1 signed, then reweighs and removes it', async () => {
    const { subnetID, chainID } = await convertedL1();
    const expiry = world.time.get() + 3600n;
    const payload = registerPayload(subnetID, expiry);
    const message = warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1]));
    const txID = engine.issue('P', await register(message));
    expect(world.txs.get(txID)?.status).toBe('Committed');
    const validationID = cb58Encode(sha256(payload));
    expect(reads.getL1Validator!({ validationID })).toMatchObject({
      nodeID: nodeIDs[2],
      weight: '50',
      balance: String(AVAX),
    });
    // In the set from the height of its block on, not before.
    const at = (height: number) => Object.keys(reads.getValidatorsAt!({ subnetID, height: String(height) }) as object);
    const height = world.tip('P').height;
    expect(at(height)).toContain(nodeIDs[2]);
    expect(at(height - 1)).not.toContain(nodeIDs[2]);
    // The same registration again, now signed by the three validators (two of them are short of quorum).
    const replay = await register(warpMessage(chainID, payload, [0, 1, 2], bitsFor([0, 1, 2], [0, 1, 2])));
    const original = await register(message);
    expect(() => engine.issue('P', original)).toThrow(
      warpRefusal('signature weight is insufficient: 67\\*250 > 100\\*\\d+'),
    );
    expect(() => engine.issue('P', replay)).toThrow(
      pRefusal(`warp message already issued for validationID ${validationID}`),
    );

    const reweigh = warpMessage(
      chainID,
      weightPayload(validationID, 0n, 80n),
      [0, 1, 2],
      bitsFor([0, 1, 2], [0, 1, 2]),
    );
    engine.issue('P', await setWeight(reweigh));
    expect(reads.getL1Validator!({ validationID })).toMatchObject({ weight: '80', minNonce: '1' });
    const stale = warpMessage(chainID, weightPayload(validationID, 0n, 90n), [0, 1, 2], bitsFor([0, 1, 2], [0, 1, 2]));
    const staleBytes = await setWeight(stale);
    expect(() => engine.issue('P', staleBytes)).toThrow(
      pRefusal('warp message contains stale nonce 0 must be at least 1'),
    );

    const refundBefore = world.utxosOf('P', hex(refundee)).reduce((sum, u) => sum + u.amount, 0n);
    const remove = warpMessage(chainID, weightPayload(validationID, 1n, 0n), [0, 1, 2], bitsFor([0, 1, 2], [0, 1, 2]));
    engine.issue('P', await setWeight(remove));
    expect(() => reads.getL1Validator!({ validationID })).toThrow(
      `fetching L1 validator "${validationID}" failed: not found`,
    );
    const refunded = world.utxosOf('P', hex(refundee)).reduce((sum, u) => sum + u.amount, 0n) - refundBefore;
    expect(refunded).toBe(AVAX);
  });

  it('refuses warp messages short of quorum, badly signed, expired, from another chain, with a wrong PoP', async () => {
    const { subnetID, chainID } = await convertedL1();
    const now = world.time.get();
    const payload = registerPayload(subnetID, now + 3600n);
    const short = await register(warpMessage(chainID, payload, [0], bitsFor([0], [0, 1])));
    expect(() => engine.issue('P', short)).toThrow(
      warpRefusal('signature weight is insufficient: 67\\*200 > 100\\*100'),
    );
    const forged = await register(warpMessage(chainID, payload, [0, 2], bitsFor([0, 1], [0, 1])));
    expect(() => engine.issue('P', forged)).toThrow(warpRefusal('signature is invalid'));
    const wrongNetwork = await register(warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1]), 5));
    expect(() => engine.issue('P', wrongNetwork)).toThrow(warpRefusal('wrong networkID'));
    const unknown = cb58Encode(new Uint8Array(32).fill(9));
    const fromNowhere = await register(warpMessage(unknown, payload, [0, 1], bitsFor([0, 1], [0, 1])));
    expect(() => engine.issue('P', fromNowhere)).toThrow(
      warpRefusal(`problem retrieving blockchain "${unknown}": not found`),
    );

    const expired = await register(
      warpMessage(chainID, registerPayload(subnetID, now), [0, 1], bitsFor([0, 1], [0, 1])),
    );
    expect(() => engine.issue('P', expired)).toThrow(
      pRefusal(`warp message expired at ${now} and it is currently ${now}`),
    );
    const far = await register(
      warpMessage(chainID, registerPayload(subnetID, now + 90_000n), [0, 1], bitsFor([0, 1], [0, 1])),
    );
    expect(() => engine.issue('P', far)).toThrow(
      pRefusal('warp message not yet allowed because time is 90000 seconds in the future but the limit is 86400'),
    );
    const wrongPop = await register(warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1])), keys[0]!.pop);
    expect(() => engine.issue('P', wrongPop)).toThrow(pRefusal('invalid proof of possession'));
    const taken = await register(
      warpMessage(chainID, registerPayload(subnetID, now + 60n, 1), [0, 1], bitsFor([0, 1], [0, 1])),
      keys[1]!.pop,
    );
    expect(() => engine.issue('P', taken)).toThrow(pRefusal('L1 validator contains duplicate subnetID + nodeID pair'));
    const last = weightPayload(appendIndex(subnetID, 0), 0n, 0n);
    engine.issue('P', await setWeight(warpMessage(chainID, last, [0, 1], bitsFor([0, 1], [0, 1]))));
    const lastOne = weightPayload(appendIndex(subnetID, 1), 0n, 0n);
    const removeLast = await setWeight(warpMessage(chainID, lastOne, [1], bitsFor([1], [1])));
    expect(() => engine.issue('P', removeLast)).toThrow(
      pRefusal('attempting to remove the last L1 validator from a converted subnet'),
    );
  });

  it('refuses another source address, an unconverted subnet, an unknown validation, a reserved nonce', async () => {
    const { subnetID, chainID } = await convertedL1();
    const signed = (payload: Uint8Array, source = MANAGER) =>
      warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1]), undefined, source);
    const expiry = world.time.get() + 60n;
    const stranger = new Uint8Array(20).fill(0xbb);
    const elsewhere = await register(signed(registerPayload(subnetID, expiry), stranger));
    expect(() => engine.issue('P', elsewhere)).toThrow(
      pRefusal(`wrong warp message source address expected 0x${hex(MANAGER)} but got 0x${hex(stranger)}`),
    );
    const plain = engine.issue(
      'P',
      await sign(pvm.newCreateSubnetTx({ ...base(), subnetOwners: [ewoq] }, sdkContext(world))),
    );
    const unconverted = await register(signed(registerPayload(plain, expiry)));
    expect(() => engine.issue('P', unconverted)).toThrow(
      pRefusal(`could not load subnet conversion for ${plain} with: not found`),
    );
    const unknown = cb58Encode(new Uint8Array(32).fill(6));
    const nobody = await setWeight(signed(weightPayload(unknown, 0n, 5n)));
    expect(() => engine.issue('P', nobody)).toThrow(pRefusal('could not load L1 validator: not found'));
    const reserved = await setWeight(signed(weightPayload(appendIndex(subnetID, 0), 0xffff_ffff_ffff_ffffn, 5n)));
    expect(() => engine.issue('P', reserved)).toThrow(pRefusal('maxUint64 nonce is reserved for removal'));
  });
});

describe('malformed warp payloads answer the node codec texts (warp, warp/payload, warp/message)', () => {
  /**
   * A RegisterL1ValidatorTx carrying `message`, its fee counted on it; avalanchejs' builder parses the warp message,
   * so one it cannot parse is put in after building on `sound` (the node refuses it before counting any fee).
   */
  async function carrying(message: Uint8Array, sound: Uint8Array): Promise<Uint8Array> {
    const build = (m: Uint8Array) =>
      pvm.newRegisterL1ValidatorTx(
        { ...base(), balance: AVAX, blsSignature: keys[2]!.pop, message: m },
        sdkContext(world),
      );
    let unsigned: UnsignedTx;
    try {
      unsigned = build(message);
    } catch {
      unsigned = build(sound);
      (unsigned.getTx() as unknown as { message: Bytes }).message = new Bytes(message);
    }
    return sign(unsigned);
  }
  /** A warp message from `chainID` signed by the L1's two validators over the raw payload `payload`. */
  function signedOver(chainID: string, payload: Uint8Array): Uint8Array {
    const codec = pvmSerial.warp.getWarpManager().getDefaultCodec();
    const unsigned = new pvmSerial.warp.WarpUnsignedMessage(
      new Int(world.network.networkID),
      Id.fromString(chainID),
      new Bytes(payload),
    );
    const unsignedBytes = utils.concatBytes(new Uint8Array(2), unsigned.toBytes(codec));
    const signature = bls12_381.aggregateSignatures(
      [0, 1].map((i) => bls.sign(unsignedBytes, bls.secretKeyFromBytes(keys[i]!.secret))),
    );
    const bits = bitsFor([0, 1], [0, 1]);
    const warp = new pvmSerial.warp.WarpMessage(
      unsigned,
      new pvmSerial.warp.WarpSignature(new Bytes(new Uint8Array(bits)), BlsSignature.fromBytes(signature)[0]),
    );
    return utils.concatBytes(new Uint8Array(2), warp.toBytes(codec));
  }
  const u32 = (n: number) => {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, n);
    return bytes;
  };
  /** An AddressedCall payload from the manager around `inner`, as the node's payload codec writes it. */
  const call = (inner: Uint8Array) =>
    utils.concatBytes(new Uint8Array(2), u32(1), u32(MANAGER.length), MANAGER, u32(inner.length), inner);

  it('warp.ParseMessage: codec version, a cut signature, an unknown signature type, trailing bytes', async () => {
    const { subnetID, chainID } = await convertedL1();
    const payload = registerPayload(subnetID, world.time.get() + 60n);
    const sound = warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1]));
    const extra = utils.concatBytes(sound, new Uint8Array(1));
    // The signature's type ID follows the unsigned message: codec version, network, chain, payload.
    const retyped = new Uint8Array(sound);
    retyped.set(u32(7), 2 + 4 + 32 + 4 + new DataView(sound.buffer, sound.byteOffset).getUint32(38));
    const cases: [Uint8Array, string][] = [
      [new Uint8Array(0), "couldn't unpack codec version"],
      [utils.concatBytes(new Uint8Array([0, 1]), sound.subarray(2)), 'unknown codec version'],
      [sound.subarray(0, sound.length - 10), 'packer has insufficient length for input'],
      [extra, `trailing buffer space: read ${sound.length} provided ${extra.length}`],
      [retyped, "couldn't unmarshal interface: unknown type ID 7"],
    ];
    for (const [message, text] of cases) {
      const bytes = await carrying(message, sound);
      expect(() => engine.issue('P', bytes)).toThrow(
        `couldn't issue tx: failed verification: failed verifying warp messages: ${text}`,
      );
    }
  });

  it('payload.ParseAddressedCall and message.ParseRegisterL1Validator: types, trailing bytes, a cut field', async () => {
    const { subnetID, chainID } = await convertedL1();
    const payload = registerPayload(subnetID, world.time.get() + 60n);
    const sound = warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1]));
    const cases: [Uint8Array, string][] = [
      // A Hash payload is parsed whole before the type assertion.
      [utils.concatBytes(new Uint8Array(2), u32(0), new Uint8Array(32)), 'wrong payload type: *payload.Hash'],
      [utils.concatBytes(new Uint8Array(2), u32(0), new Uint8Array(31)), 'packer has insufficient length for input'],
      [utils.concatBytes(new Uint8Array(2), u32(5)), "couldn't unmarshal interface: unknown type ID 5"],
      [new Uint8Array(2), "couldn't unmarshal interface: packer has insufficient length for input"],
      [
        utils.concatBytes(call(payload), new Uint8Array(1)),
        `trailing buffer space: read ${call(payload).length} provided ${call(payload).length + 1}`,
      ],
      [
        call(utils.concatBytes(payload, new Uint8Array(2))),
        `trailing buffer space: read ${payload.length} provided ${payload.length + 2}`,
      ],
      [
        call(payload.subarray(0, payload.length - 3)),
        "couldn't unmarshal uint64: packer has insufficient length for input",
      ],
      [call(weightPayload(appendIndex(subnetID, 0), 1n, 5n)), 'wrong payload type: *message.L1ValidatorWeight'],
      [call(utils.concatBytes(new Uint8Array(2), u32(9))), "couldn't unmarshal interface: unknown type ID 9"],
    ];
    for (const [raw, text] of cases) {
      const bytes = await carrying(signedOver(chainID, raw), sound);
      expect(() => engine.issue('P', bytes)).toThrow(pRefusal(text));
    }
  });
});

describe('the continuous fee, IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx', () => {
  it('drains balances per second; an exhausted validator turns inactive; a top-up revives it', async () => {
    const { subnetID } = await convertedL1([1000n, AVAX]);
    const [first, second] = [appendIndex(subnetID, 0), appendIndex(subnetID, 1)];
    const price = world.config.validatorFee.minPrice;
    advanceTime(world, world.time.get() + 400n);
    expect(reads.getL1Validator!({ validationID: first })).toMatchObject({ balance: String(1000n - 400n * price) });
    advanceTime(world, world.time.get() + 10_000n);
    expect(reads.getL1Validator!({ validationID: first })).toMatchObject({ balance: '0' });
    expect(reads.getL1Validator!({ validationID: second })).toMatchObject({ balance: String(AVAX - 10_400n * price) });
    // An inactive validator's weight stays in the set, under the empty node ID and without a key.
    engine.mine('P');
    const set = reads.getValidatorsAt!({ subnetID, height: String(world.tip('P').height) }) as Record<string, unknown>;
    expect(set['NodeID-111111111111111111116DBWJs']).toEqual({ publicKey: null, weight: '100' });

    const topUp = pvm.newIncreaseL1ValidatorBalanceTx(
      { ...base(), balance: 5000n, validationId: first },
      sdkContext(world),
    );
    engine.issue('P', await sign(topUp));
    expect(reads.getL1Validator!({ validationID: first })).toMatchObject({ balance: '5000' });
    const missing = cb58Encode(new Uint8Array(32).fill(4));
    const nowhere = pvm.newIncreaseL1ValidatorBalanceTx(
      { ...base(), balance: 1n, validationId: missing },
      sdkContext(world),
    );
    const nowhereBytes = await sign(nowhere);
    expect(() => engine.issue('P', nowhereBytes)).toThrow(pRefusal('not found'));
    // avalanchejs builds no zero top-up: its balance is set to zero after.
    const nothing = pvm.newIncreaseL1ValidatorBalanceTx(
      { ...base(), balance: 1n, validationId: first },
      sdkContext(world),
    );
    Object.assign(nothing.getTx(), { balance: new BigIntPr(0n) });
    const nothingBytes = signSync(nothing);
    expect(() => engine.issue('P', nothingBytes)).toThrow(pRefusal('balance must be greater than 0'));
  });

  it('disables a validator with its deactivation owner: the balance is refunded; others are unauthorized', async () => {
    const { subnetID } = await convertedL1([AVAX, 3n * AVAX]);
    const validationID = appendIndex(subnetID, 1);
    const disable = () =>
      pvm.newDisableL1ValidatorTx({ ...base(), validationId: validationID, disableAuth: [0] }, sdkContext(world));
    const byStranger = await sign(disable(), EWOQ);
    expect(() => engine.issue('P', byStranger)).toThrow(
      pRefusal(
        'unauthorized modification: wrong signature: ' +
          `expected signature from ${cb58Encode(disabler)} but got from ${cb58Encode(ewoq)}`,
      ),
    );
    engine.issue('P', await sign(disable(), DISABLER));
    expect(reads.getL1Validator!({ validationID })).toMatchObject({ balance: '0', weight: '100' });
    expect(world.utxosOf('P', hex(refundee)).reduce((sum, u) => sum + u.amount, 0n)).toBe(3n * AVAX);
    // Disabling it again changes nothing but the fee: no second refund.
    engine.issue('P', await sign(disable(), DISABLER));
    expect(world.utxosOf('P', hex(refundee)).reduce((sum, u) => sum + u.amount, 0n)).toBe(3n * AVAX);
  });
});

describe('upgrade rules and BLS proofs of possession', () => {
  it('refuses L1 transactions before Etna and BaseTx before Durango (a Fuji world starts in 2020)', () => {
    const fuji = buildWorld({ network: 'fuji', accounts: 0 });
    const baseTx = avaxSerial.BaseTx.fromNative(fuji.network.networkID, fuji.chainIDs.P, [], [], new Uint8Array());
    const tx = new pvmSerial.IncreaseL1ValidatorBalanceTx(
      baseTx,
      Id.fromString(cb58Encode(new Uint8Array(32).fill(4))),
      new BigIntPr(1n),
    );
    const bytes = new avaxSerial.SignedTx(tx, []).toBytes();
    expect(() => new Engine(fuji).issue('P', bytes)).toThrow(
      pRefusal('attempting to use an Etna-upgrade feature prior to activation'),
    );
    // The P-Chain's BaseTx came with Durango (2024 on Fuji).
    const send = new avaxSerial.SignedTx(new pvmSerial.BaseTx(baseTx), []).toBytes();
    expect(() => new Engine(fuji).issue('P', send)).toThrow(
      pRefusal('attempting to use a Durango-upgrade feature prior to activation'),
    );
  });

  it('refuses Helicon staking before Helicon; a release before v1.15.0-fuji cannot parse it', async () => {
    const renewed = pvm.newAddAutoRenewedValidatorTx(
      {
        ...base(),
        nodeId: `NodeID-${cb58Encode(new Uint8Array(20).fill(43))}`,
        publicKey: keys[0]!.publicKey,
        signature: keys[0]!.pop,
        rewardAddresses: [ewoq],
        delegatorRewardsOwner: [ewoq],
        ownerAddresses: [ewoq],
        shares: 20_000,
        weight: world.config.staking.minValidatorStake,
        autoCompoundRewardShares: 0,
        period: world.config.staking.minStakeDuration,
      },
      sdkContext(world),
    );
    const bytes = await sign(renewed);
    expect(() => engine.issue('P', bytes)).toThrow(
      pRefusal('attempting to use a Helicon-upgrade feature prior to activation'),
    );
    expect(() => new Engine(world, { mode: 'auto' }, 'v1.14.2').issue('P', bytes)).toThrow(
      "couldn't parse tx: couldn't parse tx: couldn't unmarshal interface: unknown type ID 40",
    );
    // v1.15.0-fuji, Helicon's first tag, parses it (and refuses it before Helicon, as the release does).
    expect(() => new Engine(world, { mode: 'auto' }, 'v1.15.0-fuji').issue('P', bytes)).toThrow(
      pRefusal('attempting to use a Helicon-upgrade feature prior to activation'),
    );
  });

  it('verifies the proof of possession of a Primary Network validator', async () => {
    const staking = world.config.staking;
    const add = (extra: object) =>
      pvm.newAddPermissionlessValidatorTx(
        {
          ...base(),
          nodeId: `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`,
          subnetId: world.chainIDs.P,
          start: world.time.get(),
          end: world.time.get() + staking.minStakeDuration,
          weight: staking.minValidatorStake,
          rewardAddresses: [ewoq],
          delegatorRewardsOwner: [ewoq],
          shares: 20_000,
          ...extra,
        },
        sdkContext(world),
      );
    const forgedTx = add({ publicKey: keys[0]!.publicKey, signature: keys[0]!.pop.slice() });
    ((forgedTx.getTx() as pvmSerial.AddPermissionlessValidatorTx).signer as pvmSerial.Signer).proof.signature.set(
      keys[1]!.pop,
    );
    const forged = await sign(forgedTx);
    expect(() => engine.issue('P', forged)).toThrow(
      pRefusal('failed to verify validator, signer, or rewards owners: invalid proof of possession'),
    );
    const keyless = await sign(add({}));
    expect(() => engine.issue('P', keyless)).toThrow(pRefusal('invalid signer: hasKey=false != isPrimaryNetwork=true'));
    const txID = engine.issue('P', await sign(add({ publicKey: keys[0]!.publicKey, signature: keys[0]!.pop })));
    expect(world.stakers.get(txID)?.signer?.publicKey).toBe(`0x${hex(keys[0]!.publicKey)}`);
  });
});

describe('conversion and validation IDs', () => {
  it('computes the conversion ID as message.SubnetToL1ConversionID (the node test vector)', () => {
    const seq = (from: number, length: number) => new Uint8Array(length).map((_, i) => from + i);
    const data = utils.concatBytes(
      new Uint8Array(2),
      seq(0x01, 32),
      seq(0x21, 32),
      new Uint8Array([0, 0, 0, 1, 0x41]),
      new Uint8Array([0, 0, 0, 1, 0, 0, 0, 0x14]),
      seq(0x42, 20),
      seq(0x56, 48),
      seq(0x86, 8),
    );
    const id = conversionID(cb58Encode(seq(0x01, 32)), cb58Encode(seq(0x21, 32)), new Uint8Array([0x41]), [
      { nodeID: seq(0x42, 20), publicKey: seq(0x56, 48), weight: 0x868788898a8b8c8dn },
    ]);
    expect(id).toBe(cb58Encode(sha256(data)));
    expect(appendIndex(cb58Encode(seq(0x01, 32)), 1)).toBe(
      cb58Encode(sha256(utils.concatBytes(seq(0x01, 32), new Uint8Array([0, 0, 0, 1])))),
    );
  });
});

describe('over HTTP, answers checked against the spec', () => {
  const rpc = (url: string, method: string, params: object) => callRpc(`${url}/ext/bc/P`, method, params);
  const hexTx = (bytes: Uint8Array) => utils.bufferToHex(utils.addChecksum(bytes));

  it('platform.issueTx registers an L1 validator; getL1Validator and getCurrentValidators read it', async () => {
    const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, validateResults: true });
    try {
      world = node.world;
      engine = node.state.engine;
      const { subnetID, chainID } = await convertedL1();
      const payload = registerPayload(subnetID, world.time.get() + 60n);
      const tx = await register(warpMessage(chainID, payload, [0, 1], bitsFor([0, 1], [0, 1])));
      const issued = await rpc(node.url, 'platform.issueTx', { tx: hexTx(tx), encoding: 'hex' });
      const validationID = cb58Encode(sha256(payload));
      expect(issued.result?.txID).toBe(cb58Encode(sha256(tx)));
      expect((await rpc(node.url, 'platform.getTxStatus', { txID: issued.result?.txID })).result?.status).toBe(
        'Committed',
      );
      const read = await rpc(node.url, 'platform.getL1Validator', { validationID });
      expect(read.result).toMatchObject({ validationID, subnetID, nodeID: nodeIDs[2], weight: '50' });
      const current = await rpc(node.url, 'platform.getCurrentValidators', { subnetID });
      const listed = current.result!.validators as Array<{ validationID: string }>;
      expect(listed.map((v) => v.validationID)).toContain(validationID);
      expect(listed).toHaveLength(3);
      const subnet = await rpc(node.url, 'platform.getSubnet', { subnetID });
      expect(subnet.result).toMatchObject({ isPermissioned: false, managerChainID: chainID });
    } finally {
      await node.close();
    }
  });

  it('a release before the Etna types cannot parse an L1 transaction', async () => {
    const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, nodeVersion: 'v1.11.12' });
    try {
      world = node.world;
      const topUp = pvm.newIncreaseL1ValidatorBalanceTx(
        { ...base(), balance: 1n, validationId: cb58Encode(new Uint8Array(32)) },
        sdkContext(world),
      );
      const refused = await rpc(node.url, 'platform.issueTx', { tx: hexTx(await sign(topUp)), encoding: 'hex' });
      expect(refused.error?.message).toBe(
        "couldn't parse tx: couldn't parse tx: couldn't unmarshal interface: unknown type ID 38",
      );
    } finally {
      await node.close();
    }
  });
});

describe('the continuous fee', () => {
  it('costs what fee.State.CostOf does (the node test vectors of validators/fee/fee_test.go)', () => {
    const config = { capacity: 20_000n, target: 10_000n, minPrice: 2_048n, excessConversionConstant: 1_246_488_515n };
    const minute = 60n;
    expect(validatorCost(config, 10n, 0n, minute)).toBe(122_880n);
    expect(validatorCost(config, 10_000n, 0n, minute)).toBe(122_880n);
    expect(validatorCost(config, 10_000n, 1_246_488_515n, minute)).toBe(334_020n);
    expect(validatorCost(config, 15_000n, 0n, minute)).toBe(122_880n);
    expect(validatorCost(config, 9_000n, 6n * 3600n * 1_000n, 86_400n)).toBe(177_321_939n);
  });
});
