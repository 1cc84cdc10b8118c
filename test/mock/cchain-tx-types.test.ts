/**
 * The three transaction types a wallet sends (legacy with EIP-155, EIP-2930 with an access list, EIP-1559), through
 * viem with a batching HTTP transport (each round of reads goes as one JSON-RPC array): their receipts' gas and
 * effective gas price as the EVM charges them, the transactions as eth_getTransactionByHash answers them, and
 * eth_getLogs with address and topic arrays (OR within a position).
 */
import { http, type Hex, createPublicClient, encodeFunctionData, keccak256, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode;
let clients: ReturnType<typeof cClients>;
let batched: ReturnType<typeof createPublicClient>;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  clients = cClients(node.url);
  batched = createPublicClient({ chain: clients.chain, transport: http(`${node.url}/ext/bc/C/rpc`, { batch: true }) });
});
afterAll(() => node?.close());

const TO = '0x00000000000000000000000000000000000000c0' as const;
const SLOT = toHex(1n, { size: 32 });

describe('legacy, EIP-2930 and EIP-1559 through viem', () => {
  it('charges each as the EVM does and answers each in its own shape', async () => {
    const { wallet, account } = clients;
    const block = await batched.getBlock();
    const baseFee = block.baseFeePerGas!;
    const gasPrice = baseFee * 2n;
    const legacy = await wallet.sendTransaction({ to: TO, value: 1n, type: 'legacy', gasPrice });
    const accessList = [{ address: TO, storageKeys: [SLOT] }];
    const eip2930 = await wallet.sendTransaction({ to: TO, value: 2n, type: 'eip2930', gasPrice, accessList });
    const tip = 3n;
    const eip1559 = await wallet.sendTransaction({
      to: TO,
      value: 3n,
      type: 'eip1559',
      maxFeePerGas: baseFee * 4n,
      maxPriorityFeePerGas: tip,
    });

    const [r1, r2, r3] = await Promise.all(
      [legacy, eip2930, eip1559].map((hash) => batched.waitForTransactionReceipt({ hash })),
    );
    expect([r1!.type, r2!.type, r3!.type]).toEqual(['legacy', 'eip2930', 'eip1559']);
    expect([r1!.status, r2!.status, r3!.status]).toEqual(['success', 'success', 'success']);
    // A transfer: 21000; with an access list of one address and one key: + 2400 + 1900 (EIP-2930).
    expect([r1!.gasUsed, r2!.gasUsed, r3!.gasUsed]).toEqual([21_000n, 25_300n, 21_000n]);
    expect(r1!.effectiveGasPrice).toBe(gasPrice);
    expect(r2!.effectiveGasPrice).toBe(gasPrice);
    const mined = await batched.getBlock({ blockNumber: r3!.blockNumber });
    expect(r3!.effectiveGasPrice).toBe(mined.baseFeePerGas! + tip);
    expect(await batched.getBalance({ address: TO })).toBe(6n);

    const [t1, t2, t3] = await Promise.all([legacy, eip2930, eip1559].map((hash) => batched.getTransaction({ hash })));
    expect(t1).toMatchObject({ type: 'legacy', gasPrice, from: account.address.toLowerCase() });
    // EIP-155: v = chainId * 2 + 35 + yParity.
    expect([2n * 43112n + 35n, 2n * 43112n + 36n]).toContain(t1!.v);
    expect(t2).toMatchObject({ type: 'eip2930', gasPrice, accessList, chainId: 43112 });
    expect([0, 1]).toContain(t2!.yParity);
    expect(t3).toMatchObject({
      type: 'eip1559',
      maxFeePerGas: baseFee * 4n,
      maxPriorityFeePerGas: tip,
      accessList: [],
    });
    expect(t3!.gasPrice).toBe(r3!.effectiveGasPrice);
  });

  // coreth's newRPCTransaction (internal/ethapi/api.go): "if a legacy transaction has an EIP-155 chain id, include it
  // explicitly" (result.ChainID = tx.ChainId()), and no yParity, which only typed transactions get. The engine (EDR)
  // leaves it out; every read of a transaction gains it (mock/cchain/rpc-transaction-signature.ts).
  it('answers an EIP-155 legacy transaction with its chainId, as coreth', async () => {
    const { wallet } = clients;
    const gasPrice = (await batched.getBlock()).baseFeePerGas! * 2n;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, type: 'legacy', gasPrice });
    const { blockNumber } = await batched.waitForTransactionReceipt({ hash });
    const raw = (await batched.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
      chainId?: Hex;
      yParity?: Hex;
    };
    expect(raw.chainId).toBe(toHex(43112));
    expect(Object.keys(raw).indexOf('chainId')).toBe(Object.keys(raw).indexOf('v') - 1);
    expect(raw).not.toHaveProperty('yParity');
    const byIndex = (await batched.request({
      method: 'eth_getTransactionByBlockNumberAndIndex',
      params: [toHex(blockNumber), '0x0'],
    })) as { chainId?: Hex };
    expect(byIndex.chainId).toBe(toHex(43112));
    const block = (await batched.request({
      method: 'eth_getBlockByNumber',
      params: [toHex(blockNumber), true],
    })) as { transactions: { hash: Hex; chainId?: Hex }[] };
    expect(block.transactions.find((t) => t.hash === hash)?.chainId).toBe(toHex(43112));
  });

  it('eth_getLogs takes arrays of addresses and of topics per position', async () => {
    const { pub, wallet } = clients;
    const deploy = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
    const a = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    const deploy2 = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
    const b = (await pub.waitForTransactionReceipt({ hash: deploy2 })).contractAddress!;
    const set = (to: Hex, value: bigint) =>
      wallet.sendTransaction({ to, data: encodeFunctionData({ abi: ABI, functionName: 'set', args: [value] }) });
    const hashes = [await set(a, 1n), await set(b, 2n), await set(a, 3n)];
    const receipts = await Promise.all(hashes.map((hash) => pub.waitForTransactionReceipt({ hash })));
    const fromBlock = receipts[0]!.blockNumber;
    const toBlock = receipts[2]!.blockNumber;
    const topic0 = keccak256(toHex('ValueSet(uint256)'));
    const other = keccak256(toHex('Other()'));
    const logs = (filter: object) =>
      pub.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: toHex(fromBlock), toBlock: toHex(toBlock), ...filter }],
      } as never) as Promise<{ address: Hex; data: Hex; transactionHash: Hex }[]>;

    const both = await logs({ address: [a, b], topics: [[other, topic0]] });
    expect(both.map((l) => BigInt(l.data))).toEqual([1n, 2n, 3n]);
    expect(both.map((l) => l.transactionHash)).toEqual(hashes);
    expect((await logs({ address: [b], topics: [topic0] })).map((l) => BigInt(l.data))).toEqual([2n]);
    expect(await logs({ address: [a, b], topics: [[other]] })).toEqual([]);
    // A null position matches anything, but a filter with more positions than the log has topics matches nothing
    // (geth's filterLogs: len(topics) > len(log.Topics)), even when the extra position is null.
    expect(await logs({ address: a, topics: [null] })).toHaveLength(2);
    expect(await logs({ address: a, topics: [topic0, null] })).toEqual([]);
    expect(await logs({ address: a, topics: [topic0, [other]] })).toEqual([]);
    expect(await logs({ address: [] })).toHaveLength(3);

    // viem's typed getLogs with the event ABI.
    const typed = await pub.getLogs({ address: [a, b], event: ABI[2], fromBlock, toBlock });
    expect(typed.map((l) => l.args.value)).toEqual([1n, 2n, 3n]);
  });
});
