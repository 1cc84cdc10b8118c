/**
 * eth_call and eth_estimateGas sending value from an account that cannot pay it. coreth runs both through the state
 * transition's buyGas (graft/coreth/core/state_transition.go:322, ErrInsufficientFunds "address %v have %v want %v"), which
 * counts the value even at a fee cap of 0; eth_call wraps the error in DoCall's "err: %w (supplied gas %d)" with the
 * 50,000,000 RPC gas cap (graft/coreth/internal/ethapi/api.go:1127, plugin/evm/config/default_config.go:41). ethers
 * names the answer INSUFFICIENT_FUNDS; wallets use it to warn before signing.
 *
 * The mock checks this before the engine (the engine's calls do not count the value against the balance):
 * mock/cchain/coreth-reads.ts `unfundedCall`. eth_estimateGas answers buyGas' text without "err: " and
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
});
