/**
 * Block overrides the chain's engine cannot build a block for: an earlier time, an older block. coreth v1.14.2 refuses
 * none (graft/coreth/internal/ethapi/api.go BlockOverrides.Apply sets every field given on the block context of the
 * block the call names; DoCall runs there under RPCEVMTimeout), and the mock runs them on a second engine forked at
 * that block, whose header it reads with the overridden fields (mock/cchain/block-overrides.ts callOnHeader).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TARGET = `0x${'cc'.repeat(20)}`;
const HOLDER = `0x${'5e'.repeat(20)}`;
/** Returns TIMESTAMP, NUMBER, COINBASE, GASLIMIT, PREVRANDAO and HOLDER's balance, six words. */
const CONTEXT = `0x4260005243602052416040524560605244608052${'73'}${'5e'.repeat(20)}3160a05260c06000f3`;
const hex = (value: bigint) => `0x${value.toString(16)}`;
/** Resolves with `promise`'s value, or 'no answer' once `ms` have passed: a deadline, not a timing claim. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms))]);

async function context(at: string, overrides: object) {
  const answer = await within(c('eth_call', [{ to: TARGET }, at, { [TARGET]: { code: CONTEXT } }, overrides]), 25_000);
  const { result } = answer as { result?: string };
  expect(answer).toMatchObject({ result: expect.stringMatching(/^0x/) });
  const [time, number, coinbase, gasLimit, prevRandao, balance] = result!
    .slice(2)
    .match(/.{64}/g)!
    .map((w) => BigInt(`0x${w}`));
  return { time, number, coinbase, gasLimit, prevRandao, balance };
}

describe('block overrides the chain’s engine cannot build', () => {
  it('run at an older block, on its state, with the fields given and that block’s own', {
    timeout: 90_000,
  }, async () => {
    expect((await c('hardhat_setBalance', [HOLDER, '0x1234'])).error).toBeUndefined();
    expect((await c('hardhat_mine', ['0x2'])).error).toBeUndefined();
    const older = (await c('eth_getBlockByNumber', ['latest', false])).result as { number: string; gasLimit: string };
    expect((await c('hardhat_mine', ['0x2'])).error).toBeUndefined();
    expect((await c('hardhat_setBalance', [HOLDER, '0x99'])).error).toBeUndefined();
    const coinbase = `0x${'77'.repeat(20)}`;
    const read = await context(older.number, { time: '0x3', coinbase, difficulty: '0x2a' });
    expect(read).toEqual({
      time: 3n,
      number: BigInt(older.number),
      coinbase: BigInt(coinbase),
      gasLimit: BigInt(older.gasLimit),
      prevRandao: 42n,
      balance: 0x1234n,
    });
    // A number overridden at an older block stays beyond the engine.
    expect(await c('eth_call', [{ to: TARGET }, older.number, null, { number: '0x999' }])).toMatchObject({
      error: {
        message:
          'the mock cannot build the block these overrides ask for: a block other than the last accepted one or pending',
      },
    });
  });

  it('run at the last block with a time before its own', { timeout: 90_000 }, async () => {
    const latest = (await c('eth_getBlockByNumber', ['latest', false])).result as { number: string; timestamp: string };
    const earlier = BigInt(latest.timestamp) - 100n;
    const read = await context('latest', { time: hex(earlier), gasLimit: '0x5208' });
    expect({ time: read.time, number: read.number, gasLimit: read.gasLimit }).toEqual({
      time: earlier,
      number: BigInt(latest.number),
      gasLimit: 0x5208n,
    });
    expect((await c('eth_getBlockByNumber', ['latest', false])).result).toMatchObject({ number: latest.number });
  });

  it('answer a call that never ends with coreth’s timeout', { timeout: 90_000 }, async () => {
    const answer = await within(
      c('eth_call', [{ to: TARGET }, '0x1', { [TARGET]: { code: '0x5b5a50600056' } }, { time: '0x1' }]),
      25_000,
    );
    expect(answer).toMatchObject({ error: { code: -32000, message: 'execution aborted (timeout = 5s)' } });
  });
});
