/**
 * anvil_loadState (and anvil's alias hardhat_loadState) merges the state into the node's, as anvil does (foundry
 * crates/anvil/src/eth/backend/mem/mod.rs load_state; db.load_state sets each account the state holds and leaves the
 * others): an account the state holds takes its values, one it lacks keeps the node's, with its code and storage.
 */
import type { Hex } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpcResult } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

const IN_STATE: Hex = '0x00000000000000000000000000000000000a11ce';
const EDITED: Hex = '0x00000000000000000000000000000000000000e1';
const PAID: Hex = '0x00000000000000000000000000000000000000e2';
const SLOT = `0x${'07'.padStart(64, '0')}`;
const WORD = `0x${'2a'.padStart(64, '0')}`;
const RETURNS_42 = '0x602a60005260206000f3';

let node: RunningMockNode;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterEach(() => node?.close());

const c = (method: string, params: unknown[] = []) => rpcResult(`${node.url}/ext/bc/C/rpc`, method, params);
const account = async (address: Hex) => [
  await c('eth_getBalance', [address, 'latest']),
  await c('eth_getTransactionCount', [address, 'latest']),
  await c('eth_getCode', [address, 'latest']),
  await c('eth_getStorageAt', [address, SLOT, 'latest']),
];

describe.each(['anvil_loadState', 'hardhat_loadState'])('%s', (method) => {
  it('keeps the accounts the state lacks and takes the ones it holds', async () => {
    await c('anvil_setBalance', [IN_STATE, '0x3e8']);
    const state = await c('anvil_dumpState');
    const height = await c('eth_blockNumber');
    await c('anvil_setBalance', [IN_STATE, '0x5']);
    await c('anvil_setBalance', [EDITED, '0x4d']);
    await c('anvil_setNonce', [EDITED, '0x3']);
    await c('anvil_setCode', [EDITED, RETURNS_42]);
    await c('anvil_setStorageAt', [EDITED, SLOT, WORD]);
    const { pub, wallet, account: ewoq } = cClients(node.url);
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: PAID, value: 9n }) });
    const [edited, paid] = [await account(EDITED), await account(PAID)];

    expect(await c(method, [state])).toBe(true);
    expect(await c('eth_blockNumber')).toBe(height);
    expect(await c('eth_getBalance', [IN_STATE, 'latest'])).toBe('0x3e8');
    // The sender is the genesis's: the state's nonce, not the node's.
    expect(await c('eth_getTransactionCount', [ewoq.address, 'latest'])).toBe('0x0');
    expect(await account(EDITED)).toEqual(edited);
    expect(await account(PAID)).toEqual(paid);
    expect(paid[0]).toBe('0x9');
    // Kept through a dump and load of the merged state too.
    const merged = await c('anvil_dumpState');
    await c('anvil_reset');
    await c('anvil_loadState', [merged]);
    expect(await account(EDITED)).toEqual(edited);
  });

  // A state holds no pool (as anvil's): the pending transaction is gone with the load, and the nonce put back.
  it('puts back a nonce, the pending transaction left out of the state', async () => {
    await c('evm_setAutomine', [false]);
    const { wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({ to: PAID, value: 1n });
    const state = await c('anvil_dumpState');
    await c('anvil_setNonce', [EDITED, '0x3']);
    expect(await c(method, [state])).toBe(true);
    expect(await c('eth_getTransactionCount', [EDITED, 'latest'])).toBe('0x3');
    expect(await c('eth_getTransactionByHash', [hash])).toBeNull();
  });
});
