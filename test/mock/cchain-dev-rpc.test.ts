/**
 * anvil's and Hardhat's dev methods at /ext/bc/C/rpc (openrpc/c-chain/c-chain-dev.json), driven by viem's real test
 * client in both its modes: each moves the whole network as /ext/dev does (a snapshot undoes an X-Chain change too,
 * time is the P-Chain's clock as well), bad params are refused, and a node without dev controls answers -32601.
 */
import { http, type Hex, createPublicClient, createTestClient, createWalletClient, parseEther, webSocket } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

const WHALE: Hex = '0x00000000000000000000000000000000000A11CE';
const TO: Hex = '0x00000000000000000000000000000000000000b0';
/** Runtime code that returns the word 42 (PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN). */
const RETURNS_42: Hex = '0x602a60005260206000f3';
const WORD_42: Hex = `0x${'2a'.padStart(64, '0')}`;

describe.each<'anvil' | 'hardhat'>(['anvil', 'hardhat'])("viem's test client in %s mode", (mode) => {
  let node: RunningMockNode;
  let xAddress: string;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    xAddress = (await node.dev.listAccounts()).accounts[0]!.xAddress;
  });
  afterAll(() => node?.close());

  const rpcUrl = () => `${node.url}/ext/bc/C/rpc`;
  const test = () => createTestClient({ mode, transport: http(rpcUrl()) });
  const eth = () => createPublicClient({ transport: http(rpcUrl()) });
  const xBalance = async () =>
    BigInt(
      (await callRpc(`${node.url}/ext/bc/X`, 'avm.getBalance', { address: xAddress, assetID: 'AVAX' })).result.balance,
    );
  const pTime = async () =>
    Date.parse((await callRpc(`${node.url}/ext/bc/P`, 'platform.getTimestamp')).result.timestamp) / 1000;
  const transfer = (value: bigint) => cClients(node.url).wallet.sendTransaction({ to: TO, value });

  it('snapshot and revert undo a C-Chain transfer and an X-Chain funding together', async () => {
    const [cBefore, xBefore] = [await eth().getBalance({ address: TO }), await xBalance()];
    const id = await test().snapshot();
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    await transfer(1000n);
    await node.dev.fund({ address: xAddress, amount: '5' });
    expect(await eth().getBalance({ address: TO })).toBe(cBefore + 1000n);
    expect(await xBalance()).toBe(xBefore + 5n);
    await test().revert({ id });
    expect(await eth().getBalance({ address: TO })).toBe(cBefore);
    expect(await xBalance()).toBe(xBefore);
  });

  it('reverts again and again with a fresh snapshot after each revert, as loadFixture does', async () => {
    const before = await eth().getBalance({ address: TO });
    let id = await test().snapshot();
    for (const value of [1n, 2n, 3n]) {
      await transfer(value);
      expect(await eth().getBalance({ address: TO })).toBe(before + value);
      await test().revert({ id });
      expect(await eth().getBalance({ address: TO })).toBe(before);
      id = await test().snapshot();
    }
    // An ID no snapshot has: false, as anvil and Hardhat answer.
    expect(await test().request({ method: 'evm_revert', params: ['0xffff'] })).toBe(false);
  });

  it('sets a balance a fresh key then spends', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await test().setBalance({ address: account.address, value: parseEther('2') });
    expect(await eth().getBalance({ address: account.address })).toBe(parseEther('2'));
    const { chain } = cClients(node.url);
    const wallet = createWalletClient({ chain, account, transport: http(rpcUrl()) });
    const before = await eth().getBalance({ address: TO });
    const hash = await wallet.sendTransaction({ to: TO, value: parseEther('1') });
    expect((await eth().getTransactionReceipt({ hash })).status).toBe('success');
    expect(await eth().getBalance({ address: TO })).toBe(before + parseEther('1'));
  });

  it('impersonates an address for eth_sendTransaction unsigned, until stopped', async () => {
    await test().setBalance({ address: WHALE, value: parseEther('10') });
    await test().impersonateAccount({ address: WHALE });
    const whale = createWalletClient({ account: WHALE, transport: http(rpcUrl()) });
    const before = await eth().getBalance({ address: TO });
    const hash = await whale.sendTransaction({ to: TO, value: 7n, chain: null });
    expect((await eth().getTransactionReceipt({ hash })).from).toBe(WHALE.toLowerCase());
    expect(await eth().getBalance({ address: TO })).toBe(before + 7n);
    await test().stopImpersonatingAccount({ address: WHALE });
    await expect(whale.sendTransaction({ to: TO, value: 1n, chain: null })).rejects.toThrow(/unknown account/);
  });

  it('mines N blocks', async () => {
    const before = await eth().getBlockNumber();
    await test().mine({ blocks: 3 });
    expect(await eth().getBlockNumber()).toBe(before + 3n);
  });

  it("moves the network's clock: the next C-Chain block and the P-Chain's time", async () => {
    const [block, pBefore] = [await eth().getBlock(), await pTime()];
    await test().increaseTime({ seconds: 3600 });
    await test().mine({ blocks: 1 });
    // A block is a second past its parent when the clock stood still, so the clock moved from the later of the two.
    const mined = await eth().getBlock();
    expect(mined.timestamp).toBe(block.timestamp + 3600n);
    expect(await pTime()).toBe(Number(mined.timestamp));
    expect(await pTime()).toBeGreaterThanOrEqual(pBefore + 3600);
    const next = BigInt(await pTime()) + 500n;
    await test().setNextBlockTimestamp({ timestamp: next });
    await test().mine({ blocks: 1 });
    expect((await eth().getBlock()).timestamp).toBe(next);
    expect(await pTime()).toBe(Number(next));
  });

  it('sets code, storage and nonce, which eth_call and the reads see', async () => {
    const account = privateKeyToAccount(generatePrivateKey()).address;
    await test().setCode({ address: account, bytecode: RETURNS_42 });
    expect((await eth().call({ to: account })).data).toBe(WORD_42);
    await test().setStorageAt({ address: account, index: 2, value: WORD_42 });
    expect(await eth().getStorageAt({ address: account, slot: '0x2' })).toBe(WORD_42);
    await test().setNonce({ address: account, nonce: 9 });
    expect(await eth().getTransactionCount({ address: account })).toBe(9);
  });

  it('leaves transactions pending with automine off, drops one, mines the rest', async () => {
    expect(await test().getAutomine()).toBe(true);
    await test().setAutomine(false);
    try {
      expect(await test().getAutomine()).toBe(false);
      const { wallet } = cClients(node.url);
      const kept = await wallet.sendTransaction({ to: TO, value: 1n });
      const dropped = await wallet.sendTransaction({ to: TO, value: 2n });
      await test().dropTransaction({ hash: dropped });
      await test().mine({ blocks: 1 });
      expect((await eth().getTransactionReceipt({ hash: kept })).status).toBe('success');
      await expect(eth().getTransaction({ hash: dropped })).rejects.toThrow(/could not be found/);
    } finally {
      await test().setAutomine(true);
    }
  });

  it('dumps the state and loads it back, and resets to genesis', async () => {
    const state = await test().dumpState();
    expect(state).toMatch(/^0x1f8b/);
    // anvil's preserveHistoricalStates flag is taken: the state holds every block anyway.
    expect((await callRpc(rpcUrl(), `${mode}_dumpState`, [true])).result).toMatch(/^0x1f8b/);
    const balance = await eth().getBalance({ address: TO });
    await transfer(11n);
    await test().loadState({ state });
    expect(await eth().getBalance({ address: TO })).toBe(balance);
    await test().reset();
    expect(await eth().getBlockNumber()).toBe(0n);
    expect(await eth().getBalance({ address: TO })).toBe(0n);
  });

  it('answers over the WebSocket too', async () => {
    const ws = createTestClient({ mode, transport: webSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`) });
    try {
      const before = await eth().getBlockNumber();
      const id = await ws.snapshot();
      await ws.mine({ blocks: 2 });
      expect(await eth().getBlockNumber()).toBe(before + 2n);
      await ws.revert({ id });
      expect(await eth().getBlockNumber()).toBe(before);
    } finally {
      await (await ws.transport.getRpcClient()).close();
    }
  });

  it('refuses bad params with -32602 and what has no meaning here with -32601 and the reason', async () => {
    const call = (method: string, params: unknown[]) =>
      callRpc(rpcUrl(), method, params).then(({ error }) => error as { code: number; message: string });
    await expect(test().setBalance({ address: '0xb0', value: 1n })).rejects.toMatchObject({ code: -32602 });
    expect(await call(`${mode}_setBalance`, [WHALE])).toMatchObject({ code: -32602 });
    expect(await call(`${mode}_mine`, ['0x3e9'])).toMatchObject({ code: -32602, message: /at most 1000/ });
    expect(await call('evm_setNextBlockTimestamp', ['0x1'])).toMatchObject({
      code: -32602,
      message: /^Timestamp 1 is lower than the previous block's timestamp \d+$/,
    });
    const intervalMining = mode === 'anvil' ? 'anvil_setIntervalMining' : 'evm_setIntervalMining';
    expect(await call(intervalMining, ['0x80000000'])).toMatchObject({
      code: -32602,
      message: 'interval must be at most 2147483647 ms',
    });
    expect(await call(`${mode}_reset`, [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1' } }])).toMatchObject({
      code: -32602,
      message: /forks only as it starts/,
    });
    // A control's own refusal: -32000 and its words, as Hardhat answers a refusal.
    expect(await call(`${mode}_loadState`, ['0x00'])).toMatchObject({ code: -32000, message: /not a dumped state/ });
    await test().setNonce({ address: WHALE, nonce: 5 });
    await expect(test().setNonce({ address: WHALE, nonce: 1 })).rejects.toThrow(
      mode === 'anvil'
        ? /below the account's nonce 5/
        : 'New nonce (1) must not be smaller than the existing nonce (5)',
    );
    expect(await call('evm_setBlockGasLimit', ['0x1'])).toMatchObject({ code: -32601, message: /fee rules/ });
    expect(await call('anvil_setChainId', ['0x1'])).toMatchObject({ code: -32601, message: /chain ID/ });
    expect(await call(`${mode}_setMinGasPrice`, ['0x1'])).toEqual({
      code: -32602,
      message: `${mode}_setMinGasPrice is not supported when EIP-1559 is active`,
    });
    // anvil's eth_sendUnsignedTransaction is served with the controls (./sdk-viem-test-client.test.ts).
    expect(await call('eth_sendUnsignedTransaction', [{}])).toEqual({ code: -32602, message: 'No Signer available' });
  });
});

describe('a node without dev controls (--no-dev)', () => {
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, devControls: false, world: { network: 'local', accounts: 0 } });
  });
  afterAll(() => node?.close());

  it('answers every dev method as coreth answers a method it does not have', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(`${node.url}/ext/bc/C/rpc`) });
    await expect(test.snapshot()).rejects.toMatchObject({ code: -32601 });
    for (const method of ['evm_snapshot', 'anvil_setBalance', 'hardhat_mine', 'evm_setBlockGasLimit']) {
      const { error } = await callRpc(`${node.url}/ext/bc/C/rpc`, method, []);
      expect(error).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` });
    }
  });
});
