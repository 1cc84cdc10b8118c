/**
 * eth_call's and eth_estimateGas's third argument read as coreth v1.14.2 reads it (internal/ethapi/api.go): a
 * StateOverride, map[common.Address]OverrideAccount, each decoded by encoding/json (Nonce *hexutil.Uint64, Code
 * *hexutil.Bytes, Balance **hexutil.Big, State and StateDiff map[common.Hash]common.Hash), refused in its words behind
 * "invalid argument 2: " (-32602); then StateOverride.Apply's refusal of an account with both 'state' and 'stateDiff'
 * (-32000). The engine's own texts differ.
 */
import { ethChecksum } from '../engine/dev.ts';
import { bytes } from './call-data.ts';
import { jsonKind } from './params.ts';
import { type FieldDecoder, big, refusedStruct, uint64 } from './transaction-args.ts';

const OVERRIDDEN = new Set(['eth_call', 'eth_estimateGas']);
const STORAGE = 'map[common.Hash]common.Hash';

/** State and StateDiff: an object (its hashes left to the engine, which takes the same forms). */
const storage: FieldDecoder = (value) =>
  typeof value === 'object' && !Array.isArray(value) ? undefined : { error: jsonKind(value), type: STORAGE };

/** OverrideAccount's fields by their JSON names. */
const FIELDS: Record<string, [string, FieldDecoder]> = {
  nonce: ['nonce', uint64],
  code: ['code', bytes],
  balance: ['balance', big],
  state: ['state', storage],
  statediff: ['stateDiff', storage],
};

/** The override's accounts, when it is an object. */
const accountsOf = (params: unknown[]): Array<[string, unknown]> => {
  const overrides = params[2];
  return typeof overrides === 'object' && overrides !== null && !Array.isArray(overrides)
    ? Object.entries(overrides)
    : [];
};

/** geth's -32602 text for the state override, or undefined to let it through. */
export function refusedStateOverride(method: string, params: unknown): string | undefined {
  if (!OVERRIDDEN.has(method) || !Array.isArray(params) || params[2] === undefined || params[2] === null)
    return undefined;
  const overrides = params[2];
  if (typeof overrides !== 'object' || Array.isArray(overrides))
    return `invalid argument 2: json: cannot unmarshal ${jsonKind(overrides)} into Go value of type ethapi.StateOverride`;
  for (const [, account] of accountsOf(params)) {
    const refused = account === null ? undefined : refusedStruct(2, 'OverrideAccount', FIELDS, account);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/** StateOverride.Apply's refusal (-32000) of an account given both 'state' and 'stateDiff', or undefined. */
export function bothStateAndDiff(params: unknown[]): string | undefined {
  for (const [address, account] of accountsOf(params)) {
    if (typeof account !== 'object' || account === null) continue;
    const set = (name: string) =>
      Object.entries(account).some(([key, value]) => key.toLowerCase() === name && value !== null);
    if (set('state') && set('statediff'))
      return `account ${ethChecksum(address.slice(2).toLowerCase())} has both 'state' and 'stateDiff'`;
  }
  return undefined;
}
