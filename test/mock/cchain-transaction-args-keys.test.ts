/**
 * The keys of eth_call's transaction object as encoding/json decodes them into coreth's TransactionArgs
 * (graft/coreth/internal/ethapi/transaction_args.go): names matched in any case, the last writing of a field wins, a
 * null unsets it, unknown keys are skipped. The mock used to take the first `gas` of several, hand `GAS` to the engine
 * (which ignored it), and copy 200,000 unknown keys at every step (seconds per copy, growing faster than their count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const TO = '0x00000000000000000000000000000000000000aa';
// GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the gas left when the code starts.
const GAS_LEFT = '0x5a60005260206000f3';
/** The gas the call's code starts with, for the transaction object written as `args` (its `to` added in front). */
async function gasLeft(args: string): Promise<bigint> {
  const body = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"${TO}",${args}},"latest",{"${TO}":{"code":"${GAS_LEFT}"}}]}`;
  const answer = JSON.parse((await send(`${node.url}/ext/bc/C/rpc`, { body })).text) as { result: string };
  return BigInt(answer.result);
}

describe("eth_call's transaction object", () => {
  it('takes the last writing of a field in any case, and a null unsets it (the RPC gas cap then)', async () => {
    const with128k = await gasLeft('"gas":"0x20000"');
    expect(with128k).toBe(0x20000n - 21_000n - 2n);
    expect(await gasLeft('"gas":"0x10000","GAS":"0x20000"')).toBe(with128k);
    expect(await gasLeft('"GAS":"0x20000"')).toBe(with128k);
    expect(await gasLeft('"gas":"0x20000","Gas":null')).toBe(50_000_000n - 21_000n - 2n);
  });

  it('skips 200,000 unknown keys, as Go does, and answers as without them', async () => {
    const unknown = Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(await gasLeft(`${unknown},"gas":"0x20000"`)).toBe(0x20000n - 21_000n - 2n);
  }, 60_000);
});
