/**
 * Methods a v1.14.2 C-Chain serves at /ext/bc/C/rpc with its default config, which the mock refuses. coreth's default
 * `eth-apis` (graft/coreth/plugin/evm/config/default_config.go) enable "eth", "internal-eth", "internal-blockchain"
 * and "internal-transaction"; internal/ethapi/backend.go GetAPIs registers TransactionAPI (internal/ethapi/api.go:
 * GetRawTransactionByHash, GetRawTransactionByBlockNumberAndIndex, FillTransaction, SignTransaction,
 * PendingTransactions, Resend) and BlockChainAPI (api_extra.go: CallDetailed, GetBadBlocks) under "eth", and
 * eth/backend.go the "eth" EthereumAPI (eth/api.go: Etherbase, Coinbase).
 */
import { parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../../mock/node.ts';
import { cClients } from '../../mock/c-clients.ts';
import { callRpc } from '../../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const rpc = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TO = '0x00000000000000000000000000000000000000f4';

describe("coreth's default eth_* methods", () => {
  it('eth_fillTransaction fills nonce, gas and fees and answers the unsigned transaction', async () => {
    const { pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const answer = await rpc('eth_fillTransaction', [{ from: account.address, to: TO, value: '0x1' }]);
    expect(answer.error).toBeUndefined();
    const { raw, tx } = answer.result as { raw: `0x${string}`; tx: { nonce: string; to: string; gas: string } };
    const parsed = parseTransaction(raw);
    expect({ nonce: parsed.nonce, to: parsed.to, value: parsed.value, chainId: parsed.chainId }).toEqual({
      nonce,
      to: TO,
      value: 1n,
      chainId: 43112,
    });
    expect(BigInt(tx.nonce)).toBe(BigInt(nonce));
    expect(BigInt(tx.gas)).toBe(21_000n);
  });

  it('eth_signTransaction of an account the node holds no key for is "unknown account"', async () => {
    const { account } = cClients(node.url);
    const args = { from: account.address, to: TO, value: '0x1', gas: '0x5208', gasPrice: '0x5d21dba00', nonce: '0x0' };
    expect((await rpc('eth_signTransaction', [args])).error).toMatchObject({
      code: -32000,
      message: 'unknown account',
    });
  });

  it('eth_signTransaction without gas is "gas not specified"', async () => {
    const { account } = cClients(node.url);
    expect((await rpc('eth_signTransaction', [{ from: account.address, to: TO }])).error).toMatchObject({
      code: -32000,
      message: 'gas not specified',
    });
  });
});
