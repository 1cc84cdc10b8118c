/**
 * eth_signTransaction and eth_fillTransaction, which the C-Chain document lists and coreth v1.14.2 serves by default
 * (TransactionAPI, namespace `eth`, `internal-transaction` in EnabledEthAPIs: plugin/evm/config/default_config.go).
 * The mock passes them to the engine, whose refusal (-32004 `Method … is not supported`, with a `data` echoing a
 * request the caller never sent: another id) comes back as the answer. coreth (internal/ethapi/api.go):
 * - SignTransaction (:1908) checks `gas not specified`, `missing gasPrice or maxFeePerGas/maxPriorityFeePerGas`,
 *   `nonce not specified` in that order, then signs with the node's account manager, which holds no key:
 *   `unknown account` (accounts.ErrUnknownAccount), all -32000;
 * - FillTransaction (:1848) needs no key: setDefaults, then `{raw, tx}` of the unsigned transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const OTHER = '0x1111111111111111111111111111111111111111';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

async function call(method: string, params: unknown[]) {
  const answer = await send(`${node.url}/ext/bc/C/rpc`, {
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  return JSON.parse(answer.text) as { id: unknown; result?: Record<string, unknown>; error?: unknown };
}

describe('eth_signTransaction (coreth: the node holds no key)', () => {
  it("refuses in coreth's order and words, -32000, echoing nothing", async () => {
    const answers = [
      await call('eth_signTransaction', [{ from: EWOQ, to: OTHER }]),
      await call('eth_signTransaction', [{ from: EWOQ, to: OTHER, gas: '0x5208' }]),
      await call('eth_signTransaction', [{ from: EWOQ, to: OTHER, gas: '0x5208', gasPrice: '0x5d21dba000' }]),
      await call('eth_signTransaction', [
        { from: EWOQ, to: OTHER, gas: '0x5208', gasPrice: '0x5d21dba000', nonce: '0x0', value: '0x0' },
      ]),
    ];
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'gas not specified' } },
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32000, message: 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas' },
      },
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'nonce not specified' } },
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'unknown account' } },
    ]);
  });
});

describe('eth_fillTransaction (coreth: no key needed)', () => {
  it('answers the unsigned transaction with its defaults filled', async () => {
    const answer = await call('eth_fillTransaction', [{ from: EWOQ, to: OTHER, value: '0x1' }]);
    expect(answer.error).toBeUndefined();
    expect(answer.result?.raw).toMatch(/^0x02[0-9a-f]+$/);
    expect(answer.result?.tx).toMatchObject({ to: OTHER.toLowerCase(), gas: '0x5208', nonce: '0x0', value: '0x1' });
  });
});

describe("eth_fillTransaction's and eth_signTransaction's other answers (setDefaults, checkTxFee)", () => {
  it('fills a legacy transaction when gasPrice is given, and an access-list one with an access list', async () => {
    const legacy = await call('eth_fillTransaction', [{ from: EWOQ, to: OTHER, gasPrice: '0x5d21dba000' }]);
    expect(legacy.result?.raw).toMatch(/^0x(?:e|f)[0-9a-f]+$/);
    expect(legacy.result?.tx).toMatchObject({ type: '0x0', gasPrice: '0x5d21dba000', maxFeePerGas: null, v: '0x0' });
    expect(legacy.result?.tx).not.toHaveProperty('chainId');
    const listed = await call('eth_fillTransaction', [
      { from: EWOQ, to: OTHER, gasPrice: '0x5d21dba000', accessList: [{ address: OTHER, storageKeys: [] }] },
    ]);
    expect(listed.result?.raw).toMatch(/^0x01[0-9a-f]+$/);
    expect(listed.result?.tx).toMatchObject({ type: '0x1', chainId: '0xa868', yParity: '0x0' });
  });

  it("refuses in setDefaults' words", async () => {
    const errors = [
      await call('eth_fillTransaction', [{ from: EWOQ }]),
      await call('eth_fillTransaction', [{ from: EWOQ, to: OTHER, chainId: '0x1' }]),
      await call('eth_fillTransaction', [{ from: EWOQ, to: OTHER, gasPrice: '0x1', maxFeePerGas: '0x1' }]),
      await call('eth_fillTransaction', [{ from: EWOQ, to: OTHER, input: '0x00', data: '0x01' }]),
    ].map((answer) => answer.error);
    expect(errors).toEqual([
      { code: -32000, message: 'contract creation without any data provided' },
      { code: -32000, message: "chainId does not match node's (have=1, want=43112)" },
      { code: -32000, message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified' },
      {
        code: -32000,
        message: 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
      },
    ]);
  });

  it('refuses to sign past RPCTxFeeCap before it looks for the key', async () => {
    const fee = { from: EWOQ, to: OTHER, gas: '0x5208', gasPrice: '0x1d1a94a20000000', nonce: '0x0' };
    expect((await call('eth_signTransaction', [fee])).error).toEqual({
      code: -32000,
      message: 'tx fee (2752.51 ether) exceeds the configured cap (100.00 ether)',
    });
  });
});
