/**
 * The transaction eth_createAccessList traces, as coreth v1.14.2 makes it from the call's TransactionArgs
 * (internal/ethapi transaction_args.go: setDefaults with skipGasEstimation, ToMessage, toTransaction) and refuses it
 * before the EVM runs (core/state_transition.go preCheck and buyGas, IntrinsicGas): each refusal in its Go text. eth_call's
 * message (ToMessage without setDefaults) meets the same checks.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ethChecksum } from '../engine/dev.ts';
import { UNEQUAL_CALL_DATA } from './call-data.ts';
import { RPC_GAS_CAP } from './transaction-args.ts';

const MAX_INIT_CODE_SIZE = 2 * 24_576;

export interface AccessTuple {
  address: string;
  storageKeys: string[];
}

/** TransactionArgs after setDefaults: every field the message and the transaction read. */
export interface FilledArgs {
  from: string;
  to?: string;
  gas: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value: bigint;
  nonce: bigint;
  data: string;
  chainId: bigint;
  accessList?: AccessTuple[];
}

/** What setDefaults reads of the node: the last block's base fee, the tip oracle, the pool nonce, the chain ID. */
export interface NodeDefaults {
  headBaseFee: bigint;
  tip: () => bigint;
  poolNonce: (from: string) => Promise<bigint>;
  chainId: bigint;
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
const num = (value: unknown) => (typeof value === 'string' ? BigInt(value) : undefined);
const hexOf = (value: bigint) => `0x${value.toString(16)}`;

/** TransactionArgs' fields by their JSON names, matched case-insensitively as encoding/json matches them. */
function fieldsOf(args: unknown): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  if (typeof args === 'object' && args !== null)
    for (const [key, value] of Object.entries(args)) if (value !== null) fields.set(key.toLowerCase(), value);
  return fields;
}

/** setDefaults(ctx, b, true): the filled args, or its error's text. */
export async function setDefaults(args: unknown, node: NodeDefaults): Promise<FilledArgs | string> {
  const f = fieldsOf(args);
  const gasPrice = num(f.get('gasprice'));
  let maxFeePerGas = num(f.get('maxfeepergas'));
  let maxPriorityFeePerGas = num(f.get('maxpriorityfeepergas'));
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined))
    return 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified';
  const tipAboveCap = () =>
    `maxFeePerGas (${hexOf(maxFeePerGas!)}) < maxPriorityFeePerGas (${hexOf(maxPriorityFeePerGas!)})`;
  if (gasPrice === undefined && maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
    if (maxFeePerGas === 0n) return 'maxFeePerGas must be non-zero';
    if (maxFeePerGas < maxPriorityFeePerGas) return tipAboveCap();
  } else if (gasPrice !== undefined) {
    // The C-Chain is past London (Apricot Phase 3) at every height the mock serves.
    if (gasPrice === 0n) return 'gasPrice must be non-zero after london fork';
  } else {
    maxPriorityFeePerGas ??= node.tip();
    maxFeePerGas ??= maxPriorityFeePerGas + 2n * node.headBaseFee;
    if (maxFeePerGas < maxPriorityFeePerGas) return tipAboveCap();
  }
  const from = typeof f.get('from') === 'string' ? (f.get('from') as string).toLowerCase() : ZERO_ADDRESS;
  const nonce = num(f.get('nonce')) ?? (await node.poolNonce(from));
  const data = f.get('data') as string | undefined;
  const input = f.get('input') as string | undefined;
  if (data !== undefined && input !== undefined && data.toLowerCase() !== input.toLowerCase()) return UNEQUAL_CALL_DATA;
  const code = input ?? data ?? '0x';
  const to = typeof f.get('to') === 'string' ? (f.get('to') as string).toLowerCase() : undefined;
  if (to === undefined && code.length <= 2) return 'contract creation without any data provided';
  const chainId = num(f.get('chainid'));
  if (chainId !== undefined && chainId !== node.chainId)
    return `chainId does not match node's (have=${chainId}, want=${node.chainId})`;
  return {
    from,
    ...(to === undefined ? {} : { to }),
    gas: num(f.get('gas')) ?? RPC_GAS_CAP,
    ...(gasPrice === undefined ? {} : { gasPrice }),
    ...(maxFeePerGas === undefined ? {} : { maxFeePerGas, maxPriorityFeePerGas }),
    value: num(f.get('value')) ?? 0n,
    nonce,
    data: code,
    chainId: node.chainId,
    ...(Array.isArray(f.get('accesslist')) ? { accessList: f.get('accesslist') as AccessTuple[] } : {}),
  };
}

/** The fields ApplyMessage checks of a message. */
export type Message = Pick<
  FilledArgs,
  'from' | 'to' | 'gas' | 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'value' | 'data' | 'accessList'
>;

/**
 * TransactionArgs.ToMessage of eth_call's args (internal/ethapi/transaction_args.go:388): the zero address as sender, the
 * RPC gas cap for gas (and above it), fees and value of 0, unless given; `input` before `data`. Or its error's text.
 */
export function toMessage(args: unknown): Message | string {
  const f = fieldsOf(args);
  if (f.has('gasprice') && (f.has('maxfeepergas') || f.has('maxpriorityfeepergas')))
    return 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified';
  const text = (name: string) => (typeof f.get(name) === 'string' ? (f.get(name) as string).toLowerCase() : undefined);
  const gas = num(f.get('gas')) ?? RPC_GAS_CAP;
  return {
    from: text('from') ?? ZERO_ADDRESS,
    ...(text('to') === undefined ? {} : { to: text('to') }),
    gas: gas < RPC_GAS_CAP ? gas : RPC_GAS_CAP,
    gasPrice: num(f.get('gasprice')),
    maxFeePerGas: num(f.get('maxfeepergas')),
    maxPriorityFeePerGas: num(f.get('maxpriorityfeepergas')),
    value: num(f.get('value')) ?? 0n,
    data: text('input') ?? text('data') ?? '0x',
    ...(Array.isArray(f.get('accesslist')) ? { accessList: f.get('accesslist') as AccessTuple[] } : {}),
  };
}

const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
/** An RLP quantity: big-endian, no leading zero byte, zero empty. */
function quantityBytes(value: bigint): Uint8Array {
  const digits = value.toString(16);
  return value === 0n ? new Uint8Array() : Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
}
const keccakHex = (data: Uint8Array) => `0x${Buffer.from(keccak_256(data)).toString('hex')}`;

/** crypto.CreateAddress: the address a creation from `from` with `nonce` deploys to. */
export const createAddress = (from: string, nonce: bigint) =>
  `0x${keccakHex(RLP.encode([bytes(from), quantityBytes(nonce)])).slice(26)}`;

/** toTransaction(...).Hash(): the unsigned transaction's hash (a dynamic-fee one, or an access-list one for gasPrice). */
export function transactionHash(args: FilledArgs, accessList: AccessTuple[]): string {
  const list = accessList.map((tuple) => [bytes(tuple.address), tuple.storageKeys.map(bytes)]);
  const tail = [quantityBytes(args.gas), args.to ? bytes(args.to) : new Uint8Array(), quantityBytes(args.value)];
  const body = [...tail, bytes(args.data), list, new Uint8Array(), new Uint8Array(), new Uint8Array()];
  const [type, fees] =
    args.maxFeePerGas !== undefined
      ? [2, [quantityBytes(args.maxPriorityFeePerGas!), quantityBytes(args.maxFeePerGas)]]
      : [1, [quantityBytes(args.gasPrice!)]];
  const payload = RLP.encode([quantityBytes(args.chainId), quantityBytes(args.nonce), ...fees, ...body]);
  return keccakHex(Buffer.concat([Uint8Array.of(type), payload]));
}

/** The message's gas: the args' capped at the RPC gas cap (ToMessage). */
export const messageGas = (args: Message) => (args.gas < RPC_GAS_CAP ? args.gas : RPC_GAS_CAP);

/** core.IntrinsicGas after Durango (Shanghai's init code words, EIP-2930's access list). */
export function intrinsicGas(args: Pick<Message, 'to' | 'data'>, accessList: readonly AccessTuple[]): bigint {
  const data = bytes(args.data);
  let gas = args.to === undefined ? 53_000n : 21_000n;
  const zeros = BigInt(data.filter((byte) => byte === 0).length);
  gas += zeros * 4n + (BigInt(data.length) - zeros) * 16n;
  if (args.to === undefined) gas += 2n * ((BigInt(data.length) + 31n) / 32n);
  for (const tuple of accessList) gas += 2_400n + 1_900n * BigInt(tuple.storageKeys.length);
  return gas;
}

/** The message's fee cap and tip (ToMessage: a gas price is both; none given is 0). */
const feesOf = (args: Message) => ({
  feeCap: args.gasPrice ?? args.maxFeePerGas ?? 0n,
  tip: args.gasPrice ?? args.maxPriorityFeePerGas ?? 0n,
});

/** Whether preCheck compares the message's fee cap to the base fee (NoBaseFee skips a message paying none). */
export const paysFee = (args: Message) => feesOf(args).feeCap !== 0n || feesOf(args).tip !== 0n;

/**
 * ApplyMessage's refusal of the message before the EVM runs (preCheck's fee checks under NoBaseFee, buyGas, the
 * intrinsic gas), in its words, or undefined. `baseFee` is the named block's, read only when the message pays a fee.
 */
export function messageRefusal(
  args: Message,
  accessList: readonly AccessTuple[],
  baseFee: bigint,
  balance: bigint,
): string | undefined {
  const { feeCap, tip } = feesOf(args);
  const from = ethChecksum(args.from.slice(2));
  if (paysFee(args)) {
    if (feeCap < tip)
      return `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`;
    if (feeCap < baseFee)
      return `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`;
  }
  const gas = messageGas(args);
  const want = gas * feeCap + args.value;
  if (want >= 2n ** 256n)
    return `insufficient funds for gas * price + value: address ${from} required balance exceeds 256 bits`;
  if (balance < want) return `insufficient funds for gas * price + value: address ${from} have ${balance} want ${want}`;
  const intrinsic = intrinsicGas(args, accessList);
  if (gas < intrinsic) return `intrinsic gas too low: have ${gas}, want ${intrinsic}`;
  // Durango's EIP-3860 limit (params.MaxInitCodeSize), checked after the transfer the balance check covers.
  const codeSize = (args.data.length - 2) / 2;
  if (args.to === undefined && codeSize > MAX_INIT_CODE_SIZE)
    return `max initcode size exceeded: code size ${codeSize} limit ${MAX_INIT_CODE_SIZE}`;
  return undefined;
}

/**
 * ToMessage's gas price of a message paying by maxFeePerGas at `baseFee` (min(tip + base fee, fee cap)), what GASPRICE
 * reads in coreth, or undefined for a message paying by gasPrice or paying nothing. The engine works a call's out at
 * a base fee of 0, the tip, so it is given this as the call's gasPrice (an engine call of gasPrice runs at it).
 */
export function effectiveGasPrice(args: Message, baseFee: bigint): bigint | undefined {
  if (args.gasPrice !== undefined || !paysFee(args)) return undefined;
  const { feeCap, tip } = feesOf(args);
  return tip + baseFee < feeCap ? tip + baseFee : feeCap;
}

/**
 * eth_call's args for the engine, the 1559 fees replaced by their effective gas price (undefined: the args as they
 * are). Not with blob fields, which make the engine's call a blob transaction that takes no gasPrice.
 */
export function enginePriced(args: unknown, baseFee: bigint): Record<string, unknown> | undefined {
  const message = toMessage(args);
  if (typeof message === 'string') return undefined;
  const price = effectiveGasPrice(message, baseFee);
  const entries = Object.entries(args as object);
  if (price === undefined || entries.some(([key]) => /blob/i.test(key))) return undefined;
  const kept = entries.filter(([key]) => !/^max(priority)?feepergas$/i.test(key));
  return { ...Object.fromEntries(kept), gasPrice: hexOf(price) };
}
