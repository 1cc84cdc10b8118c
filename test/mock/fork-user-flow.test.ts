/**
 * Fork mode driven as a user drives it: a source mock (index off, as most nodes) with X, P and C activity (avalanchejs
 * 5.2.0 transactions through the package's wallet, a contract deployed and called with viem, atomic transfers done and
 * one left in shared memory), then on the fork: balances and UTXOs as the source's, the source's transactions, a new
 * transfer, an import of what the source left in shared memory, eth_getLogs across the fork block, snapshot and revert
 * of all three chains, and anvil_reset back to the fork point.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAvaxClient, PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { Wallet } from '../../mock/package/wallet.ts';
import { callRpc } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

const AVAX = 1_000_000_000n;
const cacheDir = mkdtempSync(join(tmpdir(), 'fork-user-flow-'));
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let contract: `0x${string}`;
let forkBlock: bigint;
const txs: Record<string, string> = {};
/** Each key's balances at the source at the fork point (the source moves on in a test below). */
let atFork: Awaited<ReturnType<typeof balances>>[];

const walletOn = (node: { url: string }, i: number) =>
  new Wallet(node.url, source.keys[i]!.privateKey, source.world.network.hrp);
const c = (method: string, params: unknown[] = []) => callRpc(`${fork.url}/ext/bc/C/rpc`, method, params);
const balances = async (node: { url: string }, i: number) => {
  const wallet = walletOn(node, i);
  return { X: await wallet.balance('X'), P: await wallet.balance('P'), C: await wallet.balance('C') };
};
const sorted = (utxos: unknown) => [...(utxos as string[])].sort();

beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'fork user flow source' });
  const viem = cClients(source.url);
  const deploy = await viem.wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await viem.pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
  const set = await viem.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [7n] });
  await viem.pub.waitForTransactionReceipt({ hash: set });
  txs.X = await source.wallet(0).send('X', source.keys[1]!.x, 3n * AVAX);
  txs.P = await source.wallet(0).send('P', source.keys[1]!.p, 2n * AVAX);
  txs.exportC = await source.wallet(1).exportTo('C', 'P', 5n * AVAX);
  txs.importP = await source.wallet(1).importFrom('C', 'P');
  txs.exportP = await source.wallet(2).exportTo('P', 'X', AVAX);
  atFork = await Promise.all([0, 1, 2].map((i) => balances(source, i)));
  fork = await startMockNode({ accounts: 1, seed: 'fork user flow', fork: { url: source.url, cacheDir } });
  forkBlock = BigInt((await c('eth_blockNumber')).result as string);
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork driven as a user drives it', () => {
  it("holds the source's balances and UTXOs on X, P and C", async () => {
    for (const i of [0, 1, 2]) expect(await balances(fork, i)).toEqual(atFork[i]);
    for (const [Client, address] of [
      [PChainClient, source.keys[1]!.p],
      [XChainClient, source.keys[1]!.x],
    ] as const) {
      const [mine, theirs] = await Promise.all(
        [fork, source].map((n) => new Client({ baseUrl: n.url }).getUTXOs({ addresses: [address], encoding: 'hex' })),
      );
      expect(sorted(mine!.utxos)).toEqual(sorted(theirs!.utxos));
    }
  });

  it("answers the source's transactions as the source does", async () => {
    for (const [Client, txID] of [
      [XChainClient, txs.X],
      [PChainClient, txs.P],
      [PChainClient, txs.importP],
      [PChainClient, txs.exportP],
    ] as const) {
      const [mine, theirs] = await Promise.all(
        [fork, source].map((n) => new Client({ baseUrl: n.url }).getTx({ txID: txID!, encoding: 'json' })),
      );
      expect(mine).toEqual(theirs);
    }
    const [mine, theirs] = await Promise.all(
      [fork, source].map((n) =>
        new CAvaxClient({ baseUrl: n.url }).getAtomicTx({ txID: txs.exportC!, encoding: 'hex' }),
      ),
    );
    expect(mine).toEqual(theirs);
    const status = (n: { url: string }, txID: string) =>
      new CAvaxClient({ baseUrl: n.url }).getAtomicTxStatus({ txID });
    expect(await status(fork, txs.exportC!)).toEqual(await status(source, txs.exportC!));
  });

  it("leaves out the source's atomic transactions above the fork's C-Chain block", async () => {
    const later = await source.wallet(0).exportTo('C', 'X', AVAX);
    expect(await new CAvaxClient({ baseUrl: source.url }).getAtomicTxStatus({ txID: later })).toMatchObject({
      status: 'Accepted',
    });
    expect(await new CAvaxClient({ baseUrl: fork.url }).getAtomicTxStatus({ txID: later })).toEqual({
      status: 'Unknown',
    });
    const refusal = await new CAvaxClient({ baseUrl: fork.url })
      .getAtomicTx({ txID: later, encoding: 'hex' })
      .catch((error: Error) => error.message);
    expect(refusal).toBe(`could not find tx ${later}`);
  });

  it('transfers on the fork, and imports what the source left in shared memory, the source unchanged', async () => {
    const atSource = await balances(source, 2);
    const wallet = walletOn(fork, 2);
    await wallet.send('X', source.keys[0]!.x, AVAX);
    await wallet.importFrom('P', 'X');
    const after = await balances(fork, 2);
    expect(after.X).toBeGreaterThan(atSource.X - AVAX);
    expect(after.X).toBeLessThan(atSource.X);
    expect(await balances(source, 2)).toEqual(atSource);
  });

  it('reads logs across the fork block: the source events up to it, the fork events after', async () => {
    const viem = cClients(fork.url);
    const set = await viem.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [9n] });
    await viem.pub.waitForTransactionReceipt({ hash: set });
    const logs = await viem.pub.getContractEvents({ address: contract, abi: ABI, fromBlock: 0n, toBlock: 'latest' });
    expect(logs.map((log) => log.args.value)).toEqual([7n, 9n]);
    expect(logs[0]!.blockNumber).toBeLessThanOrEqual(forkBlock);
    expect(logs[1]!.blockNumber).toBeGreaterThan(forkBlock);
    expect(await viem.pub.readContract({ address: contract, abi: ABI, functionName: 'get' })).toBe(9n);
  });

  it('reverts a snapshot on all three chains', async () => {
    const before = await balances(fork, 1);
    const snapshot = (await c('evm_snapshot')).result;
    const wallet = walletOn(fork, 1);
    await wallet.send('C', source.keys[0]!.c, AVAX * AVAX);
    await wallet.send('X', source.keys[0]!.x, AVAX);
    await wallet.send('P', source.keys[0]!.p, AVAX);
    expect(await balances(fork, 1)).not.toEqual(before);
    expect((await c('evm_revert', [snapshot])).result).toBe(true);
    expect(await balances(fork, 1)).toEqual(before);
  });

  it('goes back to the fork point with anvil_reset', async () => {
    await walletOn(fork, 0).send('P', source.keys[1]!.p, AVAX);
    expect((await c('anvil_reset', [{ forking: { jsonRpcUrl: source.url } }])).result).toBe(null);
    expect((await c('eth_blockNumber')).result).toBe(`0x${forkBlock.toString(16)}`);
    for (const i of [0, 1, 2]) expect(await balances(fork, i)).toEqual(atFork[i]);
    const viem = cClients(fork.url);
    expect(await viem.pub.readContract({ address: contract, abi: ABI, functionName: 'get' })).toBe(7n);
    const logs = await viem.pub.getContractEvents({ address: contract, abi: ABI, fromBlock: 0n, toBlock: 'latest' });
    expect(logs.map((log) => log.args.value)).toEqual([7n]);
  });
});
