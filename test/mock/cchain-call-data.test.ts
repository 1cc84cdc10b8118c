/**
 * The call data of eth_call, eth_estimateGas and eth_sendTransaction: `data` and `input`, hexutil.Bytes in coreth's
 * TransactionArgs. A bad one is refused in geth's words before the EVM engine (EDR), whose serde texts echo the whole
 * request, sees it; with both set, coreth runs `input`, and only eth_sendTransaction (setDefaults) refuses them unequal.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0 });
});
afterAll(() => node?.close());

const TO = `0x${'1'.repeat(40)}`;
const request = async (method: string, params: unknown[]) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const answer = await send(`${node.url}/ext/bc/C/rpc`, { body });
  return {
    size: answer.body.length,
    json: JSON.parse(answer.text) as { result?: string; error?: { code: number; message: string; data?: unknown } },
  };
};
const call = (args: Record<string, unknown>) => request('eth_call', [args, 'latest']);
const refusal = (field: string, error: string) => ({
  code: -32602,
  message: `invalid argument 0: json: cannot unmarshal ${error} into Go struct field TransactionArgs.${field} of type hexutil.Bytes`,
});
/** Code returning its call data: CALLDATASIZE, 0, 0, CALLDATACOPY; CALLDATASIZE, 0, RETURN. */
const ECHO: Hex = '0x366000600037366000f3';
const ECHOER = `0x${'e'.repeat(40)}`;

describe("eth_call's call data", () => {
  it('runs a well-formed call', async () => {
    expect((await call({ to: TO, data: '0x1234' })).json.result).toBe('0x');
  });

  // hexutil.Bytes' UnmarshalJSON inside encoding/json, then rpc's "invalid argument 0", no `data`.
  it('refuses odd-length data in geth’s words, without echoing the request', async () => {
    const { json } = await call({ to: TO, data: '0x123' });
    expect(json.error).toEqual(refusal('data', 'hex string of odd length'));
  });

  it('refuses non-hex input in geth’s words, in an answer whose size does not grow with the value', async () => {
    const { json, size } = await call({ to: TO, input: `0x${'0'.repeat(100_000)}zz` });
    expect(json.error?.message).toBe(
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go struct field TransactionArgs.input of type hexutil.Bytes',
    );
    expect(size).toBeLessThan(1000);
  });

  it('refuses a non-string or an unprefixed value, and takes an empty string, as hexutil.Bytes does', async () => {
    expect((await call({ to: TO, data: 12 })).json.error).toEqual(refusal('data', 'non-string'));
    expect((await call({ to: TO, INPUT: '12' })).json.error).toEqual(refusal('input', 'hex string without 0x prefix'));
    expect((await request('eth_estimateGas', [{ to: TO, data: '0xz1' }])).json.error).toEqual(
      refusal('data', 'invalid hex string'),
    );
    expect((await call({ to: TO, data: '', input: null })).json.result).toBe('0x');
  });

  // coreth's eth_call and eth_estimateGas run `input` (TransactionArgs.data() prefers it); only setDefaults refuses a
  // mismatch.
  it('runs a call with both data and input, as coreth does: input', async () => {
    const { json } = await call({ to: TO, data: '0x1234', input: '0x5678' });
    expect(json.error).toBeUndefined();
    expect(json.result).toBe('0x');
    await node.dev.setCode({ address: ECHOER, code: ECHO });
    expect((await call({ to: ECHOER, data: '0x1234', Input: '0x56AB' })).json.result).toBe('0x56ab');
    expect((await call({ to: ECHOER, data: '0x1234', input: null })).json.result).toBe('0x1234');
    const estimate = await request('eth_estimateGas', [{ to: ECHOER, data: '0x1234', input: '0x5678' }]);
    expect(estimate.json.result).toMatch(/^0x[0-9a-f]+$/);
  });

  it('refuses eth_sendTransaction with data and input unequal, as setDefaults does, and sends them equal', async () => {
    const from = `0x${'a'.repeat(40)}`;
    await node.dev.fund({ address: from, amount: '5000000000' });
    await node.dev.impersonate({ address: from });
    const tx = { from, to: ECHOER, gas: '0x10000' };
    expect((await request('eth_sendTransaction', [{ ...tx, data: '0x12', input: '0x34' }])).json.error).toEqual({
      code: -32000,
      message: 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    });
    const sent = await request('eth_sendTransaction', [{ ...tx, data: '0xAB', input: '0xab' }]);
    expect(sent.json.result).toMatch(/^0x[0-9a-f]{64}$/);
    const mined = await request('eth_getTransactionByHash', [sent.json.result]);
    expect((mined.json.result as unknown as { input: string }).input).toBe('0xab');
  });
});
