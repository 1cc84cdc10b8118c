/**
 * eth_call and eth_estimateGas sending value from an account that cannot pay it. coreth runs both through the state
 * transition's buyGas (graft/coreth/core/state_transition.go:322, ErrInsufficientFunds "address %v have %v want %v"), which
 * counts the value even at a fee cap of 0; eth_call wraps the error in DoCall's "err: %w (supplied gas %d)" with the
 * 50,000,000 RPC gas cap (graft/coreth/internal/ethapi/api.go:1127, plugin/evm/config/default_config.go:41). ethers
 * names the answer INSUFFICIENT_FUNDS; wallets use it to warn before signing.
 *
 * The mock checks this before the engine (the engine's calls do not count the value against the balance):
 * mock/cchain/coreth-reads.ts `callRefusal`, with ApplyMessage's other checks of the message (a fee cap under the base
 * fee, gas under the intrinsic gas) and ToMessage's refusal of both fee styles. eth_estimateGas answers buyGas' text without "err: " and
 * " (supplied gas …)" (eth/gasestimator: execute's error passes through; with a fee cap set, its "insufficient funds
 * for transfer" before it, gasestimator.go:91).
 */
import { JsonRpcProvider, Wallet, isError } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
let provider: JsonRpcProvider;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { cacheTimeout: -1 });
});
afterAll(async () => {
  provider?.destroy();
  await node?.close();
});

const DEAD = '0x000000000000000000000000000000000000dEaD';

describe('value sent from an account that cannot pay it', () => {
  it('eth_call refuses it with buyGas’ error inside DoCall’s', async () => {
    const poor = Wallet.createRandom().address;
    const answer = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_call', [
      { from: poor, to: DEAD, value: '0x1' },
      'latest',
    ]);
    expect(answer.error).toEqual({
      code: -32000,
      message: `err: insufficient funds for gas * price + value: address ${poor} have 0 want 1 (supplied gas 50000000)`,
    });
  });

  it('eth_estimateGas refuses it, and ethers names it INSUFFICIENT_FUNDS', async () => {
    const poor = Wallet.createRandom().address;
    const answer = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_estimateGas', [
      { from: poor, to: DEAD, value: '0x1' },
    ]);
    expect(answer.error).toEqual({
      code: -32000,
      message: `insufficient funds for gas * price + value: address ${poor} have 0 want 1`,
    });
    const error = await provider.estimateGas({ from: poor, to: DEAD, value: 1n }).catch((e: unknown) => e);
    expect(isError(error, 'INSUFFICIENT_FUNDS')).toBe(true);
  });

  it('eth_call refuses a fee its sender cannot pay, a fee cap under the base fee, and gas under the intrinsic gas', async () => {
    const poor = Wallet.createRandom().address;
    const rpc = (args: object, at: unknown = 'latest') => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_call', [args, at]);
    const latest = (await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', ['latest', false])).result as {
      baseFeePerGas: string;
    };
    const baseFee = BigInt(latest.baseFeePerGas);
    const refusal = (message: string) => ({ code: -32000, message });
    expect((await rpc({ from: poor, to: DEAD, gasPrice: '0x1' })).error).toEqual(
      refusal(
        `err: max fee per gas less than block base fee: address ${poor}, maxFeePerGas: 1, baseFee: ${baseFee} (supplied gas 50000000)`,
      ),
    );
    // A fee at the base fee is paid for all the gas, with no value sent.
    const feeCap = `0x${baseFee.toString(16)}`;
    expect((await rpc({ from: poor, to: DEAD, maxFeePerGas: feeCap, gas: '0x5208' })).error).toEqual(
      refusal(
        `err: insufficient funds for gas * price + value: address ${poor} have 0 want ${21_000n * baseFee} (supplied gas 21000)`,
      ),
    );
    expect((await rpc({ from: poor, to: DEAD, gas: '0x1000' })).error).toEqual(
      refusal('err: intrinsic gas too low: have 4096, want 21000 (supplied gas 4096)'),
    );
    expect((await rpc({ to: DEAD, gasPrice: feeCap, maxPriorityFeePerGas: '0x1' })).error).toEqual(
      refusal('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'),
    );
    // Without a fee nothing is compared to the base fee, and the call runs.
    expect((await rpc({ from: poor, to: DEAD, gas: '0x5208' })).result).toBe('0x');
  });
});
