/**
 * The C-Chain's genesis block as a v1.14.2 node answers `eth_getBlockByNumber(0)`: coreth's Genesis.toBlock
 * (graft/coreth/core/genesis.go) writes the genesis file's `timestamp` and `extraData` into the header, and AvalancheGo's
 * genesis files (genesis/genesis_local.json, genesis_fuji.json, genesis_mainnet.json, `cChainGenesis`) give
 * `"timestamp":"0x5FCB13D0"` (local) or `"0x0"` (Fuji, Mainnet), `"extraData":"0x00"` and a zero `mixHash`. Where Cancun
 * is active at the genesis time (local: every upgrade at 2020-12-05, the genesis's own time), Genesis.toBlock sets
 * `head.ParentBeaconRoot = new(common.Hash)`, the zero hash ("EIP-4788: the parentBeaconBlockRoot of the genesis block
 * is always the zero hash"). The genesis file's `difficulty` is "0x0", which toBlock keeps.
 * The mock's genesis time is the file's on `local`; on Fuji and Mainnet (time 0, before every upgrade) the world's
 * start (mock/README.md "Not simulated").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

const nodes: RunningMockNode[] = [];
afterAll(() => Promise.all(nodes.map((node) => node.close())));

const CHAIN_IDS = { local: 43112, fuji: 43113, mainnet: 43114 } as const;

describe('the C-Chain genesis block is the genesis file', () => {
  for (const network of ['local', 'fuji', 'mainnet'] as const)
    it(`${network}: viem reads block 0 with the genesis file's extraData and difficulty`, async () => {
      const node = await startMockNode({ port: 0, world: { network, accounts: 0 } });
      nodes.push(node);
      const { pub } = cClients(node.url, CHAIN_IDS[network]);
      const genesis = await pub.getBlock({ blockNumber: 0n });
      expect({ extraData: genesis.extraData, difficulty: genesis.difficulty }).toEqual({
        extraData: '0x00',
        difficulty: 0n,
      });
    });

  it("local: block 0 has the genesis file's timestamp, 0x5FCB13D0", async () => {
    const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(node);
    const { pub } = cClients(node.url);
    expect((await pub.getBlock({ blockNumber: 0n })).timestamp).toBe(0x5fcb13d0n);
  });

  it('local: block 0 has the zero mixHash and the zero parentBeaconBlockRoot', async () => {
    const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    nodes.push(node);
    const { pub } = cClients(node.url);
    const raw = (await pub.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as unknown as {
      mixHash: string;
      parentBeaconBlockRoot?: string;
    };
    const zero = `0x${'00'.repeat(32)}`;
    expect({ mixHash: raw.mixHash, parentBeaconBlockRoot: raw.parentBeaconBlockRoot }).toEqual({
      mixHash: zero,
      parentBeaconBlockRoot: zero,
    });
  });
});
