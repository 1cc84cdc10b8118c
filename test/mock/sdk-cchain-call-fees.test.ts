/**
 * What a fee-paying eth_call reads of its fees on /ext/bc/C/rpc: GASPRICE is ToMessage's gas price (coreth v1.14.2
 * internal/ethapi/transaction_args.go: a gasPrice as given, maxFeePerGas's min(tip + base fee, fee cap) at the block's
 * base fee, the overridden one under a block override), in eth_call with or without block overrides; a call paying
 * nothing reads GASPRICE and BASEFEE as 0 (libevm core/vm NewEVM under NoBaseFee).
 */
import { type Hex, hexToBigInt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TARGET: Hex = '0x00000000000000000000000000000000000000aa';
/** Returns GASPRICE and BASEFEE as two words: `3a 6000 52 48 6020 52 6040 6000 f3`. */
const RETURNS_FEES: Hex = '0x3a6000524860205260406000f3';
const state = { [TARGET]: { code: RETURNS_FEES } };

async function fees(args: object, blockOverrides?: object, at = 'latest') {
  const { account } = cClients(node.url);
  const overrides = blockOverrides ? [blockOverrides] : [];
  const call = [{ from: account.address, to: TARGET, ...args }, at, state, ...overrides];
  const answer = (await c('eth_call', call)) as {
    result?: Hex;
    error?: unknown;
  };
  expect(answer.error).toBeUndefined();
  const [gasPrice, baseFee] = answer
    .result!.slice(2)
    .match(/.{64}/g)!
    .map((word) => hexToBigInt(`0x${word}`));
  return { gasPrice, baseFee };
}

const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('a fee-paying eth_call on /ext/bc/C/rpc', () => {
  it('reads GASPRICE as the effective gas price at the block’s base fee', async () => {
    const { pub } = cClients(node.url);
    const { baseFeePerGas } = await pub.getBlock();
    const baseFee = baseFeePerGas!;
    expect(await fees({})).toEqual({ gasPrice: 0n, baseFee: 0n });
    expect((await fees({ gasPrice: hex(baseFee + 7n) })).gasPrice).toBe(baseFee + 7n);
    const tipped = { maxFeePerGas: hex(baseFee + 100n), maxPriorityFeePerGas: '0x2' };
    expect((await fees(tipped)).gasPrice).toBe(baseFee + 2n);
    const capped = { maxFeePerGas: hex(baseFee + 1n), maxPriorityFeePerGas: '0x5' };
    expect((await fees(capped)).gasPrice).toBe(baseFee + 1n);
    expect((await fees({ maxFeePerGas: hex(baseFee) })).gasPrice).toBe(baseFee);
    // A `type` field, which coreth's TransactionArgs does not have, changes nothing.
    expect((await fees({ ...tipped, type: '0x2' })).gasPrice).toBe(baseFee + 2n);
    // viem's own call, which sends the fees it is given.
    const { account } = cClients(node.url);
    const { data } = await pub.call({
      account: account.address,
      to: TARGET,
      maxFeePerGas: baseFee + 100n,
      maxPriorityFeePerGas: 3n,
      stateOverride: [{ address: TARGET, code: RETURNS_FEES }],
    });
    expect(hexToBigInt(`0x${data!.slice(2, 66)}`)).toBe(baseFee + 3n);
  });

  it('reads GASPRICE at the base fee a block override sets', async () => {
    const tipped = { maxFeePerGas: '0x1000', maxPriorityFeePerGas: '0x2' };
    expect((await fees(tipped, { baseFee: '0x40' })).gasPrice).toBe(0x42n);
    const later = hex((await cClients(node.url).pub.getBlock()).timestamp + 60n);
    expect((await fees(tipped, { baseFee: '0x40', time: later })).gasPrice).toBe(0x42n);
  });

  it('reads GASPRICE as the effective gas price in eth_createAccessList’s traces', async () => {
    const { pub, wallet, account } = cClients(node.url);
    // A contract storing nothing and reading the slot GASPRICE names (`3a 54 00`), deployed by init code returning it.
    const deployed = await pub.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ data: '0x623a54006000526003601df3' }),
    });
    const reader = deployed.contractAddress!;
    const { baseFeePerGas } = await pub.getBlock();
    // A creation (its own address left out of the list) that STATICCALLs the reader with all its gas.
    const data: Hex = `0x600060006000600073${reader.slice(2)}5afa00`;
    const { accessList } = await pub.createAccessList({
      account: account.address,
      data,
      maxFeePerGas: baseFeePerGas! + 100n,
      maxPriorityFeePerGas: 2n,
    });
    const slot = `0x${(baseFeePerGas! + 2n).toString(16).padStart(64, '0')}`;
    expect(accessList).toEqual([{ address: reader.toLowerCase(), storageKeys: [slot] }]);
    // A call at an older block runs at that block's base fee.
    const genesis = (await pub.getBlock({ blockNumber: 0n })).baseFeePerGas!;
    expect(genesis).not.toBe(baseFeePerGas);
    const tipped = { maxFeePerGas: hex(genesis + 100n), maxPriorityFeePerGas: '0x2' };
    expect((await fees(tipped, undefined, '0x0')).gasPrice).toBe(genesis + 2n);
  });
});
