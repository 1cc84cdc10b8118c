/**
 * `/ext/bc/C/rpc`'s params, checked against the C-Chain document (ethereum/execution-apis and coreth's additions,
 * generated/c-chain) before a call reaches the engine, and refused as coreth's geth-derived RPC layer refuses them:
 * code -32602 with rpc/json.go's parsePositionalArguments texts ("non-array args", "too many arguments, want at most
 * N", "invalid argument I: …", "missing value for required argument I"), the decoder's own text after "invalid
 * argument". A value the document refuses but the Go decoder takes (upper-case hex, `"accepted"`, an empty byte
 * string) goes on to the engine, and so does one whose Go decoder is not reproduced here (a transaction object): the
 * engine answers it.
 */
import type { MethodSpec } from '../../generated/c-chain/server/dist/index.js';
import { inRange, servedBy } from '../../generators/model/versions.ts';
import { goQuote } from '../../runtime/server/encode.ts';
import { cChainModel } from '../spec.ts';

/** The Go decoder of one argument: its error text, or undefined when it takes the value. */
type GoDecoder = (value: unknown) => string | undefined;

/** The kind Go's decoder names for a JSON value it cannot put in a Go value. */
export const jsonKind = (value: unknown) =>
  typeof value === 'string'
    ? 'string'
    : typeof value === 'number'
      ? 'number'
      : typeof value === 'boolean'
        ? 'bool'
        : Array.isArray(value)
          ? 'array'
          : 'object';
const typeError = (value: string, type: string) => `json: cannot unmarshal ${value} into Go value of type ${type}`;
const has0x = (text: string) => text.startsWith('0x') || text.startsWith('0X');
const HEX = /^[0-9a-fA-F]*$/;
const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_INT64 = 2n ** 63n - 1n;

/** common/hexutil's checkText: the digits, or the decError's text. */
function checkText(text: string): string | { error: string } {
  if (text.length === 0) return '';
  if (!has0x(text)) return { error: 'hex string without 0x prefix' };
  const raw = text.slice(2);
  return raw.length % 2 === 1 ? { error: 'hex string of odd length' } : raw;
}

/** hexutil.UnmarshalFixedText: decErrors as texts, and its length error. */
function fixedText(typeName: string, size: number, text: string): { decError?: string; error?: string } {
  const raw = checkText(text);
  if (typeof raw !== 'string') return { decError: raw.error };
  if (raw.length / 2 !== size)
    return { error: `hex string has length ${raw.length}, want ${size * 2} for ${typeName}` };
  return HEX.test(raw) ? {} : { decError: 'invalid hex string' };
}

/** common.Address and common.Hash (hexutil.UnmarshalFixedJSON): decErrors wrapped as json.UnmarshalTypeError. */
export const fixedJson =
  (typeName: string, size: number): GoDecoder =>
  (value) => {
    if (typeof value !== 'string') return typeError('non-string', typeName);
    const { decError, error } = fixedText(typeName, size, value);
    return decError === undefined ? error : typeError(decError, typeName);
  };

/** hexutil.Bytes's UnmarshalJSON. */
const goBytes: GoDecoder = (value) => {
  if (typeof value !== 'string') return typeError('non-string', 'hexutil.Bytes');
  const raw = checkText(value);
  if (typeof raw !== 'string') return typeError(raw.error, 'hexutil.Bytes');
  return HEX.test(raw) ? undefined : typeError('invalid hex string', 'hexutil.Bytes');
};

/** hexutil.DecodeUint64: strconv.ParseUint's syntax and range errors come in the order of the digits. */
export function decodeUint64(text: string): string | bigint {
  if (text.length === 0) return 'empty hex string';
  if (!has0x(text)) return 'hex string without 0x prefix';
  const raw = text.slice(2);
  if (raw.length === 0) return 'hex string "0x"';
  if (raw.length > 1 && raw[0] === '0') return 'hex number with leading zero digits';
  let n = 0n;
  for (const digit of raw) {
    if (!HEX.test(digit)) return 'invalid hex string';
    n = n * 16n + BigInt(`0x${digit}`);
    if (n > MAX_UINT64) return 'hex number > 64 bits';
  }
  return n;
}

/** rpc.BlockNumber's tags (rpc/types.go; `safe` and `finalized` are passed on, whichever the release takes). */
const TAGS = new Set(['earliest', 'latest', 'pending', 'accepted', 'safe', 'finalized']);

/** rpc.BlockNumber's UnmarshalJSON: the raw JSON, its quotes removed, is a tag or a hex number. */
export const goBlockNumber: GoDecoder = (value) => {
  const input = typeof value === 'string' ? value : JSON.stringify(value);
  if (TAGS.has(input)) return undefined;
  const n = decodeUint64(input);
  if (typeof n === 'string') return n;
  return n > MAX_INT64 ? 'block number larger than int64' : undefined;
};

/**
 * rpc.BlockNumberOrHash's UnmarshalJSON: an object is its fields (keys matched case-insensitively, as
 * encoding/json does); when that fails, the value is read as a string, so a bad object is "cannot unmarshal object
 * into Go value of type string".
 */
const goBlockNumberOrHash: GoDecoder = (value) => {
  if (value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const fields = new Map(Object.entries(value).map(([key, field]) => [key.toLowerCase(), field]));
    const number = fields.get('blocknumber');
    const hash = fields.get('blockhash');
    const failed =
      (number != null && goBlockNumber(number) !== undefined) ||
      (hash != null && fixedJson('common.Hash', 32)(hash) !== undefined) ||
      goBool(fields.get('requirecanonical') ?? null) !== undefined;
    if (failed) return typeError('object', 'string');
    return number != null && hash != null
      ? 'cannot specify both BlockHash and BlockNumber, choose one or the other'
      : undefined;
  }
  if (typeof value !== 'string') return typeError(jsonKind(value), 'string');
  if (TAGS.has(value)) return undefined;
  if (value.length === 66) {
    const { decError, error } = fixedText('Hash', 32, value);
    return decError ?? error;
  }
  const n = decodeUint64(value);
  if (typeof n === 'string') return n;
  return n > MAX_INT64 ? 'blocknumber too high' : undefined;
};

const goBool: GoDecoder = (value) =>
  value === null || typeof value === 'boolean' ? undefined : typeError(jsonKind(value), 'bool');

/**
 * hexutil.Uint's UnmarshalJSON (checkNumberText, then at most 16 digits): every decError wrapped as
 * json.UnmarshalTypeError; an empty string is zero.
 */
const goUint: GoDecoder = (value) => {
  if (typeof value !== 'string') return typeError('non-string', 'hexutil.Uint');
  if (value.length === 0) return undefined;
  const wrapped = (error: string) => typeError(error, 'hexutil.Uint');
  if (!has0x(value)) return wrapped('hex string without 0x prefix');
  const raw = value.slice(2);
  if (raw.length === 0) return wrapped('hex string "0x"');
  if (raw.length > 1 && raw[0] === '0') return wrapped('hex number with leading zero digits');
  if (raw.length > 16) return wrapped('hex number > 64 bits');
  return HEX.test(raw) ? undefined : wrapped('invalid hex string');
};

/**
 * common/math's HexOrDecimal64 (eth_feeHistory's blockCount) reads the text of a string, or of another JSON value as
 * written, by ParseUint64 (0x and hex digits, else decimal digits; at most 2^64-1; "" is 0), else it is
 * `invalid hex or decimal integer %q`. A number Go refuses comes as its text (./json-rpc.ts); objects and arrays
 * are left to the engine.
 */
const goHexOrDecimal64: GoDecoder = (value) => {
  const text = typeof value === 'boolean' ? String(value) : value;
  if (typeof text !== 'string' || text === '') return undefined;
  const hex = has0x(text);
  const digits = hex ? text.slice(2) : text;
  const valid = digits.length > 0 && (hex ? HEX : DECIMAL).test(digits) && BigInt(hex ? text : digits) <= MAX_UINT64;
  return valid ? undefined : `invalid hex or decimal integer ${goQuote(text)}`;
};
const DECIMAL = /^[0-9]*$/;

/** Arguments whose Go type the document's schema does not tell (its `uint` is several Go types), by method. */
const BY_METHOD: Record<string, Record<number, GoDecoder>> = {
  // internal/ethapi: GetTransactionByBlock{Hash,Number}AndIndex(ctx, ..., index hexutil.Uint)
  // FeeHistory(ctx, blockCount math.HexOrDecimal64, ...)
  eth_feeHistory: { 0: goHexOrDecimal64 },
  eth_getTransactionByBlockHashAndIndex: { 1: goUint },
  eth_getTransactionByBlockNumberAndIndex: { 1: goUint },
  // GetRawTransactionByBlock{Hash,Number}AndIndex(ctx, ..., index hexutil.Uint)
  eth_getRawTransactionByBlockHashAndIndex: { 1: goUint },
  eth_getRawTransactionByBlockNumberAndIndex: { 1: goUint },
  // GetUncleByBlock{Hash,Number}AndIndex(ctx, ..., index hexutil.Uint)
  eth_getUncleByBlockHashAndIndex: { 1: goUint },
  eth_getUncleByBlockNumberAndIndex: { 1: goUint },
  // EstimateGas and CreateAccessList take a *rpc.BlockNumberOrHash where execution-apis documents a number or tag.
  eth_estimateGas: { 1: goBlockNumberOrHash },
  eth_createAccessList: { 1: goBlockNumberOrHash },
};

/** The Go type coreth's internal/ethapi declares for an argument, by the document's schema of it. */
const DECODERS: Record<string, GoDecoder> = {
  '#/components/schemas/address': fixedJson('common.Address', 20),
  '#/components/schemas/hash32': fixedJson('common.Hash', 32),
  '#/components/schemas/bytes': goBytes,
  '#/components/schemas/BlockNumberOrTag': goBlockNumber,
  '#/components/schemas/BlockNumberOrTagOrHash': goBlockNumberOrHash,
  boolean: goBool,
};

/**
 * Methods whose Go signature takes more arguments than the document lists (state and block overrides after the
 * block), so the document's count says nothing of "too many arguments".
 */
const MORE_ARGUMENTS = new Set(['eth_call', 'eth_estimateGas']);

interface Checked {
  spec: MethodSpec;
  decoders: Array<GoDecoder | undefined>;
}

let table: Promise<Map<string, Checked>> | undefined;

/** Loaded on the first C-Chain call, as the engine is (./evm.ts): a node that never serves C never pays for it. */
function checkedMethods(): Promise<Map<string, Checked>> {
  // The params' schemas through the model, which knows where a param is written (inline, or a `$ref`).
  table ??= Promise.all([import('../../generated/c-chain/server/dist/index.js'), cChainModel()]).then(
    ([{ cChainRpcMethods }, { endpoints }]) => {
      const documented = new Map(endpoints[0]!.methods.map((method) => [method.name, method.params]));
      return new Map(
        cChainRpcMethods.map((spec) => {
          const params = documented.get(spec.name) ?? [];
          const decoders = params.map(
            ({ schema }, i) => BY_METHOD[spec.name]?.[i] ?? DECODERS[String(schema.$ref ?? schema.type)],
          );
          return [spec.name, { spec, decoders }];
        }),
      );
    },
  );
  return table;
}

/** Whether the C-Chain document has the method: the engine answers nothing else (its own methods leak its texts). */
export async function documented(method: string): Promise<boolean> {
  return (await checkedMethods()).has(method);
}

const unserved = new Map<string, Promise<Set<string>>>();

/**
 * The C-Chain document's methods that `release` did not serve (their `x-node-versions`, read through the spec's model
 * as every endpoint's are): its node answers them as geth answers a method it does not have.
 */
export function unservedMethods(release: string): Promise<Set<string>> {
  let methods = unserved.get(release);
  if (!methods) {
    methods = cChainModel().then(({ endpoints }) => {
      const unservedThen = endpoints[0]!.methods.filter((method) => !servedBy(method, release));
      return new Set(unservedThen.map((method) => method.name));
    });
    unserved.set(release, methods);
  }
  return methods;
}

const pointerOf = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * geth's answer to params it refuses for `method` (a -32602 message), or undefined to let the call through; the params
 * `release` has (`x-node-versions` on a param: `eth_newPendingTransactionFilter`'s `fullTx` since v1.10.3).
 */
export async function refusedParams(method: string, params: unknown, release?: string): Promise<string | undefined> {
  const checked = (await checkedMethods()).get(method);
  if (!checked) return undefined;
  const { spec } = checked;
  if (params !== undefined && params !== null && !Array.isArray(params)) return 'non-array args';
  const args: unknown[] = (params as unknown[] | null | undefined) ?? [];
  const served = release ? await paramsServed(method, release) : spec.params.length;
  if (args.length > served && !MORE_ARGUMENTS.has(method)) {
    // geth decodes the arguments it has types for before it meets the extra one.
    const early = firstDecodeError(checked, args.slice(0, served));
    return early ?? `too many arguments, want at most ${served}`;
  }
  return firstDecodeError(checked, args.slice(0, served), true);
}

/** How many of `method`'s params (Go arguments, so the leading ones) `release` has. */
async function paramsServed(method: string, release: string): Promise<number> {
  const params = (await cChainModel()).endpoints[0]!.methods.find((m) => m.name === method)?.params ?? [];
  const served = params.findIndex((param) => !inRange(param.versions, release));
  return served === -1 ? params.length : served;
}

/**
 * The document's verdict on the arguments given (a `null` one is Go's nil for an optional argument, so left out),
 * then geth's: the first argument the document refuses and Go's decoder refuses too, else the first required one
 * missing.
 */
function firstDecodeError({ spec, decoders }: Checked, args: unknown[], checkMissing = false): string | undefined {
  // Go's decoder refuses some values the document takes (a block number of more than 16 digits): geth decodes the
  // arguments in order, so each one decoded here before the first whose Go decoder is not reproduced.
  for (let i = 0; i < args.length && decoders[i]; i++) {
    const error = args[i] === null ? undefined : decoders[i]!(args[i]);
    if (error !== undefined) return `invalid argument ${i}: ${error}`;
  }
  const named: Record<string, unknown> = {};
  args.forEach((value, i) => {
    if (value !== null) named[spec.params[i]!] = value;
  });
  if (spec.validateParams(named)) return undefined;
  const violations = spec.validateParams.errors ?? [];
  for (let i = 0; i < args.length; i++) {
    const at = pointerOf(spec.params[i]!);
    if (args[i] === null || !violations.some((v) => v.instancePath === at || v.instancePath.startsWith(`${at}/`)))
      continue;
    const decode = decoders[i];
    if (!decode) return undefined;
    const error = decode(args[i]);
    if (error !== undefined) return `invalid argument ${i}: ${error}`;
  }
  if (!checkMissing) return undefined;
  const missing = violations
    .filter((v) => v.keyword === 'required')
    .map((v) => spec.params.indexOf(String(v.params?.missingProperty)))
    .filter((i) => i >= args.length);
  return missing.length > 0 ? `missing value for required argument ${Math.min(...missing)}` : undefined;
}
