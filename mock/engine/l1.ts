import { avalanche } from '../shared/avalanche.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { cb58Encode } from '../../generators/formats.ts';
import { idBytes, makeUtxo } from '../world/codec.ts';
import { EMPTY_ID } from '../world/networks.ts';
import { upgradeActive } from '../world/reads-info.ts';
import type { L1Validator, Owner } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { compressedHex, verifyProofOfPossession } from './bls.ts';
import type { DecodedTx, Transaction } from './codec.ts';
import { type Effects, noEffects, outputsOf } from './effects.ts';
import { L1_TEXTS, expiryKey, isActive } from './l1-state.ts';
import { authorize, txFee, spendAll, syntacticP } from './p.ts';
import { verifyConservation } from './locked.ts';
import { Refusal, TEXTS } from './refusals.ts';
import { verifyCredentials } from './spend.ts';
import { nodeIDText, parseAddressedCall, parseL1Message, parseWarp, verifyWarpSignature } from './warp.ts';

const MAX_ADDRESS_LENGTH = 4096;
const EXPIRY_WINDOW = 86_400n;
const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A message.PChainOwner as the world keeps owners (no locktime). */
const pOwner = (o: Transaction): Owner => ({
  locktime: 0n,
  threshold: o.threshold.value(),
  addresses: o.addresses.map((a: { toBytes(): Uint8Array }) => hex(a.toBytes())),
});

/** secp256k1fx.OutputOwners.Verify over a PChainOwner. */
function verifyOwner(owner: Owner): void {
  if (owner.threshold > owner.addresses.length) throw new Refusal('output is unspendable');
  if (owner.threshold === 0 && owner.addresses.length > 0)
    throw new Refusal('output representation should be optimized');
  for (let i = 1; i < owner.addresses.length; i++)
    if (owner.addresses[i - 1]! >= owner.addresses[i]!) throw new Refusal('addresses not sorted and unique');
}

/** ids.ToNodeID: 20 bytes, else hashing.ToHash160's error. */
function nodeIDOf(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new Refusal(`invalid hash length: expected 20 bytes but got ${bytes.length}`);
  return nodeIDText(bytes);
}

const activeCount = (world: World) => [...world.l1Validators.values()].filter(isActive).length;

export function checkCapacity(world: World, extra = 0): void {
  if (BigInt(activeCount(world) + extra) >= world.config.validatorFee.capacity)
    throw new Refusal(L1_TEXTS.maxActiveValidators);
}

/** state.PutL1Validator's checks for a new validation: no legacy validator and no L1 validator for the node. */
export function checkNewValidation(
  world: World,
  subnetID: string,
  nodeID: string,
  pending: readonly L1Validator[] = [],
): void {
  const now = world.time.get();
  for (const s of world.stakers.values())
    if (s.subnetID === subnetID && s.nodeID === nodeID && !s.validatorTxID && s.startTime <= now && now < s.endTime)
      throw new Refusal(L1_TEXTS.conflictingValidator);
  for (const v of [...world.l1Validators.values(), ...pending])
    if (v.subnetID === subnetID && v.nodeID === nodeID) throw new Refusal(L1_TEXTS.duplicateValidator);
}

/** The base inputs spent with `creds`, outputs produced, `extra` nAVAX (balances) burned besides the fee. */
function pay(world: World, decoded: DecodedTx, creds: Uint8Array[][], extra: bigint, effects: Effects): void {
  const { ins, outs } = syntacticP(world, decoded);
  effects.consumed = spendAll(world, decoded, ins, creds);
  verifyConservation(world, ins, outs, txFee(world, decoded) + extra);
  effects.produced = outputsOf('P', decoded, outs);
}

/** message.SubnetToL1ConversionID: sha256 of the conversion data in the message codec (version 0). */
export function conversionID(
  subnetID: string,
  chainID: string,
  address: Uint8Array,
  validators: readonly { nodeID: Uint8Array; publicKey: Uint8Array; weight: bigint }[],
): string {
  const bytes = avalanche().utils.concatBytes(
    new Uint8Array(2),
    avalanche().Id.fromString(subnetID).toBytes(),
    avalanche().Id.fromString(chainID).toBytes(),
    new (avalanche().Bytes)(address).toBytes(),
    new (avalanche().Int)(validators.length).toBytes(),
    ...validators.flatMap((v) => [
      new (avalanche().Bytes)(v.nodeID).toBytes(),
      v.publicKey,
      new (avalanche().BigIntPr)(v.weight).toBytes(),
    ]),
  );
  return cb58Encode(sha256(bytes));
}

/** ids.ID.Append: the validation ID of a conversion's i-th validator. */
export const appendIndex = (id: string, index: number): string =>
  cb58Encode(sha256(avalanche().utils.concatBytes(idBytes(id), new (avalanche().Int)(index).toBytes())));

/** verifyL1Conversion: the warp message comes from the subnet's manager chain and address. */
function verifyConversion(world: World, subnetID: string, chainID: string, address: Uint8Array): void {
  const conversion = world.subnets.get(subnetID)?.conversion;
  if (!conversion) throw new Refusal(L1_TEXTS.noConversion(subnetID));
  if (conversion.chainID !== chainID) throw new Refusal(L1_TEXTS.wrongSourceChain(conversion.chainID, chainID));
  if (conversion.address !== `0x${hex(address)}`)
    throw new Refusal(L1_TEXTS.wrongSourceAddress(conversion.address.slice(2), hex(address)));
}

/** The validator as the block that applies a transaction finds it (its balance may have drained since the pool). */
const current = (world: World, verified: L1Validator): L1Validator =>
  world.l1Validators.get(verified.validationID) ?? verified;

/** The UTXO a removed or disabled validator's remaining balance is refunded with (output index after the outs). */
function refund(world: World, decoded: DecodedTx, validator: L1Validator) {
  const base = decoded.tx.baseTx;
  return makeUtxo({
    txID: decoded.id,
    outputIndex: base.outputs.length,
    assetID: world.network.avaxAssetID,
    amount: validator.balance,
    owner: validator.remainingBalanceOwner,
    stakeableLocktime: 0n,
  });
}

function convert(world: World, decoded: DecodedTx, tx: Transaction): Effects {
  const subnetID: string = tx.subnetID.toString();
  const address: Uint8Array = tx.address.bytes;
  const validators: Transaction[] = [...tx.validators];
  if (subnetID === EMPTY_ID) throw new Refusal(L1_TEXTS.convertPermissionless);
  if (address.length > MAX_ADDRESS_LENGTH) throw new Refusal(L1_TEXTS.addressTooLong);
  if (validators.length === 0) throw new Refusal(L1_TEXTS.noValidators);
  for (let i = 1; i < validators.length; i++)
    if (compare(validators[i - 1].nodeId.bytes, validators[i].nodeId.bytes) >= 0)
      throw new Refusal(L1_TEXTS.validatorsNotSorted);
  syntacticP(world, decoded, false);
  const keys = validators.map((v) => {
    if (v.weight.value() === 0n) throw new Refusal(L1_TEXTS.zeroWeight);
    const nodeID = nodeIDOf(v.nodeId.bytes);
    if (nodeID === nodeIDText(new Uint8Array(20))) throw new Refusal(L1_TEXTS.emptyNodeID);
    const key = verifyProofOfPossession(v.signer.publicKey, v.signer.signature);
    verifyOwner(pOwner(v.remainingBalanceOwner));
    verifyOwner(pOwner(v.deactivationOwner));
    return key;
  });
  syntacticP(world, decoded);
  const creds = authorize(world, decoded, subnetID, tx.subnetAuth);
  const now = world.time.get();
  const added: L1Validator[] = [];
  let balances = 0n;
  validators.forEach((v, i) => {
    const balance: bigint = v.balance.value();
    if (balance !== 0n) checkCapacity(world, added.filter(isActive).length);
    const nodeID = nodeIDOf(v.nodeId.bytes);
    checkNewValidation(world, subnetID, nodeID, added);
    balances += balance;
    added.push({
      validationID: appendIndex(subnetID, i),
      subnetID,
      nodeID,
      publicKey: compressedHex(keys[i]!),
      remainingBalanceOwner: pOwner(v.remainingBalanceOwner),
      deactivationOwner: pOwner(v.deactivationOwner),
      startTime: now,
      weight: v.weight.value(),
      minNonce: 0n,
      balance,
      addedBy: decoded.id,
    });
  });
  const effects = noEffects();
  pay(world, decoded, creds, balances, effects);
  const chainID: string = tx.chainID.toString();
  const id = conversionID(
    subnetID,
    chainID,
    address,
    validators.map((v) => ({ nodeID: v.nodeId.bytes, publicKey: v.signer.publicKey, weight: v.weight.value() })),
  );
  effects.apply = (w) => {
    for (const v of added) w.l1Validators.set(v.validationID, v);
    const subnet = w.subnets.get(subnetID)!;
    w.subnets.set(subnetID, { ...subnet, conversion: { chainID, address: `0x${hex(address)}`, conversionID: id } });
  };
  return effects;
}

function register(world: World, decoded: DecodedTx, tx: Transaction): Effects {
  syntacticP(world, decoded);
  const balance: bigint = tx.balance.value();
  const effects = noEffects();
  pay(world, decoded, decoded.credentials, balance, effects);
  const message: Uint8Array = tx.message.bytes;
  const warp = parseWarp(message);
  const call = parseAddressedCall(warp.payload);
  const msg = parseL1Message<Transaction>(call.payload, 1);
  const subnetID: string = msg.subnetId.toString();
  const weight: bigint = msg.getWeight();
  if (subnetID === EMPTY_ID) throw new Refusal(L1_TEXTS.invalidSubnetID);
  if (weight === 0n) throw new Refusal(L1_TEXTS.invalidWeight);
  const rawNodeID: Uint8Array = msg.nodeId.toBytes();
  let nodeID: string;
  try {
    nodeID = nodeIDOf(rawNodeID);
  } catch (error) {
    throw new Refusal(`${L1_TEXTS.invalidNodeID}: ${(error as Error).message}`);
  }
  if (rawNodeID.every((b) => b === 0)) throw new Refusal(`${L1_TEXTS.invalidNodeID}: empty nodeID is disallowed`);
  const remainingBalanceOwner = pOwner(msg.remainingBalanceOwner);
  const deactivationOwner = pOwner(msg.disableOwner);
  try {
    verifyOwner(remainingBalanceOwner);
    verifyOwner(deactivationOwner);
  } catch (error) {
    throw new Refusal(`${L1_TEXTS.invalidOwner}: ${(error as Error).message}`);
  }
  verifyConversion(world, subnetID, warp.sourceChainID, call.sourceAddress);
  const now = world.time.get();
  const expiry: bigint = msg.getExpiry();
  if (expiry <= now) throw new Refusal(L1_TEXTS.expired(expiry, now));
  if (expiry - now > EXPIRY_WINDOW) throw new Refusal(L1_TEXTS.notYetAllowed(expiry - now, EXPIRY_WINDOW));
  const validationID = cb58Encode(sha256(call.payload));
  const key = expiryKey(expiry, validationID);
  if (world.l1Expiries.has(key)) throw new Refusal(L1_TEXTS.alreadyIssued(validationID));
  const publicKey = verifyProofOfPossession(msg.blsPublicKey.toBytes(), tx.blsSignature.toBytes());
  if (balance !== 0n) checkCapacity(world);
  checkNewValidation(world, subnetID, nodeID);
  const validator: L1Validator = {
    validationID,
    subnetID,
    nodeID,
    publicKey: compressedHex(publicKey),
    remainingBalanceOwner,
    deactivationOwner,
    startTime: now,
    weight,
    minNonce: 0n,
    balance,
    addedBy: decoded.id,
  };
  effects.apply = (w) => {
    w.l1Validators.set(validationID, validator);
    w.l1Expiries.set(key, expiry);
  };
  return effects;
}

function setWeight(world: World, decoded: DecodedTx, tx: Transaction): Effects {
  syntacticP(world, decoded);
  const effects = noEffects();
  pay(world, decoded, decoded.credentials, 0n, effects);
  const warp = parseWarp(tx.message.bytes);
  const call = parseAddressedCall(warp.payload);
  const msg = parseL1Message<Transaction>(call.payload, 3);
  const nonce: bigint = msg.getNonce();
  const weight: bigint = msg.getWeight();
  if (nonce === MAX_UINT64 && weight !== 0n) throw new Refusal(L1_TEXTS.nonceReserved);
  const validationID: string = msg.validationId.toString();
  const validator = world.l1Validators.get(validationID);
  if (!validator) throw new Refusal(`${L1_TEXTS.couldNotLoad}: ${TEXTS.notFound}`);
  if (nonce < validator.minNonce) throw new Refusal(L1_TEXTS.staleNonce(nonce, validator.minNonce));
  verifyConversion(world, validator.subnetID, warp.sourceChainID, call.sourceAddress);
  if (weight === 0n) {
    const total = [...world.l1Validators.values()]
      .filter((v) => v.subnetID === validator.subnetID)
      .reduce((sum, v) => sum + v.weight, 0n);
    if (total === validator.weight) throw new Refusal(L1_TEXTS.removingLast);
    if (isActive(validator)) effects.produced.push(refund(world, decoded, validator));
  }
  effects.apply = (w) => {
    if (weight === 0n) w.l1Validators.delete(validationID);
    else w.l1Validators.set(validationID, { ...current(w, validator), minNonce: nonce + 1n, weight });
  };
  return effects;
}

function increaseBalance(world: World, decoded: DecodedTx, tx: Transaction): Effects {
  const balance: bigint = tx.balance.value();
  if (balance === 0n) throw new Refusal(L1_TEXTS.zeroBalance);
  syntacticP(world, decoded);
  const effects = noEffects();
  pay(world, decoded, decoded.credentials, balance, effects);
  const validationID: string = tx.validationId.toString();
  const validator = world.l1Validators.get(validationID);
  if (!validator) throw new Refusal(TEXTS.notFound);
  if (!isActive(validator)) checkCapacity(world);
  effects.apply = (w) => {
    const now = current(w, validator);
    w.l1Validators.set(validationID, { ...now, balance: now.balance + balance });
  };
  return effects;
}

function disable(world: World, decoded: DecodedTx, tx: Transaction): Effects {
  syntacticP(world, decoded);
  const validationID: string = tx.validationId.toString();
  const validator = world.l1Validators.get(validationID);
  if (!validator) throw new Refusal(`${L1_TEXTS.couldNotLoad}: ${TEXTS.notFound}`);
  if (decoded.credentials.length === 0) throw new Refusal(TEXTS.authWrongNumberOfCredentials);
  try {
    verifyCredentials(
      decoded.unsignedHash,
      tx.disableAuth.values(),
      decoded.credentials[decoded.credentials.length - 1]!,
      validator.deactivationOwner,
      world.time.get(),
      world.impersonated,
    );
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`${TEXTS.unauthorized}: ${error.message}`) : error;
  }
  const effects = noEffects();
  pay(world, decoded, decoded.credentials.slice(0, -1), 0n, effects);
  if (!isActive(validator)) return effects;
  effects.produced.push(refund(world, decoded, validator));
  effects.apply = (w) => w.l1Validators.set(validationID, { ...current(w, validator), balance: 0n });
  return effects;
}

const L1_TXS: Record<string, (world: World, decoded: DecodedTx, tx: Transaction) => Effects> = {
  'pvm.ConvertSubnetToL1Tx': convert,
  'pvm.RegisterL1ValidatorTx': register,
  'pvm.SetL1ValidatorWeightTx': setWeight,
  'pvm.IncreaseL1ValidatorBalanceTx': increaseBalance,
  'pvm.DisableL1ValidatorTx': disable,
};

/** Verifies an L1 transaction on the world's state; undefined for any other kind. */
export function verifyL1Tx(world: World, decoded: DecodedTx): Effects | undefined {
  const tx = decoded.tx;
  const verify = L1_TXS[tx._type as string];
  if (!verify) return undefined;
  if (tx._type === 'pvm.RegisterL1ValidatorTx' || tx._type === 'pvm.SetL1ValidatorWeightTx')
    verifyWarpSignature(world, tx.message.bytes);
  if (!upgradeActive(world, 'etna', world.time.get())) throw new Refusal(L1_TEXTS.etnaNotActive);
  return verify(world, decoded, tx);
}
