/**
 * PREVRANDAO (0x44) on a v1.14.2 C-Chain. coreth's hooks.OverrideNewEVMArgs (graft/coreth/core/evm.go) sets, since
 * Shanghai, `BlockContext.Random` to the header's Difficulty, which the dummy engine's Prepare makes 1
 * (consensus/dummy/consensus.go), so a contract reading `block.prevrandao` gets 1 in every block; `local` has every
 * upgrade at genesis.
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

/** Init code returning PREVRANDAO as one word: PREVRANDAO PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURN_PREVRANDAO = '0x4460005260206000f3';
const ONE = `0x${'00'.repeat(31)}01`;

describe('block.prevrandao on the C-Chain', () => {
  it('eth_call at the last accepted block reads 1', async () => {
    const { pub, wallet } = cClients(node.url);
    // A block the mock built, so the call runs on one of its headers, not the genesis's.
    await pub.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000f3', value: parseEther('1') }),
    });
    const { data } = await pub.call({ data: RETURN_PREVRANDAO });
    expect(data).toBe(ONE);
  });

  it('a mined creation storing PREVRANDAO stores 1', async () => {
    const { pub, wallet } = cClients(node.url);
    // PREVRANDAO PUSH1 0 SSTORE STOP: the creation keeps the word in slot 0 (and deploys no code).
    const hash = await wallet.sendTransaction({ data: '0x4460005500' });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const address = receipt.contractAddress as `0x${string}`;
    expect(await pub.getStorageAt({ address, slot: '0x0' })).toBe(ONE);
  });
});
