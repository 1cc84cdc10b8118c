/**
 * Malformed state overrides on eth_call and eth_estimateGas. coreth v1.14.2 decodes the third argument as a
 * StateOverride (graft/coreth/internal/ethapi/api.go: OverrideAccount's Nonce *hexutil.Uint64, Code *hexutil.Bytes,
 * Balance **hexutil.Big; StateOverride.Apply), so a bad field is refused in encoding/json's words behind
 * "invalid argument 2: ", and Apply refuses an account with both 'state' and 'stateDiff' as -32000
 * "account <addr.Hex()> has both 'state' and 'stateDiff'" (mock/cchain/state-override.ts).
 */
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const TARGET = '0x00000000000000000000000000000000000a11ce';
const CALL = { to: TARGET, data: '0x' };
const BOTH = { [TARGET]: { state: {}, stateDiff: {} } };

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
/** The error as coreth writes it: code and message only (geth's jsonError has data only for a revert). */
const errorOf = async (method: string, params: unknown[]) => (await c(method, params)).error;

describe("an override with both 'state' and 'stateDiff'", () => {
  // coreth api.go StateOverride.Apply: fmt.Errorf("account %s has both 'state' and 'stateDiff'", addr.Hex()),
  // returned by DoCall as a plain error: -32000, not the engine's "The properties 'state' and 'stateDiff' cannot be
  // used simultaneously ...".
  it('is refused by eth_call in coreth’s words', async () => {
    expect(await errorOf('eth_call', [CALL, 'latest', BOTH])).toEqual({
      code: -32000,
      message: `account ${getAddress(TARGET)} has both 'state' and 'stateDiff'`,
    });
  });

  // coreth v1.14.2 BlockChainAPI.EstimateGas(ctx, args, blockNrOrHash, overrides *StateOverride): DoEstimateGas
  // applies the override the same way (the engine's eth_estimateGas takes no third param: "trailing characters").
  it('is refused by eth_estimateGas in coreth’s words, not as trailing characters', async () => {
    expect(await errorOf('eth_estimateGas', [CALL, 'latest', BOTH])).toEqual({
      code: -32000,
      message: `account ${getAddress(TARGET)} has both 'state' and 'stateDiff'`,
    });
  });
});

describe("a well-formed 'state' override on eth_estimateGas", () => {
  // coreth v1.14.2 EstimateGas takes the override and Apply replaces the account's storage (state.SetStorage), so a
  // call reading storage is estimated as usual (the engine's edits cannot make `state`: mock/cchain/call-run.ts
  // searches the gas with eth_call, which takes the override).
  it('is estimated, as without the override', async () => {
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    // Code that returns its slot 1 (PUSH1 1, SLOAD, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN).
    const reader = '0x00000000000000000000000000000000000c0de1';
    expect((await c('hardhat_setCode', [reader, '0x60015460005260206000f3'])).error).toBeUndefined();
    const call = { to: reader };
    const plain = await c('eth_estimateGas', [call, 'latest']);
    expect(plain.result).toMatch(/^0x[0-9a-f]+$/);
    const overridden = await c('eth_estimateGas', [call, 'latest', { [reader]: { state: { [word(0)]: word(5) } } }]);
    expect([overridden.error, overridden.result]).toEqual([undefined, plain.result]);
  });
});

describe("a 'state' override on eth_estimateGas", () => {
  // Apply's SetStorage replaces the whole storage: the estimate is the one of the code run on the override's slots.
  it('is estimated on the override’s storage, not the account’s', async () => {
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    // Stores 1 at slot 5 only when slot 0 is set (PUSH1 0, SLOAD, PUSH1 7, JUMPI, STOP, JUMPDEST, SSTORE(5, 1), STOP).
    const writer = '0x00000000000000000000000000000000000c0de2';
    expect((await c('hardhat_setCode', [writer, '0x600054600757005b600160055500'])).error).toBeUndefined();
    const call = { to: writer };
    const estimate = async (override?: object) =>
      BigInt(
        (await c('eth_estimateGas', [call, 'latest', ...(override ? [{ [writer]: override }] : [])])).result as string,
      );
    const skipping = await estimate();
    const storing = await estimate({ state: { [word(0)]: word(1) } });
    expect(storing).toBeGreaterThan(skipping + 20_000n);
    expect((await c('hardhat_setStorageAt', [writer, '0x0', word(1)])).error).toBeUndefined();
    expect(await estimate()).toBe(storing);
    expect(await estimate({ state: {} })).toBe(skipping);
  });
});

describe('an override field encoding/json refuses', () => {
  // hexutil.Big.UnmarshalJSON: wrapTypeError(ErrBig256Range, bigT) -> "json: cannot unmarshal hex number > 256 bits
  // into Go struct field OverrideAccount.balance of type *hexutil.Big"; geth's server prefixes "invalid argument 2: "
  // (rpc/json.go parsePositionalArguments) and sends -32602 without data, not the engine's serde text.
  it('a balance past 256 bits', async () => {
    const error = await errorOf('eth_call', [CALL, 'latest', { [TARGET]: { balance: `0x1${'0'.repeat(64)}` } }]);
    expect(error).toEqual({ code: -32602, message: expect.any(String) });
    expect(error?.message).toMatch(
      /^invalid argument 2: json: cannot unmarshal hex number > 256 bits into Go struct field \S*balance of type \*hexutil\.Big$/,
    );
  });

  // hexutil.Uint64.UnmarshalJSON: ErrUint64Range -> "hex number > 64 bits", type hexutil.Uint64.
  it('a nonce past 64 bits', async () => {
    const error = await errorOf('eth_call', [CALL, 'latest', { [TARGET]: { nonce: `0x1${'0'.repeat(16)}` } }]);
    expect(error?.message).toMatch(
      /^invalid argument 2: json: cannot unmarshal hex number > 64 bits into Go struct field \S*nonce of type hexutil\.Uint64$/,
    );
  });

  // hexutil.Bytes.UnmarshalJSON: ErrOddLength -> "hex string of odd length", type hexutil.Bytes.
  it('code of odd length', async () => {
    const error = await errorOf('eth_call', [CALL, 'latest', { [TARGET]: { code: '0x123' } }]);
    expect(error?.message).toMatch(
      /^invalid argument 2: json: cannot unmarshal hex string of odd length into Go struct field \S*code of type hexutil\.Bytes$/,
    );
  });

  it('the block override’s fields, by contrast, are refused in encoding/json’s words', async () => {
    // Shows the mock can: BlockOverrides (api.go) decoded as coreth decodes it, no engine words.
    expect(await errorOf('eth_call', [CALL, 'latest', {}, { time: `0x1${'0'.repeat(16)}` }])).toEqual({
      code: -32602,
      message:
        'invalid argument 3: json: cannot unmarshal hex number > 64 bits into Go struct field BlockOverrides.Time of type hexutil.Uint64',
    });
  });
});
