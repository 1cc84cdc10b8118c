/**
 * A fork lists subnets and chains in its source's order: the source's answers are its cached lists
 * (vms/platformvm/state/state.go GetSubnetIDs, GetChains), and the fork's own additions follow them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-order-'));
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;

beforeAll(async () => {
  source = await startMockNode({ accounts: 1, seed: 'order source' });
  const a = await source.wallet(0).createSubnet();
  const b = await source.wallet(0).createSubnet();
  await source.wallet(0).createChain(a, 'a1', source.world.chainIDs.X);
  await source.wallet(0).createChain(b, 'b1', source.world.chainIDs.X);
  await source.wallet(0).createChain(a, 'a2', source.world.chainIDs.X);
  fork = await startMockNode({ accounts: 1, seed: 'order fork', fork: { url: source.url, cacheDir } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork of another mock', () => {
  it('answers getBlockchains and getSubnets in the order its source does', async () => {
    const names = async (url: string) =>
      (await new PChainClient({ baseUrl: url }).getBlockchains()).blockchains.map((c) => c.name);
    const ids = async (url: string) =>
      ((await new PChainClient({ baseUrl: url }).getSubnets({})).subnets ?? []).map((s) => s.id);
    const expected = await names(source.url);
    expect(expected).toEqual(['b1', 'a2', 'a1', 'C-Chain', 'X-Chain']);
    expect(await names(fork.url)).toEqual(expected);
    expect(await ids(fork.url)).toEqual(await ids(source.url));
  });
});
