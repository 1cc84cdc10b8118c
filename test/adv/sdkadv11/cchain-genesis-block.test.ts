/**
 * The C-Chain's genesis block as a v1.14.2 node answers `eth_getBlockByNumber(0)`: coreth's Genesis.toBlock
 * (graft/coreth/core/genesis.go) writes the genesis file's `timestamp` and `extraData` into the header, and AvalancheGo's
 * genesis files (genesis/genesis_local.json, genesis_fuji.json, genesis_mainnet.json, `cChainGenesis`) give
 * `"timestamp":"0x5FCB13D0"` (local) or `"0x0"` (Fuji, Mainnet), `"extraData":"0x00"` and a zero `mixHash`. Where Cancun
 * is active at the genesis time (local: every upgrade at 2020-12-05, the genesis's own time), Genesis.toBlock sets
 * `head.ParentBeaconRoot = new(common.Hash)`, the zero hash ("EIP-4788: the parentBeaconBlockRoot of the genesis block
 * is always the zero hash").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../../mock/node.ts';
import { cClients } from '../../mock/c-clients.ts';

const nodes: RunningMockNode[] = [];
afterAll(() => Promise.all(nodes.map((node) => node.close())));

const GENESIS = {
  local: { id: 43112, timestamp: 0x5fcb13d0n, extraData: '0x00' },
  fuji: { id: 43113, timestamp: 0n, extraData: '0x00' },
  mainnet: { id: 43114, timestamp: 0n, extraData: '0x00' },
} as const;

describe('the C-Chain genesis block is the genesis file', () => {
  for (const network of ['local', 'fuji', 'mainnet'] as const)
    it(`${network}: viem reads block 0 with the genesis file's timestamp and extraData`, async () => {
      const node = await startMockNode({ port: 0, world: { network, accounts: 0 } });
      nodes.push(node);
      const { pub } = cClients(node.url, GENESIS[network].id);
      const genesis = await pub.getBlock({ blockNumber: 0n });
      expect({ timestamp: genesis.timestamp, extraData: genesis.extraData }).toEqual({
        timestamp: GENESIS[network].timestamp,
        extraData: GENESIS[network].extraData,
      });
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
