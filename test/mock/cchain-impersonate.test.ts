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
  it('is saved with the pool and mined from it after a load', async () => {
    await node.dev.impersonate({ address: WHALE });
    await node.dev.setAutomine({ enabled: false });
    const hash = await walletOf(WHALE).sendTransaction({ to: TO, value: 11n, chain: null });
    const { state } = await node.dev.dumpState();
    await node.dev.setAutomine({ enabled: true });
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      await other.dev.loadState({ state });
      await other.dev.mine({ chain: 'C' });
      expect((await eth(other.url).getTransactionReceipt({ hash })).status).toBe('success');
    } finally {
      await other.close();
    }
  });
});
