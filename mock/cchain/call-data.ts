/**
 * TransactionArgs' call data, `data` and `input` (internal/ethapi/transaction_args.go, both *hexutil.Bytes): their
 * decoder for ./transaction-args.ts, which refuses a bad one in Go's words before the engine (whose serde texts echo
 * the whole request) sees it, and the one value coreth runs: `input` before `data` (TransactionArgs.data()), the two
 * unequal refused only where setDefaults runs (eth_sendTransaction; eth_createAccessList's is ./access-list-args.ts).
 */
import type { FieldDecoder } from './transaction-args.ts';

const BYTES = 'hexutil.Bytes';

/** setDefaults' refusal of `data` and `input` set to different bytes (eth_sendTransaction, eth_createAccessList). */
export const UNEQUAL_CALL_DATA =
  'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data';

/** hexutil.Bytes' UnmarshalJSON: a string, empty or "0x" and an even number of hex digits (checkText, hex.Decode). */
export const bytes: FieldDecoder = (value) => {
  if (typeof value !== 'string') return { error: 'non-string', type: BYTES };
  if (value === '') return undefined;
  if (value[0] !== '0' || (value[1] !== 'x' && value[1] !== 'X'))
    return { error: 'hex string without 0x prefix', type: BYTES };
  if (value.length % 2 !== 0) return { error: 'hex string of odd length', type: BYTES };
  return /^[0-9a-fA-F]*$/.test(value.slice(2)) ? undefined : { error: 'invalid hex string', type: BYTES };
};

/** The methods whose TransactionArgs the engine runs (eth_createAccessList's are coreth's own). */
const RUNNING = new Set(['eth_call', 'eth_estimateGas', 'eth_sendTransaction']);

/** Call data as the engine reads it: lower-case hex with its prefix ("" is no bytes). */
const hex = (value: string) => `0x${value.slice(2).toLowerCase()}`;

/**
 * The params with the call data coreth runs as the one `input` (the engine refuses both names at once), or
 * setDefaults' refusal of `data` and `input` set to different bytes. `params` have passed refusedTransactionArgs.
 */
export function withCallData(method: string, params: unknown): { params: unknown } | { refused: string } {
  if (!RUNNING.has(method) || !Array.isArray(params)) return { params };
  const [args, ...rest] = params as unknown[];
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { params };
  const isCallData = (key: string) => key.toLowerCase() === 'data' || key.toLowerCase() === 'input';
  const entries = Object.entries(args);
  if (!entries.some(([key]) => isCallData(key))) return { params };
  // Go sets a field per key written, case-insensitively, null leaving it unset; the last one counts.
  let data: string | undefined;
  let input: string | undefined;
  for (const [key, value] of entries) {
    if (!isCallData(key)) continue;
    const bytes = value === null ? undefined : hex(value as string);
    if (key.toLowerCase() === 'data') data = bytes;
    else input = bytes;
  }
  const others = Object.fromEntries(entries.filter(([key]) => !isCallData(key)));
  if (method === 'eth_sendTransaction' && data !== undefined && input !== undefined && data !== input)
    return { refused: UNEQUAL_CALL_DATA };
  const called = input ?? data;
  return { params: [called === undefined ? others : { ...others, input: called }, ...rest] };
}
