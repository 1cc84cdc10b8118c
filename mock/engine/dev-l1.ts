/**
 * Direct edits of L1 state (`/ext/dev`): a subnet converted to an L1, an L1 validator with any weight, key, balance
 * and owners, a validator's balance. Each is checked as the node checks what ConvertSubnetToL1Tx,
 * RegisterL1ValidatorTx and IncreaseL1ValidatorBalanceTx put in its state (l1.ts), but for the signatures, the warp
 * messages and the fees, and changes nothing when refused.
 */
import { cb58Decode } from '../../generators/formats.ts';
import { EMPTY_ID } from '../world/networks.ts';
import { upgradeActive } from '../world/reads-info.ts';
import type { Owner } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { compressedHex, publicKeyFromBytes } from './bls.ts';
import { MAX_UINT64, ownerOf, uint } from './dev-params.ts';
import { checkCapacity, checkNewValidation, conversionID } from './l1.ts';
import { L1_TEXTS, isActive } from './l1-state.ts';

type Params = Record<string, unknown>;

/** ConvertSubnetToL1Tx's limit on the manager's address (convert_subnet_to_l1_tx.go MaxSubnetAddressLength). */
const MAX_ADDRESS_BYTES = 4096;

function idOf(value: unknown, name: string): string {
  const text = String(value ?? '');
  if (cb58Decode(text)?.length !== 32) throw new Error(`${name} ${JSON.stringify(text)} is not an ID (cb58)`);
  return text;
}

function hexBytes(value: unknown, name: string): Uint8Array {
  const text = String(value ?? '');
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text)) throw new Error(`${name} must be 0x-prefixed hex`);
  return Buffer.from(text.slice(2), 'hex');
}

function etna(world: World): void {
  if (!upgradeActive(world, 'etna', world.time.get())) throw new Error(L1_TEXTS.etnaNotActive);
}

/** An owner from P-Chain addresses (threshold 1); none given: an owner no key satisfies, as an empty PChainOwner. */
const ownerOrNobody = (world: World, addresses: unknown): Owner =>
  addresses === undefined ? { locktime: 0n, threshold: 0, addresses: [] } : ownerOf(world, { addresses });

/** Makes a subnet an L1 whose manager is `address` on `chainID`, as a ConvertSubnetToL1Tx without validators. */
export function convertSubnet(world: World, p: Params): { conversionID: string } {
  etna(world);
  const subnetID = idOf(p.subnetID, 'subnetID');
  const subnet = world.subnets.get(subnetID);
  if (subnetID === EMPTY_ID) throw new Error(L1_TEXTS.convertPermissionless);
  if (!subnet) throw new Error(`subnet ${subnetID} not found`);
  if (subnet.conversion) throw new Error(`subnet ${subnetID} is already an L1`);
  const chainID = idOf(p.chainID, 'chainID');
  const address = hexBytes(p.address, 'address');
  if (address.length > MAX_ADDRESS_BYTES) throw new Error(L1_TEXTS.addressTooLong);
  const id = conversionID(subnetID, chainID, address, []);
  world.subnets.set(subnetID, {
    ...subnet,
    conversion: { chainID, address: `0x${Buffer.from(address).toString('hex')}`, conversionID: id },
  });
  return { conversionID: id };
}

/** An L1 validator of a converted subnet, active while its balance lasts, without a warp message. */
export function addL1Validator(world: World, p: Params, nodeID: string, newID: () => string): { validationID: string } {
  etna(world);
  const subnetID = idOf(p.subnetID, 'subnetID');
  if (!world.subnets.get(subnetID)?.conversion) throw new Error(L1_TEXTS.noConversion(subnetID));
  if (cb58Decode(nodeID.slice('NodeID-'.length))!.every((b) => b === 0)) throw new Error(L1_TEXTS.emptyNodeID);
  const weight = uint(p.weight, 'weight');
  if (weight === 0n) throw new Error(L1_TEXTS.zeroWeight);
  const total = [...world.l1Validators.values()]
    .filter((v) => v.subnetID === subnetID)
    .reduce((sum, v) => sum + v.weight, weight);
  if (total > MAX_UINT64) throw new Error(`the L1's total weight would overflow: ${total}`);
  const balance = p.balance === undefined ? 0n : uint(p.balance, 'balance');
  const publicKey = compressedHex(publicKeyFromBytes(hexBytes(p.publicKey, 'publicKey')));
  const remainingBalanceOwner = ownerOrNobody(world, p.remainingBalanceOwner);
  const deactivationOwner = ownerOrNobody(world, p.deactivationOwner);
  checkNewValidation(world, subnetID, nodeID);
  if (balance > 0n) checkCapacity(world);
  const validationID = newID();
  world.l1Validators.set(validationID, {
    validationID,
    subnetID,
    nodeID,
    publicKey,
    remainingBalanceOwner,
    deactivationOwner,
    startTime: world.time.get(),
    weight,
    minNonce: 0n,
    balance,
  });
  return { validationID };
}

/** An L1 validator's balance (nAVAX left for the continuous fee): 0 deactivates it, more reactivates it. */
export function setL1ValidatorBalance(world: World, p: Params): Record<string, never> {
  const validationID = idOf(p.validationID, 'validationID');
  const validator = world.l1Validators.get(validationID);
  if (!validator) throw new Error(`L1 validator ${validationID} not found`);
  const balance = uint(p.balance, 'balance');
  if (balance > 0n && !isActive(validator)) checkCapacity(world);
  world.l1Validators.set(validationID, { ...validator, balance });
  return {};
}
