/**
 * coreth's txpool queue on an automining C-Chain (mock/cchain/nonce-queue.ts): a transaction after a nonce gap is
 * answered as pending, left out of the pending nonce and of the pending-transaction filters until the gap fills, held
 * to the pool's replacement and cap rules, and kept by snapshots and reverts (a dumped state holds no pool).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

const nodes: RunningMockNode[] = [];
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
});

async function start(): Promise<RunningMockNode> {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  nodes.push(node);
  return node;
}

const TO = '0x00000000000000000000000000000000000000aa';
const GWEI = 1_000_000_000n;

/** The ewoq account's transfer at `nonce`, signed, with its fee cap and tip. */
function signer(node: RunningMockNode) {
  const { account } = cClients(node.url);
  return (nonce: number, maxFeePerGas = 100n * GWEI, maxPriorityFeePerGas = GWEI) =>
    account.signTransaction({
      chainId: 43112,
      type: 'eip1559',
      to: TO,
      value: 1n,
      nonce,
      gas: 21_000n,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
}

async function rpc(node: RunningMockNode, method: string, params: unknown[]) {
  return callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
}

/** Whether the transaction is known, and in which block (null: pending). */
async function where(node: RunningMockNode, hash: unknown) {
  const { result } = await rpc(node, 'eth_getTransactionByHash', [hash]);
  return result === null ? 'unknown' : ((result as { blockNumber: string | null }).blockNumber ?? 'pending');
}

describe('a queued transaction', () => {
  it('is pending, not in the pending nonce nor announced, until the gap fills', async () => {
    const node = await start();
    const sign = signer(node);
    const { account } = cClients(node.url);
    const filter = (await rpc(node, 'eth_newPendingTransactionFilter', [])).result;
    const later = (await rpc(node, 'eth_sendRawTransaction', [await sign(1)])).result;
    expect(await where(node, later)).toBe('pending');
    expect((await rpc(node, 'eth_getTransactionCount', [account.address, 'pending'])).result).toBe('0x0');
    expect((await rpc(node, 'eth_getFilterChanges', [filter])).result).toEqual([]);
    expect(await rpc(node, 'eth_sendRawTransaction', [await sign(1)])).toMatchObject({
      error: { code: -32000, message: 'already known' },
    });
    const first = (await rpc(node, 'eth_sendRawTransaction', [await sign(0)])).result;
    expect(await where(node, later)).not.toBe('pending');
    expect((await rpc(node, 'eth_getTransactionCount', [account.address, 'pending'])).result).toBe('0x2');
    expect((await rpc(node, 'eth_getFilterChanges', [filter])).result).toEqual([first, later]);
  });

  it('is replaced only by one raising both fee caps by 10%', async () => {
    const node = await start();
    const sign = signer(node);
    const old = (await rpc(node, 'eth_sendRawTransaction', [await sign(1)])).result;
    expect(await rpc(node, 'eth_sendRawTransaction', [await sign(1, 109n * GWEI, 2n * GWEI)])).toMatchObject({
      error: { code: -32000, message: 'replacement transaction underpriced' },
    });
    const replacement = (await rpc(node, 'eth_sendRawTransaction', [await sign(1, 110n * GWEI, (11n * GWEI) / 10n)]))
      .result;
    expect(await where(node, old)).toBe('unknown');
    await rpc(node, 'eth_sendRawTransaction', [await sign(0)]);
    expect(await where(node, replacement)).not.toBe('pending');
    expect(await where(node, replacement)).not.toBe('unknown');
  });

  it("is dropped past the account's 64 queued, highest nonce first", async () => {
    const node = await start();
    const sign = signer(node);
    const hashes: unknown[] = [];
    for (let nonce = 1; nonce <= 65; nonce++)
      hashes.push((await rpc(node, 'eth_sendRawTransaction', [await sign(nonce)])).result);
    expect(await where(node, hashes[63])).toBe('pending');
    expect(await where(node, hashes[64])).toBe('unknown');
  });

  it('comes back with a revert, and is gone with a revert to before it', async () => {
    const node = await start();
    const sign = signer(node);
    const before = await node.dev.snapshot();
    const later = (await rpc(node, 'eth_sendRawTransaction', [await sign(1)])).result;
    const queued = await node.dev.snapshot();
    await rpc(node, 'eth_sendRawTransaction', [await sign(0)]);
    expect(await where(node, later)).not.toBe('pending');
    await node.dev.revert(queued);
    expect(await where(node, later)).toBe('pending');
    await rpc(node, 'eth_sendRawTransaction', [await sign(0)]);
    expect(await where(node, later)).not.toBe('pending');
    await node.dev.revert(before);
    expect(await where(node, later)).toBe('unknown');
  });

  it('is no part of dev.dumpState, as anvil’s pool is not; sent again to the node loading it, it is mined once the gap fills', async () => {
    const first = await start();
    const raw = await signer(first)(1);
    const later = (await rpc(first, 'eth_sendRawTransaction', [raw])).result;
    const { state } = first.state.dev.dumpState();
    const second = await start();
    second.state.dev.loadState({ state });
    expect(await where(second, later)).toBe('unknown');
    await rpc(second, 'eth_sendRawTransaction', [raw]);
    expect(await where(second, later)).toBe('pending');
    await rpc(second, 'eth_sendRawTransaction', [await signer(second)(0)]);
    expect(await where(second, later)).not.toBe('pending');
    expect(await where(second, later)).not.toBe('unknown');
  });
});
