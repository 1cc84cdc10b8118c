/**
 * What eth_estimateGas's run reads of its fees on /ext/bc/C/rpc. coreth v1.14.2's DoEstimateGas
 * (graft/coreth/internal/ethapi/api.go) builds its message with args.ToMessage(gasCap, header.BaseFee): GASPRICE reads
 * a gasPrice as given, or maxFeePerGas's min(tip + base fee, fee cap) at the block's base fee
 * (internal/ethapi/transaction_args.go). A run paying nothing reads BASEFEE as 0: gasestimator runs under
 * vm.Config{NoBaseFee: true} (eth/gasestimator/gasestimator.go), and libevm's NewEVM zeroes the block context's
 * BaseFee when the message's GasPrice is 0 (core/vm/evm.go).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TARGET = '0x00000000000000000000000000000000000000aa';
const word = (value: bigint) => value.toString(16).padStart(64, '0');
/** Stops when `opcode` (GASPRICE 3a, BASEFEE 48) pushes `expected`, else halts on INVALID. */
const expects = (opcode: string, expected: bigint) => `0x${opcode}7f${word(expected)}14602757fe5b00`;
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** eth_estimateGas of a call to code that ends well only when `opcode` reads `expected`. */
async function estimate(args: object, opcode: string, expected: bigint) {
  const { account } = cClients(node.url);
  const state = { [TARGET]: { code: expects(opcode, expected) } };
  return c('eth_estimateGas', [{ from: account.address, to: TARGET, ...args }, 'latest', state]);
}

describe('eth_estimateGas’s run', () => {
  it('reads GASPRICE as ToMessage’s price at the block’s base fee', async () => {
    const { pub } = cClients(node.url);
    const baseFee = (await pub.getBlock()).baseFeePerGas!;
    const tipped = { maxFeePerGas: hex(baseFee + 100n), maxPriorityFeePerGas: '0x2' };
    expect(await estimate(tipped, '3a', baseFee + 2n)).toMatchObject({ result: expect.stringMatching(/^0x/) });
    // The engine's own price (the tip alone, at its base fee of 0) is not what the run reads.
    expect(await estimate(tipped, '3a', 2n)).toMatchObject({ error: { message: 'invalid opcode: INVALID' } });
    const capped = { maxFeePerGas: hex(baseFee + 1n), maxPriorityFeePerGas: '0x5' };
    expect(await estimate(capped, '3a', baseFee + 1n)).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect(await estimate({ gasPrice: hex(baseFee + 7n) }, '3a', baseFee + 7n)).toMatchObject({
      result: expect.stringMatching(/^0x/),
    });
  });

  it('pays nothing without fee fields: GASPRICE and BASEFEE read 0', async () => {
    expect(await estimate({}, '3a', 0n)).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect(await estimate({}, '48', 0n)).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect(await estimate({ gasPrice: '0x0' }, '48', 0n)).toMatchObject({ result: expect.stringMatching(/^0x/) });
  });
});
