/**
 * A fork's C-Chain reads a contract the source deployed before the fork as anvil's fork does: its code, storage and
 * calls at the fork block and below (the source's state at that block), its transactions and logs up to the fork
 * block; the source's later changes and transactions stay out, and the fork's own writes, snapshots and resets work
 * on top.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { callRpc } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let contract: `0x${string}`;
let deployTx: `0x${string}`;
let deployBlock: bigint;
let setTx: `0x${string}`;
let laterTx: `0x${string}`;
let forkBlock: bigint;

const GET = '0x6d4ce63c';
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const hex = (n: bigint) => `0x${n.toString(16)}`;

const rpc = async (url: string, method: string, params: unknown[]) => {
  const answer = await callRpc(`${url}/ext/bc/C/rpc`, method, params);
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
};

beforeAll(async () => {
  source = await startMockNode({ accounts: 1, seed: 'c state source' });
  const s = cClients(source.url);
  deployTx = await s.wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  const deployed = await s.pub.waitForTransactionReceipt({ hash: deployTx });
  contract = deployed.contractAddress!;
  deployBlock = deployed.blockNumber;
  setTx = await s.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [42n] });
  await s.pub.waitForTransactionReceipt({ hash: setTx });
  fork = await startMockNode({ accounts: 1, seed: 'c state fork', fork: { url: source.url, cacheDir: false } });
  forkBlock = BigInt((await rpc(fork.url, 'eth_blockNumber', [])) as string);
  laterTx = await s.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [43n] });
  await s.pub.waitForTransactionReceipt({ hash: laterTx });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
});

describe("a fork's C-Chain and a contract deployed before the fork", () => {
  it('reads its code, storage and calls at the fork block and below as the source had them', async () => {
    expect(forkBlock).toBe(deployBlock + 1n);
    expect(await rpc(fork.url, 'eth_getCode', [contract, 'latest'])).toBe(
      await rpc(source.url, 'eth_getCode', [contract, 'latest']),
    );
    expect(await rpc(fork.url, 'eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(word(42n));
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, 'latest'])).toBe(word(42n));
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, hex(forkBlock)])).toBe(word(42n));
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, hex(deployBlock)])).toBe(word(0n));
    expect(await rpc(source.url, 'eth_call', [{ to: contract, data: GET }, 'latest'])).toBe(word(43n));
  });

  it('finds the transactions and logs up to the fork block, not the later ones', async () => {
    for (const hash of [deployTx, setTx]) {
      expect(await rpc(fork.url, 'eth_getTransactionByHash', [hash])).toEqual(
        await rpc(source.url, 'eth_getTransactionByHash', [hash]),
      );
      expect(await rpc(fork.url, 'eth_getTransactionReceipt', [hash])).toEqual(
        await rpc(source.url, 'eth_getTransactionReceipt', [hash]),
      );
    }
    expect(await rpc(fork.url, 'eth_getTransactionByHash', [laterTx])).toBeNull();
    const filter = { fromBlock: '0x0', toBlock: hex(forkBlock), address: contract };
    const logs = (await rpc(fork.url, 'eth_getLogs', [filter])) as Array<{ transactionHash: string }>;
    expect(logs).toEqual(await rpc(source.url, 'eth_getLogs', [filter]));
    expect(logs.map((l) => l.transactionHash)).toEqual([setTx]);
    expect(await rpc(fork.url, 'eth_getLogs', [{ ...filter, toBlock: 'latest' }])).toEqual(logs);
  });

  it("answers the blocks up to the fork block, the genesis included, as the source does, coreth's fields too", async () => {
    for (const n of [0n, deployBlock, forkBlock]) {
      for (const full of [false, true]) {
        const params = [hex(n), full];
        const atSource = (await rpc(source.url, 'eth_getBlockByNumber', params)) as { hash: string };
        expect(atSource).toHaveProperty('blockGasCost');
        expect(await rpc(fork.url, 'eth_getBlockByNumber', params)).toEqual(atSource);
        expect(await rpc(fork.url, 'eth_getBlockByHash', [atSource.hash, full])).toEqual(atSource);
      }
      if (n > 0n) {
        const { hash } = (await rpc(source.url, 'eth_getBlockByNumber', [hex(n), false])) as { hash: string };
        const atSource = await rpc(source.url, 'eth_getTransactionByBlockNumberAndIndex', [hex(n), '0x0']);
        expect(await rpc(fork.url, 'eth_getTransactionByBlockNumberAndIndex', [hex(n), '0x0'])).toEqual(atSource);
        expect(await rpc(fork.url, 'eth_getTransactionByBlockHashAndIndex', [hash, '0x0'])).toEqual(atSource);
      }
      expect(await rpc(fork.url, 'eth_getHeaderByNumber', [hex(n)])).toEqual(
        await rpc(source.url, 'eth_getHeaderByNumber', [hex(n)]),
      );
    }
  });

  it('writes on top of the fork block, and a revert or a reset goes back to it', async () => {
    const f = cClients(fork.url);
    const snapshot = await rpc(fork.url, 'evm_snapshot', []);
    const hash = await f.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [7n] });
    expect((await f.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, 'latest'])).toBe(word(7n));
    // The block after the fork block is the fork's first: the source's blocks below stay the source's.
    expect(await rpc(fork.url, 'eth_blockNumber', [])).toBe(hex(forkBlock + 1n));
    expect(fork.world.indexes['C/block'].length).toBe(1);
    expect(await rpc(fork.url, 'eth_getLogs', [{ fromBlock: hex(forkBlock + 1n), address: contract }])).toHaveLength(1);
    expect(await rpc(fork.url, 'evm_revert', [snapshot])).toBe(true);
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, 'latest'])).toBe(word(42n));
    await f.wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [8n] });
    const forking = { jsonRpcUrl: `${source.url}/ext/bc/C/rpc`, blockNumber: Number(forkBlock) };
    expect(await rpc(fork.url, 'anvil_reset', [{ forking }])).toBeNull();
    expect(await rpc(fork.url, 'eth_blockNumber', [])).toBe(hex(forkBlock));
    expect(await rpc(fork.url, 'eth_call', [{ to: contract, data: GET }, 'latest'])).toBe(word(42n));
  });
});
