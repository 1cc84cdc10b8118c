/**
 * The X- and P-Chain mempools (automine off) in saved worlds: a node started again from its `--state` file has the
 * transactions it had issued and not yet put in a block pooled again (a spend of the same UTXO refused as a conflict
 * with them), and mining builds them into blocks; once mined, the next start has nothing pooled.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransferableOutput, type UnsignedTx, Utxo, addTxSignatures, avm, pvm, utils } from '@avalabs/avalanchejs';
import { afterEach, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import type { RunningMockNode } from '../../mock/node.ts';
import { resolveOptions, startWithOptions } from '../../mock/start-options.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import { EWOQ, ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';

const nodes: RunningMockNode[] = [];
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
});

const recipient = new Uint8Array(20).fill(9);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const asHex = (bytes: Uint8Array) => utils.bufferToHex(utils.addChecksum(bytes));

/** A transfer of `amount` nAVAX from ewoq to `recipient` on `chain`, built from the node's world and signed. */
async function send(node: RunningMockNode, chain: UtxoChain, amount: bigint): Promise<string> {
  const world = node.world;
  const manager = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
  const utxos = world.utxosOf(chain, hex(ewoq)).map((u) => manager.unpack(u.bytes, Utxo));
  const outputs = [TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient])];
  const unsigned: UnsignedTx =
    chain === 'X'
      ? avm.newBaseTx(sdkContext(world), [ewoq], utxos, outputs)
      : pvm.newBaseTx({ feeState: sdkFeeState(world), fromAddressesBytes: [ewoq], utxos, outputs }, sdkContext(world));
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return asHex(unsigned.getSignedTx().toBytes());
}

const clients = (node: RunningMockNode) => ({
  X: new XChainClient({ baseUrl: node.url }),
  P: new PChainClient({ baseUrl: node.url }),
});
const statuses = async (node: RunningMockNode, ids: { X: string; P: string }) => {
  const { X, P } = clients(node);
  return [(await X.getTxStatus({ txID: ids.X })).status, (await P.getTxStatus({ txID: ids.P })).status];
};
const received = (node: RunningMockNode, chain: UtxoChain) =>
  node.world.utxosOf(chain, hex(recipient)).reduce((sum, u) => sum + u.amount, 0n);

describe('the X- and P-Chain mempools in a saved world', () => {
  it('come back from a --state file, and not once they are mined', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-xppool-')), 'world.json');
    const start = async () => {
      const node = await startWithOptions(
        resolveOptions({ port: 0, state: file, network: 'local', accounts: 0 }, (key) => key, 0),
      );
      nodes.push(node);
      return node;
    };
    const first = await start();
    first.state.dev.setAutomine({ enabled: false });
    const ids = {
      X: (await clients(first).X.issueTx({ tx: await send(first, 'X', 1_000n) })).txID,
      P: (await clients(first).P.issueTx({ tx: await send(first, 'P', 2_000n) })).txID,
    };
    // The X-Chain's getTxStatus knows accepted txs only (Unknown while pooled); the P-Chain's answers Processing.
    expect(await statuses(first, ids)).toEqual(['Unknown', 'Processing']);
    // Another spend of ewoq's UTXOs, built before the saved node closes: the pooled tx holds those inputs.
    const conflicting = await send(first, 'X', 3_000n);
    await nodes.pop()!.close();

    const second = await start();
    expect([second.state.engine.pending('X'), second.state.engine.pending('P')]).toEqual([1, 1]);
    expect(await statuses(second, ids)).toEqual(['Unknown', 'Processing']);
    await expect(clients(second).X.issueTx({ tx: conflicting })).rejects.toThrow(/tx conflicts with other tx/);
    // dev.reset goes back to the world as the file gave it: its pool too.
    second.state.dev.reset();
    expect([second.state.engine.pending('X'), second.state.engine.pending('P')]).toEqual([1, 1]);
    second.state.dev.setAutomine({ enabled: false });
    await second.state.dev.mine({ chain: 'X' });
    await second.state.dev.mine({ chain: 'P' });
    expect(await statuses(second, ids)).toEqual(['Accepted', 'Committed']);
    expect([received(second, 'X'), received(second, 'P')]).toEqual([1_000n, 2_000n]);
    await nodes.pop()!.close();

    const third = await start();
    expect([third.state.engine.pending('X'), third.state.engine.pending('P')]).toEqual([0, 0]);
    expect(await statuses(third, ids)).toEqual(['Accepted', 'Committed']);
  });

  it('come back through dev.loadState and dev.reset, as from a --state file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-xppool-')), 'world.json');
    const node = await startWithOptions(
      resolveOptions({ port: 0, state: file, network: 'local', accounts: 0 }, (key) => key, 0),
    );
    nodes.push(node);
    const dev = node.state.dev;
    const { state } = dev.dumpState();
    dev.setAutomine({ enabled: false });
    const ids = {
      X: (await clients(node).X.issueTx({ tx: await send(node, 'X', 1_000n) })).txID,
      P: (await clients(node).P.issueTx({ tx: await send(node, 'P', 2_000n) })).txID,
    };
    const pooled = dev.dumpState().state;
    const conflicting = await send(node, 'X', 3_000n);

    dev.loadState({ state });
    expect([node.state.engine.pending('X'), node.state.engine.pending('P')]).toEqual([0, 0]);
    dev.loadState({ state: pooled });
    expect([node.state.engine.pending('X'), node.state.engine.pending('P')]).toEqual([1, 1]);
    await expect(clients(node).X.issueTx({ tx: conflicting })).rejects.toThrow(/tx conflicts with other tx/);
    await dev.mine({ chain: 'P' });
    expect(await statuses(node, ids)).toEqual(['Unknown', 'Committed']);
    // dev.reset: back to the world the node started from, which had nothing pooled.
    dev.reset();
    expect([node.state.engine.pending('X'), node.state.engine.pending('P')]).toEqual([0, 0]);
  });

  it('leaves out what a revert undid', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-xppool-')), 'world.json');
    const start = async (accounts: number) => {
      const node = await startWithOptions(
        resolveOptions({ port: 0, state: file, network: 'local', accounts }, (key) => key, 0),
      );
      nodes.push(node);
      return node;
    };
    // With funded keys, whose outputs genesis made with txs of its own blocks.
    const first = await start(2);
    first.state.dev.setAutomine({ enabled: false });
    const kept = (await clients(first).P.issueTx({ tx: await send(first, 'P', 2_000n) })).txID;
    const { snapshotID } = first.state.dev.snapshot();
    const undone = (await clients(first).X.issueTx({ tx: await send(first, 'X', 1_000n) })).txID;
    first.state.dev.revert({ snapshotID });
    expect(first.world.pooledTxs().map((tx) => tx.id)).toEqual([kept]);
    await nodes.pop()!.close();

    const second = await start(2);
    expect(second.world.pooledTxs().map((tx) => tx.id)).toEqual([kept]);
    expect([second.state.engine.pending('X'), second.state.engine.pending('P')]).toEqual([0, 1]);
    expect((await clients(second).X.getTxStatus({ txID: undone })).status).toBe('Unknown');
  });
});
