/**
 * Params only older releases decode, which later ones skip unread (their args structs lost the field):
 * - platform.getBalance's `address`: releases before v1.9.8 append it to `addresses` (vms/platformvm/service.go
 *   GetBalance at v1.9.7: `if args.Address != nil { args.Addresses = append(args.Addresses, *args.Address) }`), and the
 *   addresses are parsed into a set.
 * - info.uptime's `subnetID`: up to v1.11.11 the node reports a subnet's view too, of a subnet it tracks
 *   (network/network.go NodeUptime: errNotTracked, wrapped as "couldn't get node uptime: %w" in api/info/service.go).
 *   The mock's node tracks none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { EMPTY_ID } from '../../mock/world/networks.ts';

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

describe("info.uptime's subnetID", () => {
  const uptime = async (node: RunningMockNode, params: object) =>
    callRpc(`${node.url}/ext/info`, 'info.uptime', params);

  it('names a subnet the node must track up to v1.11.11; the Primary Network is its own view', async () => {
    const subnet = await uptime(old, { subnetID: old.world.chainIDs.X });
    expect(subnet.error?.message).toBe("couldn't get node uptime: subnet is not tracked");
    const primary = await uptime(old, { subnetID: EMPTY_ID });
    expect(primary.result).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' });
    expect((await uptime(old, {})).result).toEqual(primary.result);
  });

  it('is skipped unread since v1.11.12', async () => {
    const { result, error } = await uptime(current, { subnetID: current.world.chainIDs.X });
    expect(error).toBeUndefined();
    expect(result).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' });
  });
});
