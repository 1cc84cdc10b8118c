/**
 * Calls whose course depends on their gas (they read GAS or start frames), which the mock cannot run in steps. coreth
 * v1.14.2's DoCall (graft/coreth/internal/ethapi/api.go) runs an eth_call with the RPC gas cap, 50,000,000
 * (plugin/evm/config/default_config.go), and cancels the EVM after RPCEVMTimeout, 5 s (eth/ethconfig/config.go:
 * "execution aborted (timeout = 5s)"); other requests are served meanwhile. The mock runs such a call's whole gas on a
 * second engine in a child process under that deadline, counted from the call's arrival (mock/cchain/detached-call.ts),
 * while the chain serves other requests, never for the engine's minute of 50M gas.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

/** JUMPDEST, GAS, POP, PUSH1 0, JUMP: `while (true) gasleft();`. */
const GAS_LOOP = '0x5b5a50600056';
/** An endless loop calling the modexp precompile with 0xffff gas each time: `while (true) address(5).call{gas: 65535}("");`. */
const CALL_LOOP = '0x5b600080808080600561fffff150600056';
/**
 * 5,000 turns of GAS, POP and a countdown (30 gas a turn, 150,000 in all: past the mock's first run of such code),
 * then returns 42 and the caller's balance: a call that ends well with enough gas.
 */
const COUNTED = '0x6113885b5a50600190038060035750602a600052333160205260406000f3';

/** COUNTED's loop, then returns TIMESTAMP and NUMBER: the block context the whole run had. */
const COUNTED_BLOCK = '0x6113885b5a50600190038060035750426000524360205260406000f3';

const TIMEOUT = 'execution aborted (timeout = 5s)';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
let next = 0;
const deploy = async (code: string) => {
  const address = `0x${(0xbad00 + next++).toString(16).padStart(40, '0')}`;
  expect((await c('hardhat_setCode', [address, code])).error).toBeUndefined();
  return address;
};
/** Resolves with `promise`'s value, or 'no answer' once `ms` have passed: a deadline, not a timing claim. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms))]);

describe('a gas-shaped endless call without a gas limit', () => {
  // The engine needs a minute or more for 50M gas of the GAS loop: answered by coreth's deadline, and eth_blockNumber
  // (queued behind it on the chain) is answered long before that minute. The calling loop spends its gas in cheap
  // precompile calls: on an idle machine the second engine ends it within the deadline, 'out of gas' as a node answers.
  const ENDS = { 'reading GAS': [TIMEOUT], 'calling out': [TIMEOUT, 'out of gas'] } as Record<string, string[]>;
  it.each([
    ['reading GAS', GAS_LOOP],
    ['calling out', CALL_LOOP],
  ])('%s is answered in time, and the chain serves the next request', { timeout: 60_000 }, async (name, code) => {
    const address = await deploy(code);
    const hostile = within(c('eth_call', [{ to: address }, 'latest']), 25_000);
    const meanwhile = within(c('eth_blockNumber', []), 25_000);
    expect(await hostile).toMatchObject({ error: { code: -32000, message: expect.toBeOneOf(ENDS[name]!) } });
    expect(await meanwhile).toMatchObject({ result: expect.stringMatching(/^0x/) });
  });

  it('in a state override is answered coreth’s timeout', { timeout: 60_000 }, async () => {
    const to = `0x${'ab'.repeat(20)}`;
    const answer = await within(c('eth_call', [{ to }, 'latest', { [to]: { code: GAS_LOOP } }]), 25_000);
    expect(answer).toMatchObject({ error: { code: -32000, message: TIMEOUT } });
  });

  // gasestimator.Estimate has no deadline: the mock takes a first run it cannot end in time as one that needs more
  // than the allowance (mock/cchain/call-run.ts runEstimate).
  it('is answered by eth_estimateGas as needing more than the allowance', { timeout: 60_000 }, async () => {
    const address = await deploy(GAS_LOOP);
    const answer = await within(c('eth_estimateGas', [{ to: address }, 'latest']), 25_000);
    expect(answer).toMatchObject({ error: { code: -32000, message: 'gas required exceeds allowance (50000000)' } });
  });
});

/** The pids of this process's children running the second engine's program (`node -e …`). */
const secondEngines = () =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(' -e '))
    .map((line) => Number(line.trim().split(' ')[0]));
/** Until the hostile call's child runs (or a clear failure after 20 s, well within each test's minute). */
const aSecondEngineRuns = () =>
  vi.waitFor(() => expect(secondEngines(), 'a second engine running').not.toHaveLength(0), {
    timeout: 20_000,
    interval: 20,
  });

/** The folders of this process's runs on a second engine (mock/cchain/detached-call.ts). */
const runFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`avalanche-mock-call-${process.pid}-`));

describe('while a hostile call runs on the second engine', () => {
  it('other requests are answered before it', { timeout: 60_000 }, async () => {
    const hostileAt = await deploy(GAS_LOOP);
    const order: string[] = [];
    const noted = <T>(name: string, promise: Promise<T>) => promise.finally(() => order.push(name));
    const hostile = noted('hostile', within(c('eth_call', [{ to: hostileAt }, 'latest']), 25_000));
    // Asked once the hostile call's child runs, so that they arrive after it.
    await aSecondEngineRuns();
    const height = noted('eth_blockNumber', c('eth_blockNumber', []));
    const normal = noted('eth_call', c('eth_call', [{ to: hostileAt, gas: '0x5208' }, 'latest']));
    expect(await height).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect(await normal).toHaveProperty('error.message', 'out of gas');
    expect(await hostile).toMatchObject({ error: { code: -32000, message: TIMEOUT } });
    expect(order).toEqual(['eth_blockNumber', 'eth_call', 'hostile']);
  });

  it('several at once are all answered coreth’s timeout, and nothing is left running', {
    timeout: 60_000,
  }, async () => {
    const address = await deploy(GAS_LOOP);
    const answers = await Promise.all([0, 1, 2].map(() => within(c('eth_call', [{ to: address }, 'latest']), 25_000)));
    for (const answer of answers) expect(answer).toMatchObject({ error: { code: -32000, message: TIMEOUT } });
    expect(secondEngines()).toEqual([]);
    expect(runFolders()).toEqual([]);
  });
});

/** 40,000 turns of GAS, POP and a countdown, then returns the balance of 0x…c0ffee: a read late in the run. */
const LATE_READ = `0x62009c405b5a50600190038060045750730000000000000000000000000000000000c0ffee3160005260206000f3`;

describe('a state edit while a call runs on the second engine', () => {
  it('is never read by the run: the call fails or times out instead', { timeout: 60_000 }, async () => {
    const address = await deploy(LATE_READ);
    const late = within(c('eth_call', [{ to: address }, 'latest']), 25_000);
    await aSecondEngineRuns();
    expect((await c('hardhat_setBalance', [`0x${'c0ffee'.padStart(40, '0')}`, '0x77'])).error).toBeUndefined();
    const answer = (await late) as { error?: { message: string } };
    expect(answer.error?.message).toMatch(/^(execution aborted \(timeout = 5s\)|the C-Chain state changed .*)$/);
  });
});

describe('an override made in the engine while a second engine runs', () => {
  // eth_estimateGas's state override and eth_call's block overrides are edits of the engine, undone after the run:
  // another request never reads them, though the run itself goes to the second engine.
  it.each([
    [
      'eth_estimateGas with a state override',
      (to: string, edited: string) =>
        c('eth_estimateGas', [{ to }, 'latest', { [to]: { code: GAS_LOOP }, [edited]: { balance: '0x77' } }]),
    ],
    [
      'eth_call with block overrides',
      (to: string, edited: string) =>
        c('eth_call', [{ to }, 'latest', { [edited]: { balance: '0x77' } }, { time: '0x7fffffff' }]),
    ],
  ])('%s is never seen by another request', { timeout: 60_000 }, async (_, run) => {
    const edited = `0x${'e0'.repeat(20)}`;
    const to = await deploy(GAS_LOOP);
    const hostile = within(run(to, edited), 25_000);
    await aSecondEngineRuns();
    const balance = await within(c('eth_getBalance', [edited, 'latest']), 25_000);
    expect(balance).toMatchObject({ result: '0x0' });
    expect(await hostile).toMatchObject({ error: { code: -32000 } });
  });
});

describe('closing the node', () => {
  it('kills a running second engine and removes its folder', { timeout: 60_000 }, async () => {
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    const rpc = (method: string, params: unknown[]) => callRpc(`${other.url}/ext/bc/C/rpc`, method, params);
    const address = `0x${'cd'.repeat(20)}`;
    expect((await rpc('hardhat_setCode', [address, GAS_LOOP])).error).toBeUndefined();
    const before = new Set(secondEngines());
    const hostile = rpc('eth_call', [{ to: address }, 'latest']).catch((error: unknown) => error);
    const running = await vi.waitFor(
      () => {
        const started = secondEngines().filter((pid) => !before.has(pid));
        if (started.length === 0) throw new Error('no second engine started within 20 s');
        return started;
      },
      { timeout: 20_000, interval: 20 },
    );
    await other.close();
    for (const pid of running) expect(() => process.kill(pid, 0)).toThrow();
    expect(runFolders()).toEqual([]);
    await hostile;
  });
});

describe('a gas-shaped call that ends with more gas than the first run’s', () => {
  it('answers what the whole run returns, reading the chain’s state', { timeout: 60_000 }, async () => {
    const address = await deploy(COUNTED);
    const from = `0x${'5e'.repeat(20)}`;
    expect((await c('hardhat_setBalance', [from, '0x1234'])).error).toBeUndefined();
    const answer = await within(c('eth_call', [{ from, to: address }, 'latest']), 25_000);
    expect(answer).toMatchObject({ result: `0x${'2a'.padStart(64, '0')}${'1234'.padStart(64, '0')}` });
    // An earlier block's state: the balance the sender had there.
    expect((await c('hardhat_mine', ['0x1'])).error).toBeUndefined();
    const height = (await c('eth_blockNumber', [])).result as string;
    expect((await c('hardhat_mine', ['0x1'])).error).toBeUndefined();
    expect((await c('hardhat_setBalance', [from, '0x99'])).error).toBeUndefined();
    const then = await within(c('eth_call', [{ from, to: address }, height]), 25_000);
    expect(then).toMatchObject({ result: `0x${'2a'.padStart(64, '0')}${'1234'.padStart(64, '0')}` });
    const now = await within(c('eth_call', [{ from, to: address }, 'latest']), 25_000);
    expect(now).toMatchObject({ result: `0x${'2a'.padStart(64, '0')}${'99'.padStart(64, '0')}` });
  });
});

// DoCall applies the block overrides to the block context (internal/ethapi/api.go, BlockOverrides.Apply) and runs
// under the same deadline: the mock's run on the block it builds is the same bounded run.
describe('eth_estimateGas of a gas-shaped call past the first run’s gas', () => {
  // gasestimator.Estimate (graft/coreth/eth/gasestimator/gasestimator.go): the least gas the call succeeds with, found
  // by runs of up to the allowance, which the mock makes on the second engine too.
  it('is the gas a call then succeeds with', { timeout: 60_000 }, async () => {
    const address = await deploy(COUNTED);
    const estimate = await within(c('eth_estimateGas', [{ to: address }, 'latest']), 25_000);
    expect(estimate).toMatchObject({ result: expect.stringMatching(/^0x/) });
    const gas = BigInt((estimate as { result: string }).result);
    expect(gas).toBeGreaterThan(150_000n);
    const call = await within(c('eth_call', [{ to: address, gas: `0x${gas.toString(16)}` }, 'latest']), 25_000);
    expect(call).toMatchObject({ result: expect.stringMatching(/^0x0{62}2a/) });
  });
});

describe('a gas-shaped call with block overrides', () => {
  it('that never ends is answered coreth’s timeout, the chain left as it was', { timeout: 60_000 }, async () => {
    const address = await deploy(GAS_LOOP);
    const before = (await c('eth_blockNumber', [])).result as string;
    const latest = (await c('eth_getBlockByNumber', ['latest', false])).result as { timestamp: string };
    const time = `0x${(BigInt(latest.timestamp) + 100n).toString(16)}`;
    const hostile = within(c('eth_call', [{ to: address }, 'latest', null, { time }]), 25_000);
    const meanwhile = within(c('eth_blockNumber', []), 25_000);
    expect(await hostile).toMatchObject({ error: { code: -32000, message: TIMEOUT } });
    expect(await meanwhile).toMatchObject({ result: before });
  });

  it('that ends reads the overridden block’s time and number', { timeout: 60_000 }, async () => {
    const address = await deploy(COUNTED_BLOCK);
    const latest = (await c('eth_getBlockByNumber', ['latest', false])).result as { timestamp: string; number: string };
    const time = BigInt(latest.timestamp) + 1000n;
    const number = BigInt(latest.number) + 5n;
    const overrides = { time: `0x${time.toString(16)}`, number: `0x${number.toString(16)}` };
    const answer = await within(c('eth_call', [{ to: address }, 'latest', null, overrides]), 25_000);
    const word = (value: bigint) => value.toString(16).padStart(64, '0');
    expect(answer).toMatchObject({ result: `0x${word(time)}${word(number)}` });
    expect((await c('eth_blockNumber', [])).result).toBe(latest.number);
  });
});
