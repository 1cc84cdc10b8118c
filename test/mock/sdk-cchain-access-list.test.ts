/**
 * eth_createAccessList on /ext/bc/C/rpc, through viem and raw JSON, against contracts that touch storage and other
 * accounts: the list geth's access-list tracer builds (libevm eth/tracers/logger/access_list_tracer.go: slots of the
 * contract that reads them, addresses that BALANCE, EXTCODE- and CALL-opcodes name, never the sender, the recipient or a
 * precompile), the gas the transaction uses with it, and coreth's refusals (internal/ethapi AccessList).
 */
import { getAddress, getContractAddress, type Hex, keccak256, serializeTransaction } from 'viem';
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
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const OTHER = `0x${'00'.repeat(19)}bb` as Hex;

/** Deploys runtime code (under 256 bytes) behind a constructor that returns it; its address. */
async function deploy(runtime: string): Promise<Hex> {
  const { pub, wallet } = cClients(node.url);
  const length = (runtime.length - 2) / 2;
  const init = `0x60${length.toString(16).padStart(2, '0')}80600b6000396000f3${runtime.slice(2)}` as Hex;
  const hash = await wallet.deployContract({ abi: [], bytecode: init });
  return (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
}

/**
 * Reader: SLOAD 7, then STATICCALLs the identity precompile (0x04). Caller: SLOAD 1, SSTORE 2 := 5, BALANCE of OTHER,
 * CALL the reader.
 */
async function contracts(): Promise<{ caller: Hex; reader: Hex }> {
  const reader = await deploy('0x60075450600060006000600060045afa5000');
  const caller = await deploy(
    `0x600154506005600255${`73${OTHER.slice(2)}`}3150${'6000'.repeat(5)}${`73${reader.slice(2)}`}5af15000`,
  );
  return { caller, reader };
}

/** The list as a set, whatever the order (geth's tracer keeps a Go map). */
const asSet = (list: ReadonlyArray<{ address: string; storageKeys: readonly string[] }>) =>
  Object.fromEntries(list.map(({ address, storageKeys }) => [address.toLowerCase(), [...storageKeys].sort()]));

describe('eth_createAccessList on /ext/bc/C/rpc', () => {
  it('lists the slots and accounts a call touches, and the gas it uses with them', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const { caller, reader } = await contracts();
    const { accessList, gasUsed } = await pub.createAccessList({ account: account.address, to: caller });
    // The caller's own slots stay listed (addSlot adds the recipient); the precompile the reader calls does not.
    expect(asSet(accessList)).toEqual({
      [caller.toLowerCase()]: [slot(1), slot(2)],
      [OTHER]: [],
      [reader.toLowerCase()]: [slot(7)],
    });
    // The gas is what the transaction uses when sent with that list.
    // cacheTime 0: viem answers a read within its polling interval from its cache.
    const before = await pub.getBlockNumber({ cacheTime: 0 });
    const hash = await wallet.sendTransaction({ to: caller, accessList, gas: gasUsed * 2n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.gasUsed).toBe(gasUsed);
    expect(receipt.blockNumber).toBe(before + 1n);
    expect(await pub.getBlockNumber({ cacheTime: 0 })).toBe(before + 1n);
  });

  it('starts from the list given, keeps its slots of the sender and drops its sender address', async () => {
    const { account } = cClients(node.url);
    const { caller } = await contracts();
    const from = account.address.toLowerCase();
    const given = [
      { address: from, storageKeys: [slot(9)] },
      { address: OTHER, storageKeys: [] },
    ];
    const answer = (await c('eth_createAccessList', [{ from, to: caller, accessList: given }])) as {
      result: { accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: string };
    };
    expect(asSet(answer.result.accessList)[from]).toEqual([slot(9)]);
    expect(Object.keys(asSet(answer.result.accessList))).toContain(OTHER);
  });

  it('answers a reverting call with its error beside the list, and the chain does not move', async () => {
    const { pub, account } = cClients(node.url);
    const reverting = await deploy('0x600354506000600055600060006000fd');
    const invalid = await deploy('0x6001fe');
    const underflow = await deploy('0x01');
    const overflow = await deploy('0x5b6000600056');
    const block = await pub.getBlockNumber();
    const nonce = await pub.getTransactionCount({ address: account.address });
    const reverted = (await c('eth_createAccessList', [{ from: account.address, to: reverting, gas: '0x20000' }])) as {
      result: { accessList: Array<{ address: string; storageKeys: string[] }>; error: string; gasUsed: string };
    };
    expect(asSet(reverted.result.accessList)).toEqual({ [reverting.toLowerCase()]: [slot(0), slot(3)] });
    expect(reverted.result).toMatchObject({
      error: 'execution reverted',
      gasUsed: expect.stringMatching(/^0x[0-9a-f]+$/),
    });
    // An invalid opcode uses all the gas given.
    expect(await c('eth_createAccessList', [{ from: account.address, to: invalid, gas: '0x20000' }])).toEqual({
      result: { accessList: [], error: 'invalid opcode: INVALID', gasUsed: '0x20000' },
    });
    // Without a gas limit, coreth's 50,000,000 (rpc-gas-cap), all of it.
    expect(await c('eth_createAccessList', [{ from: account.address, to: invalid }])).toEqual({
      result: { accessList: [], error: 'invalid opcode: INVALID', gasUsed: '0x2faf080' },
    });
    // The stack checks' texts carry geth's counts: ADD on an empty stack; a loop that leaves a word each turn.
    const result = async (to: string) =>
      (
        (await c('eth_createAccessList', [{ from: account.address, to, gas: '0x20000' }])) as {
          result: { error: string };
        }
      ).result.error;
    expect(await result(underflow)).toBe('stack underflow (0 <=> 2)');
    expect(await result(overflow)).toBe('stack limit reached 1024 (1023)');
    expect(await pub.getBlockNumber()).toBe(block);
    expect(await pub.getTransactionCount({ address: account.address })).toBe(nonce);
  });

  it("refuses what coreth's ApplyMessage refuses, naming the unsigned transaction's hash", async () => {
    const { chain } = cClients(node.url);
    const { caller } = await contracts();
    const price = 10n ** 12n;
    // A sender without the balance for 50,000,000 gas (rpc-gas-cap) at the price; its address checksummed (Hex()).
    const from = '0x00000000000000000000000000000000DeaDBeef';
    const poor = (await c('eth_createAccessList', [{ from, to: caller, gasPrice: `0x${price.toString(16)}` }])) as {
      error: { code: number; message: string };
    };
    const unsigned = serializeTransaction(
      {
        type: 'eip2930',
        chainId: chain.id,
        nonce: 0,
        gas: 50_000_000n,
        gasPrice: price,
        to: caller,
        value: 0n,
        accessList: [],
      },
      { r: '0x0', s: '0x0', yParity: 0 },
    );
    expect(poor).toEqual({
      error: {
        code: -32000,
        message: `failed to apply transaction: ${keccak256(unsigned)} err: insufficient funds for gas * price + value: address ${getAddress(from)} have 0 want ${50_000_000n * price}`,
      },
    });
    // Without fees: setDefaults' tip suggestion and twice the last base fee, a dynamic-fee transaction.
    const { pub } = cClients(node.url);
    const tip = await pub.estimateMaxPriorityFeePerGas();
    const maxFeePerGas = tip + 2n * (await pub.getBlock()).baseFeePerGas!;
    const dynamic = serializeTransaction(
      {
        type: 'eip1559',
        chainId: chain.id,
        nonce: 0,
        gas: 50_000_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: tip,
        to: caller,
        value: 0n,
        accessList: [],
      },
      { r: '0x0', s: '0x0', yParity: 0 },
    );
    expect(await c('eth_createAccessList', [{ from, to: caller }])).toEqual({
      error: {
        code: -32000,
        message: `failed to apply transaction: ${keccak256(dynamic)} err: insufficient funds for gas * price + value: address ${getAddress(from)} have 0 want ${50_000_000n * maxFeePerGas}`,
      },
    });
    const { account } = cClients(node.url);
    const low = (await c('eth_createAccessList', [{ from: account.address, to: caller, gas: '0x5000' }])) as {
      error: { message: string };
    };
    expect(low.error.message).toMatch(
      /^failed to apply transaction: 0x[0-9a-f]{64} err: intrinsic gas too low: have 20480, want 21000$/,
    );
    expect(await c('eth_createAccessList', [{ from: account.address, to: caller, gasPrice: '0x0' }])).toEqual({
      error: { code: -32000, message: 'gasPrice must be non-zero after london fork' },
    });
    expect(await c('eth_createAccessList', [{ from: account.address }])).toEqual({
      error: { code: -32000, message: 'contract creation without any data provided' },
    });
    const tooLong = (await c('eth_createAccessList', [
      { from: account.address, data: `0x${'00'.repeat(49_153)}` },
    ])) as {
      error: { message: string };
    };
    expect(tooLong.error.message).toMatch(
      /^failed to apply transaction: 0x[0-9a-f]{64} err: max initcode size exceeded: code size 49153 limit 49152$/,
    );
    // The list given is decoded as Go decodes types.AccessList, before anything runs.
    expect(
      await c('eth_createAccessList', [{ to: caller, accessList: [{ address: caller, storageKeys: ['0x1'] }] }]),
    ).toEqual({
      error: {
        code: -32602,
        message:
          'invalid argument 0: json: cannot unmarshal hex string of odd length into Go struct field TransactionArgs.accessList.storageKeys of type common.Hash',
      },
    });
    expect(await c('eth_createAccessList', [{ to: caller, accessList: [{ storageKeys: [] }] }])).toEqual({
      error: { code: -32602, message: "invalid argument 0: missing required field 'address' for AccessTuple" },
    });
    // CreateAccessList(ctx, args, blockNrOrHash): no state override.
    expect(await c('eth_createAccessList', [{ to: caller }, 'latest', {}])).toEqual({
      error: { code: -32602, message: 'too many arguments, want at most 2' },
    });
  });

  it('runs out of the gas given as coreth does, and refuses to trace a run past its budget', async () => {
    const { account } = cClients(node.url);
    // JUMPDEST PUSH1 0 JUMP: a loop that only gas ends.
    const loop = await deploy('0x5b600056');
    expect(await c('eth_createAccessList', [{ from: account.address, to: loop, gas: '0x10000' }])).toEqual({
      result: { accessList: [], error: 'out of gas', gasUsed: '0x10000' },
    });
    expect(await c('eth_createAccessList', [{ from: account.address, to: loop }])).toEqual({
      error: {
        code: -32000,
        message: 'the mock traces an access list within 1000000 gas, and this call may need more',
      },
    });
  });

  it('reads the state of a block named by its hash, as rpc.BlockNumberOrHash takes it', async () => {
    const { pub, account } = cClients(node.url);
    const { caller } = await contracts();
    const { hash } = await pub.getBlock();
    const call = { from: account.address, to: caller };
    const byHash = await c('eth_createAccessList', [call, { blockHash: hash }]);
    expect(byHash).toEqual(await c('eth_createAccessList', [call, 'latest']));
    expect(await c('eth_estimateGas', [call, { blockHash: hash }])).toHaveProperty('result');
    expect(await c('eth_createAccessList', [call, { blockHash: `0x${'12'.repeat(32)}` }])).toEqual({
      error: { code: -32000, message: 'header for hash not found' },
    });
  });

  it('lists the slots a creation reads under the address it would deploy to', async () => {
    const { pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const created = getContractAddress({ from: account.address, nonce: BigInt(nonce) }).toLowerCase();
    const { accessList } = await pub.createAccessList({ account: account.address, data: '0x600154' });
    expect(asSet(accessList)).toEqual({ [created]: [slot(1)] });
  });

  it('traces runs of up to 1,000,000 gas, and refuses past it code that reads GAS', async () => {
    const { pub, wallet, account } = cClients(node.url);
    // SLOAD 7, then a countdown of 20,000 turns of 26 gas: JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 8 JUMPI STOP.
    const countdown = '6007545062004e205b600190038060085700';
    const long = await deploy(`0x${countdown}`);
    const { accessList, gasUsed } = await pub.createAccessList({ account: account.address, to: long });
    expect(asSet(accessList)).toEqual({ [long.toLowerCase()]: [slot(7)] });
    expect(gasUsed).toBeGreaterThan(500_000n);
    const hash = await wallet.sendTransaction({ to: long, accessList, gas: gasUsed * 2n });
    expect((await pub.waitForTransactionReceipt({ hash })).gasUsed).toBe(gasUsed);
    // GAS POP first: a run may branch on the gas left, so only a limit within the budget is traced.
    const reading = await deploy(`0x5a50${countdown.replace('6008', '600a')}`);
    expect(await c('eth_createAccessList', [{ from: account.address, to: reading }])).toEqual({
      error: {
        code: -32000,
        message: 'the mock traces an access list within 1000000 gas, and this call may need more',
      },
    });
    const within = (await c('eth_createAccessList', [{ from: account.address, to: reading, gas: '0xf4240' }])) as {
      result: { accessList: Array<{ address: string; storageKeys: string[] }>; error?: string };
    };
    expect(asSet(within.result.accessList)).toEqual({ [reading.toLowerCase()]: [slot(7)] });
    expect(within.result.error).toBeUndefined();
  });

  it('never lists the account a CREATE makes, which the tracer does not name', async () => {
    const { pub, account } = cClients(node.url);
    // CREATE of empty code, then BALANCE of OTHER.
    const creator = await deploy(`0x6000600060006000f050${`73${OTHER.slice(2)}`}3150`);
    const { accessList } = await pub.createAccessList({ account: account.address, to: creator });
    expect(asSet(accessList)).toEqual({ [OTHER]: [] });
    // A CALL of the zero address names it, as any other (the engine loads it as its coinbase in every run).
    const zeroCaller = await deploy(`0x${'6000'.repeat(5)}60005af150`);
    const zero = await pub.createAccessList({ account: account.address, to: zeroCaller });
    expect(asSet(zero.accessList)).toEqual({ [`0x${'0'.repeat(40)}`]: [] });
  });
});
