/**
 * The C-Chain in saved worlds: a world whose EVM moved (viem transfers and a contract, a C-Chain funding, an atomic
 * export built with avalanchejs) dumped with dev.dumpState and loaded into another node, and saved with `--state` and
 * started again: the same blocks (hashes), balances, nonces, storage and indexes come back, and the chain goes on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context, addTxSignatures, evm, secp256k1 } from '@avalabs/avalanchejs';
import { parseEther } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { resolveOptions, startWithOptions } from '../../mock/start-options.ts';
import { IndexerClient } from '../../generated/client/dist/index.js';
import { cClients } from './c-clients.ts';
import { EWOQ } from './sdk-world.ts';

const nodes: RunningMockNode[] = [];
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
});

const clients = cClients;

const FUNDED = '0x00000000000000000000000000000000000f0001';
const TO = '0x000000000000000000000000000000000000dEaD';

/** Moves the node's C-Chain: transfers, a contract, a funding, an atomic export. */
async function moveC(node: RunningMockNode): Promise<void> {
  const { pub, wallet, account } = clients(node.url);
  for (const value of [parseEther('1'), 5n])
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value }) });
  // Stores 42 at slot 0 in its init code.
  const deploy = await wallet.sendTransaction({ data: '0x602a60005500' });
  await pub.waitForTransactionReceipt({ hash: deploy });
  await node.state.dev.fund({ address: FUNDED, amount: '3000000000' });
  await node.state.dev.mine({ chain: 'C', blocks: 2 });
  const ctx = await Context.getContextFromURI(node.url);
  const publicKey = secp256k1.getPublicKey(EWOQ);
  const exportTx = evm.newExportTxFromBaseFee(
    ctx,
    (await new evm.EVMApi(node.url).getBaseFee()) / 1_000_000_000n + 1n,
    1_000_000_000n,
    ctx.pBlockchainID,
    secp256k1.publicKeyToEthAddress(publicKey),
    [secp256k1.publicKeyBytesToAddress(publicKey)],
    BigInt(await pub.getTransactionCount({ address: account.address })),
  );
  await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ] });
  await new evm.EVMApi(node.url).issueSignedTx(exportTx.getSignedTx());
}

/** What a client sees of the C-Chain. */
async function view(url: string) {
  const { pub, account } = clients(url);
  const height = await pub.getBlockNumber();
  const hashes = [];
  for (let n = 0n; n <= height; n++) hashes.push((await pub.getBlock({ blockNumber: n })).hash);
  const receipt = await pub.getTransactionReceipt({
    hash: (await pub.getBlock({ blockNumber: 3n, includeTransactions: true })).transactions[0]!.hash,
  });
  const index = new IndexerClient({ baseUrl: url, chain: 'C', index: 'block' });
  return {
    hashes,
    ewoq: await pub.getBalance({ address: account.address }),
    nonce: await pub.getTransactionCount({ address: account.address }),
    funded: await pub.getBalance({ address: FUNDED }),
    to: await pub.getBalance({ address: TO }),
    stored: await pub.getStorageAt({ address: receipt.contractAddress!, slot: '0x0' }),
    baseFee: await pub.request({ method: 'eth_baseFee' as never }),
    containers: (await index.getContainerRange({ startIndex: 0, numToFetch: 100 })).containers,
  };
}

describe('the C-Chain in a saved world', () => {
  it('comes back from dev.dumpState in another node, and goes on', async () => {
    const first = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
    nodes.push(first);
    await moveC(first);
    const before = await view(first.url);
    expect(before.hashes).toHaveLength(7);
    expect(before.funded).toBe(3n * 10n ** 18n);
    const { state } = first.state.dev.dumpState();

    const second = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 0 } });
    nodes.push(second);
    await (await second.state.cChain.load()).chain.request('eth_blockNumber');
    second.state.dev.loadState({ state });
    expect(await view(second.url)).toEqual(before);
    const { pub, wallet } = clients(second.url);
    const receipt = await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value: 1n }) });
    expect(receipt.blockNumber).toBe(7n);
  });

  it('comes back from a --state file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-cstate-')), 'world.json');
    const start = () =>
      startWithOptions(
        resolveOptions({ port: 0, state: file, network: 'local', accounts: 0, indexEnabled: true }, (key) => key, 0),
      );
    const first = await start();
    await moveC(first);
    const before = await view(first.url);
    await first.close();
    const second = await start();
    nodes.push(second);
    expect(second.loaded).toBe(true);
    expect(await view(second.url)).toEqual(before);
  });
});
