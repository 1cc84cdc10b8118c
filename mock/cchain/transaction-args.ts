/**
 * The transaction object of eth_call, eth_estimateGas, eth_createAccessList and eth_sendTransaction read as Go reads
 * ethapi.TransactionArgs: a quantity too long for its Go type (gas over 64 bits, a value over 256) or not a hex
 * string is refused with the decoder's text before the engine, whose own texts differ, sees it.
 */
import { bytes } from './call-data.ts';
import { fixedJson, jsonKind } from './params.ts';

const TAKING_ARGS = new Set(['eth_call', 'eth_estimateGas', 'eth_createAccessList', 'eth_sendTransaction']);

/** hexutil's checkNumberText, then the digit limit of the type: the decError's text, or undefined. */
function numberError(text: string, maxDigits: number, range: string): string | undefined {
  if (text.length === 0) return 'empty hex string';
  if (!text.startsWith('0x') && !text.startsWith('0X')) return 'hex string without 0x prefix';
  const raw = text.slice(2);
  if (raw.length === 0) return 'hex string "0x"';
  if (raw.length > 1 && raw[0] === '0') return 'hex number with leading zero digits';
  if (raw.length > maxDigits) return range;
  return /^[0-9a-fA-F]+$/.test(raw) ? undefined : 'invalid hex string';
}

export type FieldDecoder = (value: unknown) => { error: string; type: string } | undefined;

/** hexutil.Uint64 or hexutil.Big: a non-string and every decError become json.UnmarshalTypeError. */
const quantity =
  (type: string, maxDigits: number, range: string): FieldDecoder =>
  (value) => {
    if (typeof value !== 'string') return { error: 'non-string', type };
    const error = numberError(value, maxDigits, range);
    return error === undefined ? undefined : { error, type };
  };

export const uint64 = quantity('hexutil.Uint64', 16, 'hex number > 64 bits');
export const big = quantity('*hexutil.Big', 64, 'hex number > 256 bits');
export const address: FieldDecoder = (value) => {
  const error = fixedJson('common.Address', 20)(value);
  const typed = error?.match(/^json: cannot unmarshal (.*) into Go value of type common\.Address$/);
  return error === undefined ? undefined : { error: typed ? typed[1]! : error, type: typed ? 'common.Address' : '' };
};

const ACCESS_LIST = 'TransactionArgs.accessList';
/** A decoder's "into Go value of type" text as met inside the field `field` (json's addErrorContext). */
const inField = (text: string, field: string) =>
  text.replace(' into Go value of type ', ` into Go struct field ${ACCESS_LIST}${field} of type `);

/** One types.AccessTuple (its gencodec UnmarshalJSON: fields in their order, then the required ones). */
function tupleError(tuple: unknown): string | undefined {
  if (tuple !== null && (typeof tuple !== 'object' || Array.isArray(tuple)))
    return `json: cannot unmarshal ${jsonKind(tuple)} into Go struct field ${ACCESS_LIST} of type types.AccessTuple`;
  const present = new Set<string>();
  for (const [key, value] of Object.entries(tuple ?? {})) {
    const name = key.toLowerCase();
    if (value === null || (name !== 'address' && name !== 'storagekeys')) continue;
    present.add(name);
    if (name === 'address') {
      const error = fixedJson('common.Address', 20)(value);
      if (error !== undefined) return inField(error, '.address');
    } else if (!Array.isArray(value)) {
      return `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${ACCESS_LIST}.storageKeys of type []common.Hash`;
    } else {
      for (const key of value) {
        const error = key === null ? undefined : fixedJson('common.Hash', 32)(key);
        if (error !== undefined) return inField(error, '.storageKeys');
      }
    }
  }
  if (!present.has('address')) return "missing required field 'address' for AccessTuple";
  if (!present.has('storagekeys')) return "missing required field 'storageKeys' for AccessTuple";
  return undefined;
}

/** *types.AccessList: its decoder's whole text (a struct field's context already in it). */
const accessList: FieldDecoder = (value) => {
  if (!Array.isArray(value))
    return {
      error: `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${ACCESS_LIST} of type types.AccessList`,
      type: '',
    };
  for (const tuple of value) {
    const error = tupleError(tuple);
    if (error !== undefined) return { error, type: '' };
  }
  return undefined;
};

/** TransactionArgs' fields by their JSON names (matched case-insensitively, as encoding/json matches them). */
const FIELDS: Record<string, [string, FieldDecoder]> = {
  from: ['from', address],
  to: ['to', address],
  gas: ['gas', uint64],
  nonce: ['nonce', uint64],
  gasprice: ['gasPrice', big],
  maxfeepergas: ['maxFeePerGas', big],
  maxpriorityfeepergas: ['maxPriorityFeePerGas', big],
  value: ['value', big],
  chainid: ['chainId', big],
  maxfeeperblobgas: ['maxFeePerBlobGas', big],
  accesslist: ['accessList', accessList],
  data: ['data', bytes],
  input: ['input', bytes],
};

/**
 * encoding/json's error for argument `index`, an object decoded into Go struct `struct` whose fields are `fields` (by
 * lower-case JSON name: the name Go's error gives, and its decoder): the first field it refuses, or undefined. Unknown
 * fields and nulls are skipped, as Go skips them.
 */
export function refusedStruct(
  index: number,
  struct: string,
  fields: Readonly<Record<string, [string, FieldDecoder]>>,
  value: unknown,
): string | undefined {
  if (typeof value !== 'object' || Array.isArray(value))
    return `invalid argument ${index}: json: cannot unmarshal ${jsonKind(value)} into Go value of type ethapi.${struct}`;
  for (const [key, field] of Object.entries(value ?? {})) {
    const decoder = fields[key.toLowerCase()];
    if (!decoder || field === null) continue;
    const refused = decoder[1](field);
    if (!refused) continue;
    // A length error of a fixed-size type is the decoder's own, not a type error.
    if (!refused.type) return `invalid argument ${index}: ${refused.error}`;
    return `invalid argument ${index}: json: cannot unmarshal ${refused.error} into Go struct field ${struct}.${decoder[0]} of type ${refused.type}`;
  }
  return undefined;
}

/** geth's -32602 text for the call's transaction object, or undefined to let it through. */
export function refusedTransactionArgs(method: string, params: unknown): string | undefined {
  if (!TAKING_ARGS.has(method) || !Array.isArray(params)) return undefined;
  const args: unknown = params[0];
  if (args === null || args === undefined) return undefined;
  return refusedStruct(0, 'TransactionArgs', FIELDS, args);
}

/** TransactionArgs' blob sidecar fields, which FIELDS leaves to the engine to refuse. */
const BLOB_FIELDS = ['blobVersionedHashes', 'blobs', 'commitments', 'proofs'];
const CANONICAL = new Map<string, string>([
  ...Object.entries(FIELDS).map(([lower, [name]]): [string, string] => [lower, name]),
  ...BLOB_FIELDS.map((name): [string, string] => [name.toLowerCase(), name]),
]);

/**
 * The params with the transaction object as Go's decoder leaves TransactionArgs: each field under its own name with
 * the last value written under any case of it (a null unsets it), every other key dropped. A caller's 100,000 unknown
 * keys, which Go skips, would otherwise be copied at each step of the call (copies of objects that large take time
 * growing faster than their size). `params` have passed refusedTransactionArgs.
 */
export function knownTransactionArgs(method: string, params: unknown): unknown {
  if (!TAKING_ARGS.has(method) || !Array.isArray(params)) return params;
  const [args, ...rest] = params as unknown[];
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return params;
  const fields = new Map<string, unknown>();
  let changed = false;
  for (const key in args) {
    const name = CANONICAL.get(key.toLowerCase());
    if (name !== key) changed = true;
    if (name === undefined) continue;
    const value = (args as Record<string, unknown>)[key];
    // Deleted first, so the field takes the place of its last writing, as Go's struct holds only that one.
    fields.delete(name);
    if (value === null) changed = true;
    else fields.set(name, value);
  }
  if (!changed && fields.size === Object.keys(args).length) return params;
  return [Object.fromEntries(fields), ...rest];
}

/** coreth's rpc-gas-cap default (plugin/evm/config/default_config.go:41). */
export const RPC_GAS_CAP = 50_000_000n;

/**
 * eth_call's params with the gas coreth runs it with: TransactionArgs.ToMessage gives a call without `gas` the RPC gas
 * cap and caps a larger one to it (internal/ethapi/transaction_args.go:397-407); the engine would give the block's gas
 * limit, and a heavy read (a multicall) that coreth answers would run out of gas.
 */
export function withCallGas(method: string, params: unknown): unknown {
  if (method !== 'eth_call' || !Array.isArray(params)) return params;
  const [args, ...rest] = params;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return params;
  const fields = args as Record<string, unknown>;
  // encoding/json matches names case-insensitively; refusedTransactionArgs has checked the value's form.
  const key = Object.keys(fields).find((name) => name.toLowerCase() === 'gas');
  const gas = key === undefined ? undefined : fields[key];
  if (typeof gas === 'string' && BigInt(gas) <= RPC_GAS_CAP) return params;
  const others = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== key));
  return [{ ...others, gas: `0x${RPC_GAS_CAP.toString(16)}` }, ...rest];
}
