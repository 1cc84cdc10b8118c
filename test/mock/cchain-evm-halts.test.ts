/**
 * Code that halts, reached by eth_call and eth_estimateGas. coreth v1.14.2's DoCall
 * (graft/coreth/internal/ethapi/api.go) runs the message with RPCGasCap 50,000,000 gas when none is given
 * (plugin/evm/config/default_config.go) under RPCEVMTimeout 5 s (eth/ethconfig/config.go), and a halt comes back as
 * -32000 with the vm error's text (core/vm/errors.go; no data: geth's jsonError has data only for a revert). An
 * endless loop is answered, and the rest of the C-Chain is not held up behind it (mock/cchain/call-run.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

/** JUMPDEST, PUSH1 0, JUMP: loops until its gas runs out. */
const ENDLESS = '0x5b600056';
/** Each halt's code and geth's text of it (core/vm/errors.go, interpreter.go). */
const HALTS: Array<[string, string]> = [
  ['0xfe', 'invalid opcode: INVALID'],
  ['0x0c', 'invalid opcode: opcode 0xc not defined'],
  ['0x01', 'stack underflow (0 <=> 2)'],
  ['0x600056', 'invalid jump destination'],
  [`0x${'5f'.repeat(1025)}`, 'stack limit reached 1024 (1023)'],
];

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
let next = 0;
/** A fresh address holding `code`. */
const deploy = async (code: string) => {
  const address = `0x${(0xc0de00 + next++).toString(16).padStart(40, '0')}`;
  expect((await c('hardhat_setCode', [address, code])).error).toBeUndefined();
  return address;
};
/** Resolves with `promise`'s value, or with 'no answer' once `ms` have passed: a deadline, not a timing claim. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms))]);

describe('a halt in eth_call and eth_estimateGas', () => {
  it('is answered by eth_call with geth’s vm error, -32000 and no data', async () => {
    const answers = [];
    for (const [code] of HALTS) answers.push((await c('eth_call', [{ to: await deploy(code) }, 'latest'])).error);
    expect(answers).toEqual(HALTS.map(([, message]) => ({ code: -32000, message })));
  });

  // gasestimator.Estimate: a failure other than out-of-gas returns result.Err itself.
  it('is answered by eth_estimateGas with geth’s vm error', async () => {
    const address = await deploy('0xfe');
    expect((await c('eth_estimateGas', [{ to: address }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'invalid opcode: INVALID',
    });
  });

  // DoCall: ErrOutOfGas's text "out of gas", not the engine's "Transaction ran out of gas" with its data.
  it('runs out of the gas it is given as "out of gas"', async () => {
    const address = await deploy(ENDLESS);
    expect((await c('eth_call', [{ to: address, gas: '0x186a0' }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'out of gas',
    });
  });
});

describe('an endless loop called without a gas limit', () => {
  // Each on a node of its own: a loop still running from the test before would otherwise hold this one up.
  beforeEach(async () => {
    await node.close();
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  });

  // coreth runs it with the 50,000,000 gas cap (a few million loops) and stops it after RPCEVMTimeout at the latest:
  // "out of gas" or "execution aborted (timeout = 5s)"; eth_chainId sent meanwhile must not wait for 50M gas of the
  // engine's run (the chain's queue, mock/cchain/evm.ts; the bound, mock/cchain/call-run.ts).
  it('is answered within 20 s, and the chain answers others meanwhile and after', {
    timeout: 60_000,
  }, async () => {
    const address = await deploy(ENDLESS);
    const looping = within(c('eth_call', [{ to: address }, 'latest']), 20_000);
    const meanwhile = within(c('eth_chainId', []), 20_000);
    const answer = await looping;
    expect(answer).not.toBe('no answer');
    expect((answer as Awaited<ReturnType<typeof c>>).error?.message).toMatch(
      /^(out of gas|execution aborted \(timeout = 5s\))$/,
    );
    expect(await meanwhile).toMatchObject({ result: '0xa868' });
    expect(await within(c('eth_chainId', []), 20_000)).toMatchObject({ result: '0xa868' });
  });

  // gasestimator.Estimate (graft/coreth/eth/gasestimator/gasestimator.go): the first run at the cap fails with
  // ErrOutOfGas, so "gas required exceeds allowance (50000000)" after one run.
  it('is answered by eth_estimateGas within 20 s', { timeout: 60_000 }, async () => {
    const address = await deploy(ENDLESS);
    const answer = await within(c('eth_estimateGas', [{ to: address }, 'latest']), 20_000);
    expect(answer).toMatchObject({ error: { code: -32000, message: 'gas required exceeds allowance (50000000)' } });
    expect(await within(c('eth_chainId', []), 20_000)).toMatchObject({ result: '0xa868' });
  });
});
