/**
 * Saved states hold no mempool, as anvil's hold none (its SerializableState: accounts, blocks, mined transactions)
 * and a node's mempools live in memory only: the X- and P-Chain's pooled and dropped transactions, the EVM's pool and
 * coreth's atomic mempool are gone after a `--state` restart and a dev.loadState, their inputs unspent, so the same
 * transactions (avalanchejs 5.2.0, viem) issued again are taken and mined. A state an older mock saved with its pools
 * loads without them.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  Context,
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  avm,
  evm,
  pvm,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import type { Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import type { RunningMockNode } from '../../mock/node.ts';
import { resolveOptions, startWithOptions } from '../../mock/start-options.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';
import { EWOQ, ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';

const nodes: RunningMockNode[] = [];
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
});

const recipient = new Uint8Array(20).fill(9);
const TO = '0x000000000000000000000000000000000000dEaD';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const asHex = (bytes: Uint8Array) => utils.bufferToHex(utils.addChecksum(bytes));

/** A transfer of `amount` nAVAX from ewoq to `recipient` on X or P, signed; from ewoq's first UTXO alone. */
async function transfer(node: RunningMockNode, chain: UtxoChain, amount: bigint): Promise<string> {
  const world = node.world;
  const manager = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
  const utxos = world
    .utxosOf(chain, hex(ewoq))
    .filter((u) => u.stakeableLocktime === 0n)
    .map((u) => manager.unpack(u.bytes, Utxo));
  const outputs = [TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient])];
  const unsigned: UnsignedTx =
    chain === 'X'
      ? avm.newBaseTx(sdkContext(world), [ewoq], utxos, outputs)
      : pvm.newBaseTx({ feeState: sdkFeeState(world), fromAddressesBytes: [ewoq], utxos, outputs }, sdkContext(world));
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return asHex(unsigned.getSignedTx().toBytes());
}

/** An ImportTx to ewoq's C-Chain account of a UTXO exported to it from X (dev.fund of its C- address). */
async function atomicImport(node: RunningMockNode): Promise<string> {
  const ctx = await Context.getContextFromURI(node.url);
  const publicKey = secp256k1.getPublicKey(EWOQ);
  const short = secp256k1.publicKeyBytesToAddress(publicKey);
  const api = new evm.EVMApi(node.url);
  const { utxos } = await api.getUTXOs({ addresses: [`C-${utils.formatBech32(ctx.hrp, short)}`], sourceChain: 'X' });
  const baseFee = (await api.getBaseFee()) / 1_000_000_000n + 1n;
  const to = secp256k1.publicKeyToEthAddress(publicKey);
  const unsigned = evm.newImportTxFromBaseFee(ctx, to, [short], utxos, ctx.xBlockchainID, baseFee);
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return asHex(unsigned.getSignedTx().toBytes());
}

/** The four pools' transactions, signed before they are issued so that they can be issued again. */
async function signedTxs(node: RunningMockNode) {
  await node.state.dev.fund({ address: `C-${utils.formatBech32('local', ewoq)}`, amount: '5000000000' });
  const { wallet } = cClients(node.url);
  const request = await wallet.prepareTransactionRequest({ to: TO, value: 7n });
  return {
    X: await transfer(node, 'X', 1_000n),
    P: await transfer(node, 'P', 2_000n),
    // Another spend of the same P-Chain UTXOs: refused as a conflict while the first is pooled, so marked dropped.
    conflict: await transfer(node, 'P', 3_000n),
    evm: (await wallet.signTransaction(request)) as Hex,
    atomic: await atomicImport(node),
  };
}
type Signed = Awaited<ReturnType<typeof signedTxs>>;

/** Issues them with mining off; their IDs. */
async function issue(node: RunningMockNode, txs: Signed) {
  const x = new XChainClient({ baseUrl: node.url });
  const p = new PChainClient({ baseUrl: node.url });
  const ids = {
    X: (await x.issueTx({ tx: txs.X })).txID,
    P: (await p.issueTx({ tx: txs.P })).txID,
    evm: await cClients(node.url).pub.sendRawTransaction({ serializedTransaction: txs.evm }),
    atomic: String(
      ((await callRpc(`${node.url}/ext/bc/C/avax`, 'avax.issueTx', { tx: txs.atomic })).result as { txID: string })
        .txID,
    ),
  };
  await expect(p.issueTx({ tx: txs.conflict })).rejects.toThrow(/conflicts/);
  return ids;
}
type Ids = Awaited<ReturnType<typeof issue>>;

/** How each chain answers for the transactions: P's getTxStatus, X's, the EVM's, the atomic API's. */
async function statuses(node: RunningMockNode, ids: Ids, conflictID: string) {
  const p = new PChainClient({ baseUrl: node.url });
  const tx = (await cClients(node.url).pub.request({
    method: 'eth_getTransactionByHash',
    params: [ids.evm],
  })) as { blockNumber: string | null } | null;
  const atomic = await callRpc(`${node.url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID: ids.atomic });
  return {
    P: (await p.getTxStatus({ txID: ids.P })).status,
    conflict: (await p.getTxStatus({ txID: conflictID })).status,
    X: (await new XChainClient({ baseUrl: node.url }).getTxStatus({ txID: ids.X })).status,
    evm: tx && (tx.blockNumber === null ? 'pending' : 'mined'),
    atomic: (atomic.result as { status: string }).status,
  };
}
const PENDING = { P: 'Processing', conflict: 'Dropped', X: 'Unknown', evm: 'pending', atomic: 'Processing' };
const NONE = { P: 'Unknown', conflict: 'Unknown', X: 'Unknown', evm: null, atomic: 'Unknown' };

/** A signed tx's ID, from its hex (with the checksum avalanchejs appends). */
const idOfHex = (text: string) =>
  utils.base58check.encode(
    new Uint8Array(
      createHash('sha256')
        .update(Buffer.from(text.slice(2, -8), 'hex'))
        .digest(),
    ),
  );

describe('saved states hold no mempool, as anvil’s', () => {
  it('a --state restart starts with every pool empty; the same txs issued again are taken and mined', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-pools-')), 'world.json');
    const start = async () => {
      const node = await startWithOptions(
        resolveOptions({ port: 0, state: file, network: 'local', accounts: 0 }, (key) => key, 0),
      );
      nodes.push(node);
      return node;
    };
    const first = await start();
    first.state.dev.setAutomine({ enabled: false });
    const txs = await signedTxs(first);
    const ids = await issue(first, txs);
    const conflictID = idOfHex(txs.conflict);
    expect(await statuses(first, ids, conflictID)).toEqual(PENDING);
    await nodes.pop()!.close();

    const second = await start();
    second.state.dev.setAutomine({ enabled: false });
    expect(await statuses(second, ids, conflictID)).toEqual(NONE);
    expect([second.state.engine.pending('X'), second.state.engine.pending('P'), second.world.cChainPool.size]).toEqual([
      0, 0, 0,
    ]);
    // Their inputs were never spent: issued again, each is taken as on the first node, and mined.
    const again = await issue(second, txs);
    expect(again).toEqual(ids);
    expect(await statuses(second, ids, conflictID)).toEqual(PENDING);
    for (const chain of ['X', 'P', 'C'] as const) await second.state.dev.mine({ chain });
    expect(await statuses(second, ids, conflictID)).toEqual({
      P: 'Committed',
      conflict: 'Dropped',
      X: 'Accepted',
      evm: 'mined',
      atomic: 'Accepted',
    });
  });

  it('dev.dumpState leaves the pools out (the same state as before they were filled); dev.loadState empties them', async () => {
    const start = async () => {
      const node = await startWithOptions(resolveOptions({ port: 0, network: 'local', accounts: 0 }, (key) => key, 0));
      nodes.push(node);
      return node;
    };
    const first = await start();
    first.state.dev.setAutomine({ enabled: false });
    const txs = await signedTxs(first);
    // The C-Chain's engine is made (its genesis indexed) before the first dump, as the issues would make it.
    await cClients(first.url).pub.getBlockNumber();
    const before = first.state.dev.dumpState().state;
    const ids = await issue(first, txs);
    const conflictID = idOfHex(txs.conflict);
    const after = first.state.dev.dumpState().state;
    expect(after).toBe(before);

    const second = await start();
    second.state.dev.setAutomine({ enabled: false });
    await issue(second, await signedTxs(second));
    second.state.dev.loadState({ state: after });
    expect(await statuses(second, ids, conflictID)).toEqual(NONE);
    expect([second.state.engine.pending('X'), second.state.engine.pending('P'), second.world.cChainPool.size]).toEqual([
      0, 0, 0,
    ]);
  });

  it('loads a state an older mock saved with its pools, without them', async () => {
    const node = await startWithOptions(resolveOptions({ port: 0, network: 'local', accounts: 0 }, (key) => key, 0));
    nodes.push(node);
    const dumped = JSON.parse(gunzipSync(Buffer.from(node.state.dev.dumpState().state.slice(2), 'hex')).toString());
    const txs = await signedTxs(node);
    const pooled = (tx: string, chain: UtxoChain, status: string) => [
      idOfHex(tx),
      {
        id: idOfHex(tx),
        chain,
        bytes: { $b: tx.slice(2, -8) },
        status,
        ...(status === 'Dropped' ? { reason: 'x' } : {}),
      },
    ];
    dumped.data.txs.entries.push(pooled(txs.P, 'P', 'Processing'), pooled(txs.conflict, 'P', 'Dropped'));
    dumped.data.cChainPool.entries.push([`0x${'ab'.repeat(32)}`, { raw: txs.evm, order: 0 }]);
    node.state.dev.loadState({ state: `0x${gzipSync(JSON.stringify(dumped)).toString('hex')}` });
    const p = new PChainClient({ baseUrl: node.url });
    expect((await p.getTxStatus({ txID: idOfHex(txs.P) })).status).toBe('Unknown');
    expect((await p.getTxStatus({ txID: idOfHex(txs.conflict) })).status).toBe('Unknown');
    expect([node.state.engine.pending('P'), node.world.cChainPool.size]).toEqual([0, 0]);
  });
});
