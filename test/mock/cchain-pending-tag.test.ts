/**
 * The `pending` block tag on the C-Chain's block reads, as viem sends it (getBlock({ blockTag: 'pending' }),
 * getFeeHistory({ blockTag: 'pending' })). coreth has no pending block: its EthAPIBackend.BlockByNumber reads every
 * accepted tag (pending, latest, safe, finalized) as the last accepted block, and its fee oracle reads `pending` as
 * `latest` with one block fewer.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let setTx: Hex;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  const deploy = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  const address = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
  setTx = await wallet.writeContract({ address, abi: ABI, functionName: 'set', args: [7n] });
  await pub.waitForTransactionReceipt({ hash: setTx });
});
afterAll(() => node?.close());

const rpc = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);

describe('the pending tag on block reads', () => {
  // graft/coreth/eth/api_backend.go BlockByNumber (v1.14.2): `if number.IsAccepted()` (pending is one) it answers the
  // current/last accepted block; internal/ethapi/api.go GetBlockByNumber marshals it whole ("coreth has no notion of a
  // pending block": the geth code nulling hash/nonce/miner is commented out). The engine alone, handed `pending`,
  // reads its pending block, whose number is null, and answers -32000 "Cannot convert null to a BigInt".
  it("viem's getBlock({ blockTag: 'pending' }) reads the last accepted block, hash and all", async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock({ blockTag: 'latest' });
    const pending = await pub.getBlock({ blockTag: 'pending' });
    expect(pending.number).toBe(latest.number);
    expect(pending.hash).toBe(latest.hash);
    expect(pending.transactions).toEqual([setTx]);
  });

  // Same BlockByNumber under internal/ethapi/api.go GetHeaderByNumber (HeaderByNumber treats accepted tags alike).
  it('eth_getHeaderByNumber("pending") answers the last accepted header', async () => {
    const latest = (await rpc('eth_getHeaderByNumber', ['latest'])).result as { hash: string };
    const pending = await rpc('eth_getHeaderByNumber', ['pending']);
    expect(pending.error).toBeUndefined();
    expect((pending.result as { hash: string }).hash).toBe(latest.hash);
  });

  // internal/ethapi/api.go GetBlockTransactionCountByNumber and GetTransactionByBlockNumberAndIndex both read
  // s.b.BlockByNumber: the last accepted block, holding the set() call. The engine alone counts 0 and finds nothing.
  it('counts and indexes the last accepted block\'s transactions for "pending"', async () => {
    expect((await rpc('eth_getBlockTransactionCountByNumber', ['pending'])).result).toBe('0x1');
    const tx = (await rpc('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x0'])).result as { hash: string };
    expect(tx?.hash).toBe(setTx);
  });

  // graft/coreth/eth/gasprice/feehistory.go resolveBlockRange (v1.14.2): "Pending block not supported by backend,
  // process until latest block": lastBlock = latest, blocks--. So 3 blocks ending at pending are the 2 blocks ending
  // at latest, and baseFee holds one entry per block (make([]*big.Int, blocks)). The engine alone answers 3 blocks, the third
  // being the engine's empty pending block (gasUsedRatio 0, reward 0).
  it("viem's getFeeHistory({ blockTag: 'pending' }) answers the blocks up to the last accepted, one fewer", async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlockNumber();
    const latestHistory = await pub.getFeeHistory({ blockCount: 2, blockTag: 'latest', rewardPercentiles: [50] });
    const history = await pub.getFeeHistory({ blockCount: 3, blockTag: 'pending', rewardPercentiles: [50] });
    expect(history.oldestBlock).toBe(latest - 1n);
    expect(history.gasUsedRatio).toEqual(latestHistory.gasUsedRatio);
    expect(history.reward).toEqual(latestHistory.reward);
    expect(history.baseFeePerGas).toEqual(latestHistory.baseFeePerGas);
  });
});
