/**
 * eth_call with code that loops until its gas is gone, as AvalancheGo v1.14.2's coreth answers it.
 *
 * coreth's DoCall runs under RPCEVMTimeout, which the VM sets from its `api-max-duration` option
 * (graft/coreth/plugin/evm/vm.go:347 `vm.ethConfig.RPCEVMTimeout = vm.config.APIMaxDuration.Duration`), whose default
 * is 0, "no maximum API call duration" (plugin/evm/config/default_config.go:45). doCall (internal/ethapi/api.go) then
 * takes `context.WithCancel`, never a deadline: a loop is run to its gas (at most RPCGasCap, 50,000,000) and answered
 * -32000 `out of gas`; `execution aborted (timeout = …)` is never the answer of a node with its defaults. Geth's
 * interpreter runs such a loop of 50M gas in well under a second, and every RPC call is served on its own goroutine,
 * so one caller's loop does not hold another caller's eth_blockNumber.
 *
 * The mock is run as a child process (the CLI) so that an engine run that does not end is ended with the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, startCli } from '../../support/cli.ts';
import { send } from '../../support/rpc.ts';

const TARGET = '0x1111111111111111111111111111111111111111';
/** JUMPDEST PUSH1 0 JUMP: a loop that reads nothing but runs until its gas is gone. */
const PLAIN_LOOP = '0x5b600056';
/** JUMPDEST GAS POP PUSH1 0 JUMP: the same loop reading GAS each turn. */
const GAS_LOOP = '0x5b5a50600056';

let cli: RunningCli;
let url: string;
beforeAll(async () => {
  cli = startCli('mock/cli.ts', ['--port', '0', '--accounts', '0', '--quiet']);
  const [, address] = await cli.stdout.until(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 120_000);
  url = `${address}/ext/bc/C/rpc`;
  // The engine starts on the first C-Chain call; start it before the calls under test.
  await post({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] });
}, 180_000);
afterAll(async () => {
  await cli?.stop('SIGKILL');
});

async function post(body: unknown, target = () => url) {
  const answer = await send(target(), { body: JSON.stringify(body) });
  return JSON.parse(answer.text) as { result?: unknown; error?: { code: number; message: string } };
}

const loopCall = (code: string, gas?: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'eth_call',
  params: [{ to: TARGET, ...(gas ? { gas } : {}) }, 'latest', { [TARGET]: { code } }],
});

/** Resolves with `promise`'s value, or rejects after `ms` (a bound against a hang, not a claim about speed). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe('eth_call of a loop that runs out of gas (coreth v1.14.2: no RPC EVM timeout by default)', () => {
  it('answers a plain loop at the default gas -32000 "out of gas", not an RPCEVMTimeout the node does not set', async () => {
    const answer = await within(post(loopCall(PLAIN_LOOP)), 120_000, 'eth_call of a plain loop');
    expect(answer.error).toEqual({ code: -32000, message: 'out of gas' });
  }, 180_000);

  it('answers a call that ends within the gas cap: 2,000,000 JUMPDESTs (2M gas) of override code return 0x', async () => {
    const code = `0x${'5b'.repeat(2_000_000)}`;
    const answer = await within(post(loopCall(code)), 120_000, 'eth_call of 2M JUMPDESTs');
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: '0x' });
  }, 180_000);

  it('answers another caller while a GAS-reading loop of the default 50,000,000 gas runs', async () => {
    const hostile = post(loopCall(GAS_LOOP)).then(
      (answer) => answer,
      (error: unknown) => ({ failed: String(error) }),
    );
    try {
      // Geth serves each call on its own goroutine: this answer does not wait for the loop's end.
      const other = await within(
        post({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }),
        30_000,
        'eth_blockNumber while a GAS-reading loop runs',
      );
      expect(other.result).toMatch(/^0x[0-9a-f]+$/);
      // coreth ends the loop at its gas: `out of gas`, in a time a caller waits for.
      expect(await within(hostile, 120_000, 'eth_call of a GAS-reading loop')).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32000, message: 'out of gas' },
      });
    } finally {
      // A run the engine cannot stop ends with the process: later tests in this file would wait behind it.
      await cli.stop('SIGKILL');
    }
  }, 240_000);
});
