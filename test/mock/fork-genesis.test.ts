/**
 * A fork's genesis facts come from its source or from the verbatim genesis of the source's network, never from an
 * empty placeholder: the genesis chains' CreateChainTxs and the AVAX asset's genesis transaction byte for byte, the
 * chains' records as the source holds them, the network's genesis allocations and stakers, and the genesis blocks.
 * A chain, subnet, validator or delegator the source added after the fork height stays out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { EMPTY_ID, VM_IDS } from '../../mock/world/networks.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'fork-genesis-'));
let source: MockNodeHandle;
let fork: MockNodeHandle<ForkedDevControls>;
let chainID: string;
let laterChainID: string;
let subnetID: string;
let laterSubnetID: string;
let laterValidator: string;
let laterDelegator: string;

beforeAll(async () => {
  source = await startMockNode({ accounts: 2, seed: 'fork genesis source' });
  subnetID = await source.wallet(0).createSubnet();
  chainID = await source.wallet(0).createChain(subnetID, 'kept', VM_IDS.subnetEVM, { config: { chainId: 99_001 } });
  const height = source.world.tip('P').height;
  laterChainID = await source.wallet(0).createChain(subnetID, 'later', VM_IDS.subnetEVM, { n: 2 });
  laterSubnetID = await source.wallet(0).createSubnet();
  const AVAX = 1_000_000_000n;
  laterValidator = await source
    .wallet(1)
    .addValidator(`NodeID-${cb58Encode(new Uint8Array(20).fill(7))}`, 2_000n * AVAX);
  laterDelegator = await source.wallet(0).delegate(source.world.network.stakers[0]!.nodeID, 25n * AVAX);
  fork = await startMockNode({ accounts: 1, seed: 'fork genesis', fork: { url: source.url, height, cacheDir } });
});
afterAll(async () => {
  await fork?.close();
  await source?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('a fork keeps its source genesis', () => {
  it('serves the genesis CreateChainTxs and the AVAX genesis transaction byte for byte', async () => {
    const [p, sp] = [fork, source].map((n) => new PChainClient({ baseUrl: n.url }));
    const [x, sx] = [fork, source].map((n) => new XChainClient({ baseUrl: n.url }));
    const { X, C } = source.world.chainIDs;
    for (const txID of [X, C, chainID])
      for (const encoding of ['hex', 'json'] as const)
        expect(await p!.getTx({ txID, encoding })).toEqual(await sp!.getTx({ txID, encoding }));
    const assetID = source.world.network.avaxAssetID;
    expect(await x!.getTx({ txID: assetID, encoding: 'hex' })).toEqual(
      await sx!.getTx({ txID: assetID, encoding: 'hex' }),
    );
    for (const height of ['0', '1'])
      expect(await p!.getBlockByHeight({ height, encoding: 'hex' })).toEqual(
        await sp!.getBlockByHeight({ height, encoding: 'hex' }),
      );
  });

  it('holds the chains as the source does at the fork point, and not one created after it', async () => {
    const kept = [...source.world.chains.values()].filter((c) => c.id !== laterChainID);
    expect([...fork.world.chains.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      kept.sort((a, b) => a.id.localeCompare(b.id)),
    );
    const names = (await new PChainClient({ baseUrl: fork.url }).getBlockchains()).blockchains.map((c) => c.name);
    expect(names.sort()).toEqual(['C-Chain', 'X-Chain', 'kept']);
  });

  it('leaves out the subnets and stakers the source added after the fork height', async () => {
    const p = new PChainClient({ baseUrl: fork.url });
    const subnets = ((await p.getSubnets({})).subnets ?? []).map((s) => s.id);
    expect(subnets.sort()).toEqual([subnetID, EMPTY_ID].sort());
    expect(source.world.subnets.has(laterSubnetID)).toBe(true);
    const txIDs = ((await p.getCurrentValidators({})).validators as Array<{ txID: string }>).map((v) => v.txID);
    expect(txIDs).toHaveLength(source.world.network.stakers.length);
    expect(txIDs).not.toContain(laterValidator);
    for (const v of source.world.network.stakers) {
      const [forked] = (await p.getCurrentValidators({ nodeIDs: [v.nodeID] } as never)).validators as Array<{
        delegators?: Array<{ txID: string }> | null;
      }>;
      expect((forked!.delegators ?? []).map((d) => d.txID)).not.toContain(laterDelegator);
    }
    expect(fork.world.stakers.has(laterDelegator)).toBe(false);
  });

  it("keeps the network's genesis allocations and stakers", () => {
    const { allocations, initialStakedFunds, stakers, genesisID, xChainID, cChainID, avaxAssetID } =
      source.world.network;
    expect(fork.world.network).toMatchObject({
      allocations,
      initialStakedFunds,
      stakers,
      genesisID,
      xChainID,
      cChainID,
      avaxAssetID,
    });
    expect(allocations.length).toBeGreaterThan(0);
  });
});
