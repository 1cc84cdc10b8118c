/**
 * platform.getBalance's `address`: releases before v1.9.8 append it to `addresses` (vms/platformvm/service.go
 * GetBalance at v1.9.7: `if args.Address != nil { args.Addresses = append(args.Addresses, *args.Address) }`), and the
 * addresses are parsed into a set; from v1.9.8 on GetBalanceRequest has `addresses` alone, so the key is skipped unread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

/** The local network's funded key's address (ewoq), with AVAX on the P-Chain at genesis. */
const FUNDED = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

let old: RunningMockNode;
let current: RunningMockNode;
beforeAll(async () => {
  [old, current] = await Promise.all([
    startMockNode({ port: 0, nodeVersion: 'v1.9.7', world: { network: 'local', accounts: 0 } }),
    startMockNode({ port: 0, world: { network: 'local', accounts: 0 } }),
  ]);
});
afterAll(() => Promise.all([old?.close(), current?.close()]));

const balance = async (node: RunningMockNode, params: object) => {
  const { result, error } = await callRpc(`${node.url}/ext/bc/P`, 'platform.getBalance', params);
  expect(error).toBeUndefined();
  return result as { balance: string; utxoIDs: unknown[] | null };
};

describe("platform.getBalance's address", () => {
  it('counts before v1.9.8, as one more of the addresses, each address once', async () => {
    const byAddresses = await balance(old, { addresses: [FUNDED] });
    expect(BigInt(byAddresses.balance)).toBeGreaterThan(0n);
    expect(await balance(old, { address: FUNDED })).toEqual(byAddresses);
    expect(await balance(old, { addresses: [FUNDED], address: FUNDED })).toEqual(byAddresses);
  });

  it('is skipped unread since v1.9.8', async () => {
    expect(BigInt((await balance(current, { addresses: [FUNDED] })).balance)).toBeGreaterThan(0n);
    const byAddress = await balance(current, { address: FUNDED });
    expect(byAddress.balance).toBe('0');
    expect(byAddress.utxoIDs).toBeNull();
  });
});
