/**
 * viem's test client in Hardhat mode where Hardhat's EDR refuses (crates/edr_provider/src/error.rs):
 * `hardhat_dropTransaction` of a mined transaction is InvalidDropTransactionHash, -32602 "Transaction <hash> cannot be
 * dropped because it's already mined" (requests/hardhat/transactions.rs handle_drop_transaction; an unknown hash is
 * `false`); `evm_setNextBlockTimestamp` at the last block's own time is TimestampEqualsPrevious, -32000 (data.rs
 * set_next_block_timestamp), which a Granite C-Chain could not build either (customheader.VerifyTime's minimum delay).
 */
import { createTestClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const hardhat = () => {
  const { chain } = cClients(node.url);
  return createTestClient({ mode: 'hardhat', chain, transport: http(`${node.url}/ext/bc/C/rpc`) });
};

interface RpcFailure {
  code?: number;
  details?: string;
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: undefined, details: 'answered' }),
    (error: RpcFailure) => ({ code: error.code, details: error.details }),
  );

describe('Hardhat-mode refusals', () => {
  it('dropTransaction of a mined transaction is refused as already mined', async () => {
    const { pub, wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({
      to: '0x00000000000000000000000000000000000000d1',
      value: parseEther('1'),
    });
    await pub.waitForTransactionReceipt({ hash });
    expect(await failure(hardhat().dropTransaction({ hash }))).toEqual({
      code: -32602,
      details: `Transaction ${hash} cannot be dropped because it's already mined`,
    });
    expect((await pub.getTransactionReceipt({ hash })).status).toBe('success');
  });

  it('dropTransaction of a hash the node never saw answers false', async () => {
    const answer = await hardhat().request({
      method: 'hardhat_dropTransaction',
      params: [`0x${'ab'.repeat(32)}`],
    } as never);
    expect(answer).toBe(false);
  });

  it("setNextBlockTimestamp at the last block's own time is refused", async () => {
    const { pub } = cClients(node.url);
    const last = await pub.getBlock();
    const refusal = await failure(hardhat().setNextBlockTimestamp({ timestamp: last.timestamp }));
    expect(refusal.code).toBe(-32000);
    expect(refusal.details).toMatch(
      new RegExp(`^Timestamp ${last.timestamp} is equal to the previous block's timestamp`),
    );
  });
});
