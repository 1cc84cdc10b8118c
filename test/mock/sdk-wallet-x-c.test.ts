/**
 * @avalanche-sdk/client's wallet moving AVAX between the X-Chain and the C-Chain (X → C, C → X) against a Fuji world
 * with the indexer on, then every index (X tx, X block, P block, C block) read back against getTx/getBlock: what a
 * user's flow leaves in the indexes is what the chains answer.
 */
import { createIndexApiClient } from '@avalanche-sdk/client';
import { avalancheFuji } from '@avalanche-sdk/client/chains';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { fujiWallet, fundedKey } from './sdk-fuji-wallet.ts';

/**
 * The inner block of a proposervm block (u16 version, u32 type, parent, timestamp, P-Chain height, certificate), or of
 * an option block (type 1: u16 version, u32 type, parent, the inner bytes) that wraps a P-Chain commit or abort block.
 */
function inner(hex: string): Buffer {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  if (bytes.readUInt32BE(2) === 1) return bytes.subarray(2 + 4 + 32 + 4, 2 + 4 + 32 + 4 + bytes.readUInt32BE(38));
  let at = 2 + 4 + 32 + 8 + 8;
  at += 4 + bytes.readUInt32BE(at);
  return bytes.subarray(at + 4, at + 4 + bytes.readUInt32BE(at));
}

let node: RunningMockNode;
let privateKey: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'fuji', accounts: 1 } });
  await node.dev.setTime({ timestamp: 1_748_736_000 });
  privateKey = await fundedKey(node);
});
afterAll(() => node?.close());

const NANO = 1_000_000_000n;
const sdk = () => fujiWallet(node.url, privateKey);

async function balances() {
  const { client, account } = sdk();
  const x = await client.xChain.getBalance({ address: account.getXPAddress('X', 'fuji'), assetID: 'AVAX' });
  return { x: BigInt(x.balance), c: await client.getBalance({ address: account.getEVMAddress() }) };
}

describe('@avalanche-sdk/client wallet: X ↔ C', () => {
  it('moves AVAX X → C: an export from X, then an import on C', async () => {
    const { wallet: w, client, account, send } = sdk();
    const before = await balances();
    await send(
      await w.xChain.prepareExportTxn({
        destinationChain: 'C',
        exportedOutputs: [{ addresses: [account.getXPAddress('C', 'fuji')], amount: 4n * NANO }],
      }),
    );
    const txID = await send(await w.cChain.prepareImportTxn({ sourceChain: 'X', toAddress: account.getEVMAddress() }));
    expect(await client.cChain.getAtomicTxStatus({ txID })).toMatchObject({ status: 'Accepted' });
    const after = await balances();
    expect(before.x - after.x).toBeGreaterThan(4n * NANO);
    expect(after.c - before.c).toBeGreaterThan(0n);
    expect(after.c - before.c).toBeLessThan(4n * NANO * NANO);
    expect((after.c - before.c) % NANO).toBe(0n);
  });

  it('moves AVAX C → X: an export from C, then an import on X', async () => {
    const { wallet: w, client, account, send } = sdk();
    const X = account.getXPAddress('X', 'fuji');
    const before = await balances();
    const exportID = await send(
      await w.cChain.prepareExportTxn({
        destinationChain: 'X',
        fromAddress: account.getEVMAddress(),
        exportedOutput: { addresses: [X], amount: NANO },
      }),
    );
    const tx = await client.cChain.getAtomicTx({ txID: exportID });
    expect(tx).toHaveProperty('tx');
    const importID = await send(
      await w.xChain.prepareImportTxn({ sourceChain: 'C', importedOutput: { addresses: [X] } }),
    );
    expect(await client.xChain.getTxStatus({ txID: importID })).toMatchObject({ status: 'Accepted' });
    const after = await balances();
    expect(before.c - after.c).toBeGreaterThan(NANO * NANO);
    expect(after.x - before.x).toBeGreaterThan(0n);
    expect(after.x - before.x).toBeLessThan(NANO);
  });

  it('leaves in every index what the chains answer', async () => {
    const transport = { type: 'http' as const, url: node.url };
    for (const [clientType, chain] of [
      ['indexXChainTx', 'X'],
      ['indexXChainBlock', 'X'],
      ['indexPChainBlock', 'P'],
      ['indexCChainBlock', 'C'],
    ] as const) {
      const index = createIndexApiClient({ chain: avalancheFuji, transport, clientType });
      const last = await index.getLastAccepted({ encoding: 'hex' });
      const n = Number(last.index) + 1;
      const { containers } = await index.getContainerRange({ startIndex: 0, numToFetch: n, encoding: 'hex' } as never);
      expect(containers.map((c: { index: string }) => c.index)).toEqual(Array.from({ length: n }, (_, i) => String(i)));
      for (const c of containers as { id: string; bytes: string; index: string }[]) {
        expect(await index.getIndex({ id: c.id, encoding: 'hex' })).toEqual({ index: c.index });
        expect(await index.isAccepted({ id: c.id, encoding: 'hex' })).toEqual({ isAccepted: true });
        if (clientType === 'indexXChainTx') {
          const got = await callRpc(`${node.url}/ext/bc/X`, 'avm.getTx', { txID: c.id, encoding: 'hex' });
          expect(got.result?.tx).toBe(c.bytes);
        } else if (chain === 'C') {
          // A C-Chain container wraps coreth's block RLP, whose header hashes to the block's hash.
          const [header] = RLP.decode(inner(c.bytes)) as [Uint8Array[]];
          const block = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', [
            `0x${(Number(c.index) + 1).toString(16)}`,
            false,
          ]);
          expect(`0x${Buffer.from(keccak_256(RLP.encode(header))).toString('hex')}`).toBe(block.result?.hash);
        } else {
          const method = chain === 'P' ? 'platform.getBlockByHeight' : 'avm.getBlockByHeight';
          const height = Number(c.index) + 1;
          const got = await callRpc(`${node.url}/ext/bc/${chain}`, method, { height, encoding: 'hexnc' });
          expect(`0x${Buffer.from(inner(c.bytes)).toString('hex')}`).toBe(got.result?.block);
        }
      }
    }
  });
});
