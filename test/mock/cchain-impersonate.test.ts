/**
 * dev.impersonate of an EVM address: eth_sendTransaction from it at /ext/bc/C/rpc goes unsigned (viem's json-rpc
 * account: an address, no key), from any other address it is coreth's "unknown account"; the transactions it mined
 * come back through a revert and a saved state, and the setting outlives both, as anvil's does.
 */
import { http, type Hex, createPublicClient, createWalletClient, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const WHALE: Hex = '0x00000000000000000000000000000000000A11CE';
const TO: Hex = '0x00000000000000000000000000000000000000b0';
const eth = (url = node.url) => createPublicClient({ transport: http(`${url}/ext/bc/C/rpc`) });
const walletOf = (account: Hex, url = node.url) =>
  createWalletClient({ transport: http(`${url}/ext/bc/C/rpc`), account });

describe('dev.impersonate on the C-Chain', () => {
  it('refuses eth_sendTransaction from an address the node has no key for, as coreth', async () => {
    await expect(walletOf(WHALE).sendTransaction({ to: TO, value: 1n, chain: null })).rejects.toThrow(
      /unknown account/,
    );
    const res = await fetch(`${node.url}/ext/bc/C/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_sendTransaction', params: [{ from: WHALE, to: TO }] }),
    });
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'unknown account' } });
  });

  it('mines an unsigned transfer from an impersonated address, then refuses again once stopped', async () => {
    await node.dev.fund({ address: WHALE, amount: '5000000000' });
    await node.dev.impersonate({ address: WHALE });
    const hash = await walletOf(WHALE).sendTransaction({ to: TO, value: parseEther('1'), chain: null });
    const receipt = await eth().getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(WHALE.toLowerCase());
    expect(await eth().getBalance({ address: TO })).toBe(parseEther('1'));
    await node.dev.stopImpersonating({ address: WHALE });
    await expect(walletOf(WHALE).sendTransaction({ to: TO, value: 1n, chain: null })).rejects.toThrow(
      /unknown account/,
    );
  });

  it('refuses an address that is not 40 hex digits, as the document does', async () => {
    await expect(node.dev.impersonate({ address: '0x0bEE' })).rejects.toThrow(/couldn't unmarshal an argument/);
  });

  it('keeps the setting through a revert, which undoes the transfer', async () => {
    await node.dev.impersonate({ address: WHALE });
    const { snapshotID } = await node.dev.snapshot();
    const before = await eth().getBalance({ address: TO });
    await walletOf(WHALE).sendTransaction({ to: TO, value: 5n, chain: null });
    expect(await eth().getBalance({ address: TO })).toBe(before + 5n);
    await node.dev.revert({ snapshotID });
    expect(await eth().getBalance({ address: TO })).toBe(before);
    await walletOf(WHALE).sendTransaction({ to: TO, value: 3n, chain: null });
    expect(await eth().getBalance({ address: TO })).toBe(before + 3n);
  });

  it('replays impersonated transactions from a dumped state into a new node, block hashes and all', async () => {
    const latest = await eth().getBlock();
    const { state } = await node.dev.dumpState();
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      await other.dev.loadState({ state });
      const replayed = await eth(other.url).getBlock({ blockNumber: latest.number });
      expect(replayed.hash).toBe(latest.hash);
      expect(await eth(other.url).getBalance({ address: TO })).toBe(await eth().getBalance({ address: TO }));
      // Impersonation is the node's setting, not the state's: the new node has no account to send from.
      await expect(walletOf(WHALE, other.url).sendTransaction({ to: TO, value: 1n, chain: null })).rejects.toThrow(
        /unknown account/,
      );
    } finally {
      await other.close();
    }
  });
});

describe('an impersonated transaction still pending', () => {
  it('is no part of a saved state, as no pool is: a load leaves it out', async () => {
    await node.dev.impersonate({ address: WHALE });
    await node.dev.setAutomine({ enabled: false });
    const hash = await walletOf(WHALE).sendTransaction({ to: TO, value: 11n, chain: null });
    const { state } = await node.dev.dumpState();
    await node.dev.setAutomine({ enabled: true });
    await node.dev.mine({ chain: 'C' });
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      await other.dev.loadState({ state });
      await other.dev.mine({ chain: 'C' });
      expect(await eth(other.url).request({ method: 'eth_getTransactionByHash', params: [hash] })).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('C-Chain state edits', () => {
  const ACCOUNT: Hex = '0x0000000000000000000000000000000000000c0d';
  const SLOT: Hex = `0x${'0'.repeat(63)}1`;
  const WORD: Hex = `0x${'0'.repeat(62)}2a`;
  // PUSH1 0xff PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: answers 255 to any call.
  const CODE: Hex = '0x60ff60005260206000f3';

  it('sets code, a storage slot and a nonce, which a revert undoes and a saved state keeps', async () => {
    const { snapshotID } = await node.dev.snapshot();
    await node.dev.setCode({ address: ACCOUNT, code: CODE });
    await node.dev.setStorageAt({ address: ACCOUNT, slot: SLOT, value: WORD });
    await node.dev.setNonce({ address: ACCOUNT, nonce: '7' });
    const read = async (url = node.url) => ({
      code: await eth(url).getCode({ address: ACCOUNT }),
      slot: await eth(url).getStorageAt({ address: ACCOUNT, slot: SLOT }),
      nonce: await eth(url).getTransactionCount({ address: ACCOUNT }),
      call: (await eth(url).call({ to: ACCOUNT })).data,
    });
    const edited = { code: CODE, slot: WORD, nonce: 7, call: `0x${'0'.repeat(62)}ff` };
    expect(await read()).toEqual(edited);

    const { state } = await node.dev.dumpState();
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      await other.dev.loadState({ state });
      expect(await read(other.url)).toEqual(edited);
    } finally {
      await other.close();
    }

    await node.dev.revert({ snapshotID });
    expect(await eth().getCode({ address: ACCOUNT })).toBeUndefined();
    expect(await eth().getStorageAt({ address: ACCOUNT, slot: SLOT })).toBe(`0x${'0'.repeat(64)}`);
    expect(await eth().getTransactionCount({ address: ACCOUNT })).toBe(0);
  });

  it('refuses a nonce below the account’s and a slot not a word; sets one with transactions pending, as anvil', async () => {
    await node.dev.setNonce({ address: ACCOUNT, nonce: '3' });
    await expect(node.dev.setNonce({ address: ACCOUNT, nonce: '2' })).rejects.toThrow(
      /nonce 2 is below the account's nonce 3/,
    );
    await node.dev.setAutomine({ enabled: false });
    await walletOf(WHALE)
      .sendTransaction({ to: TO, value: 1n, chain: null })
      .catch(() => undefined);
    await node.dev.impersonate({ address: WHALE });
    const pending = await walletOf(WHALE).sendTransaction({ to: TO, value: 1n, chain: null });
    const edits = node.world.cChainEdits.length;
    await node.dev.setNonce({ address: ACCOUNT, nonce: '9' });
    expect(node.world.cChainEdits.length).toBe(edits + 1);
    expect(await eth().getTransactionCount({ address: ACCOUNT })).toBe(9);
    // Two blocks: each transfer asks for the wallet's 10M gas.
    await node.dev.mine({ chain: 'C', blocks: 2 });
    expect((await eth().getTransactionReceipt({ hash: pending })).status).toBe('success');
    // Still impersonated: the pool went back to the engine without undoing the node's setting.
    const after = await walletOf(WHALE).sendTransaction({ to: TO, value: 1n, chain: null });
    await node.dev.mine({ chain: 'C' });
    expect((await eth().getTransactionReceipt({ hash: after })).status).toBe('success');
    await node.dev.setAutomine({ enabled: true });
    await expect(node.dev.setStorageAt({ address: ACCOUNT, slot: '0x1', value: WORD })).rejects.toThrow(
      /couldn't unmarshal an argument/,
    );
  });
});
