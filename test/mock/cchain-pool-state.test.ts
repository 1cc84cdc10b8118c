/**
 * The C-Chain's pending transactions (automine off) in saved worlds: dumped with dev.dumpState and loaded into another
 * node, or saved with `--state` and started again, the pool comes back (the same transactions, pending), and mining it
 * includes them as mining the first node's pool does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { resolveOptions, startWithOptions } from '../../mock/start-options.ts';
import { cClients } from './c-clients.ts';

const nodes: RunningMockNode[] = [];
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
});

const TO = '0x000000000000000000000000000000000000dEaD';

/** One mined transfer, then three left pending: two in nonce order and one after a nonce gap. */
async function fillPool(node: RunningMockNode): Promise<Hex[]> {
  const { pub, wallet, account } = cClients(node.url);
  await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value: 7n }) });
  node.state.dev.setAutomine({ enabled: false });
  const nonce = await pub.getTransactionCount({ address: account.address });
  const pending: Hex[] = [];
  for (const [value, at] of [
    [1n, nonce],
    [2n, nonce + 1],
    [3n, nonce + 3],
  ] as const)
    pending.push(await wallet.sendTransaction({ to: TO, value, nonce: at }));
  return pending;
}

/** The pool as a client sees it: each transaction and whether it is in a block. */
async function poolView(url: string, hashes: Hex[]) {
  const { pub } = cClients(url);
  return Promise.all(
    hashes.map(async (hash) => {
      const tx = (await pub.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
        blockNumber: string | null;
        nonce: string;
        value: string;
      } | null;
      return tx && { blockNumber: tx.blockNumber, nonce: tx.nonce, value: tx.value };
    }),
  );
}

/** Mines one block: the transactions it includes. */
async function mineOne(node: RunningMockNode): Promise<string[]> {
  await node.state.dev.mine({ chain: 'C', blocks: 1 });
  return (await cClients(node.url).pub.getBlock()).transactions;
}

describe("the C-Chain's pool in a saved world", () => {
  it('comes back from dev.dumpState in another node', async () => {
    const first = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(first);
    const pending = await fillPool(first);
    const before = await poolView(first.url, pending);
    expect(before.map((tx) => tx?.blockNumber)).toEqual([null, null, null]);
    const { state } = first.state.dev.dumpState();

    const second = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(second);
    second.state.dev.setAutomine({ enabled: false });
    second.state.dev.loadState({ state });
    expect(await poolView(second.url, pending)).toEqual(before);
    const mined = await mineOne(second);
    expect(mined).toEqual(await mineOne(first));
    expect(mined).toEqual(pending.slice(0, 2));
    // The one after the gap stays pending in both.
    expect(await poolView(second.url, pending.slice(2))).toEqual(await poolView(first.url, pending.slice(2)));
  });

  it('comes back from a --state file, and not once it is mined', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-cpool-')), 'world.json');
    const start = () =>
      startWithOptions(resolveOptions({ port: 0, state: file, network: 'local', accounts: 0 }, (key) => key, 0));
    const first = await start();
    const pending = await fillPool(first);
    const before = await poolView(first.url, pending);
    await first.close();

    const second = await start();
    second.state.dev.setAutomine({ enabled: false });
    expect(await poolView(second.url, pending)).toEqual(before);
    expect(await mineOne(second)).toEqual(pending.slice(0, 2));
    await second.close();

    const third = await start();
    nodes.push(third);
    third.state.dev.setAutomine({ enabled: false });
    const after = await poolView(third.url, pending);
    expect(after.map((tx) => tx?.blockNumber)).toEqual(['0x2', '0x2', null]);
  });

  it('saves the pool a revert left', async () => {
    const first = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(first);
    const pending = await fillPool(first);
    const { snapshotID } = first.state.dev.snapshot();
    const { wallet } = cClients(first.url);
    const later = await wallet.sendTransaction({
      to: TO,
      value: 4n,
      nonce: Number(BigInt((await poolView(first.url, pending))[1]!.nonce) + 1n),
    });
    first.state.dev.revert({ snapshotID });
    const { state } = first.state.dev.dumpState();

    const second = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(second);
    second.state.dev.setAutomine({ enabled: false });
    second.state.dev.loadState({ state });
    expect(await poolView(second.url, [...pending, later])).toEqual(await poolView(first.url, [...pending, later]));
    expect((await poolView(second.url, [later]))[0]).toBeNull();
  });
});
