/**
 * eth_getChainConfig of older releases, as their coreth wrote it: before v1.11.11 from coreth's own tables (every
 * upgrade at 0 on a local network; Durango first named `dUpgradeBlockTimestamp`, Etna first `eUpgradeTime`; the
 * EIP-150 hash until v1.10.7; no Berlin, London, Shanghai or Cancun), then Cancun at Etna's time even unscheduled until
 * v1.13.1, and only when scheduled from it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const nodes: RunningMockNode[] = [];
afterAll(async () => {
  for (const node of nodes) await node.close();
});

async function chainConfig(nodeVersion: string, network = 'local'): Promise<Record<string, unknown>> {
  const node = await startMockNode({ port: 0, world: { network: network as 'local', accounts: 0 }, nodeVersion });
  nodes.push(node);
  const { text } = await send(`${node.url}/ext/bc/C/rpc`, {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getChainConfig', params: [] }),
  });
  return (JSON.parse(text) as { result: Record<string, unknown> }).result;
}

const ETHEREUM = {
  homesteadBlock: 0,
  daoForkBlock: 0,
  daoForkSupport: true,
  eip150Block: 0,
  eip155Block: 0,
  eip158Block: 0,
  byzantiumBlock: 0,
  constantinopleBlock: 0,
  petersburgBlock: 0,
  istanbulBlock: 0,
  muirGlacierBlock: 0,
};
const APRICOT_TO_BANFF = [
  'apricotPhase1',
  'apricotPhase2',
  'apricotPhase3',
  'apricotPhase4',
  'apricotPhase5',
  'apricotPhasePre6',
  'apricotPhase6',
  'apricotPhasePost6',
  'banff',
];
const zeros = (names: string[]) => Object.fromEntries(names.map((name) => [`${name}BlockTimestamp`, 0]));
const EIP150_HASH = '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0';

describe("eth_getChainConfig of a release's coreth", () => {
  it('v1.9.12 on local: the upgrades to Banff at 0, the EIP-150 hash, nothing of Cortina', async () => {
    expect(await chainConfig('v1.9.12')).toEqual({
      chainId: 43112,
      ...ETHEREUM,
      eip150Hash: EIP150_HASH,
      ...zeros(APRICOT_TO_BANFF),
    });
  });

  it('v1.10.5 on local: Durango as dUpgradeBlockTimestamp at 0', async () => {
    expect(await chainConfig('v1.10.5')).toEqual({
      chainId: 43112,
      ...ETHEREUM,
      eip150Hash: EIP150_HASH,
      ...zeros([...APRICOT_TO_BANFF, 'cortina', 'dUpgrade']),
    });
  });

  it('v1.10.17 on Fuji: no D upgrade field; v1.10.19 on Fuji: Durango not scheduled (10000-12-01)', async () => {
    const old = await chainConfig('v1.10.17', 'fuji');
    expect(old).not.toHaveProperty('eip150Hash');
    expect(old).not.toHaveProperty('dUpgradeBlockTimestamp');
    expect(old).not.toHaveProperty('durangoBlockTimestamp');
    expect(old.cortinaBlockTimestamp).toBe(Date.parse('2023-04-06T15:00:00Z') / 1000);
    expect((await chainConfig('v1.10.19', 'fuji')).durangoBlockTimestamp).toBe(253431244800);
  });

  it('v1.11.10: Etna as eUpgradeTime (0 on local, 10000-12-01 on Mainnet), no Shanghai', async () => {
    const local = await chainConfig('v1.11.10');
    expect(local).toMatchObject({ durangoBlockTimestamp: 0, eUpgradeTime: 0 });
    for (const field of ['etnaTimestamp', 'berlinBlock', 'londonBlock', 'shanghaiTime', 'cancunTime'])
      expect(local).not.toHaveProperty(field);
    const mainnet = await chainConfig('v1.11.10', 'mainnet');
    expect(mainnet).toMatchObject({
      durangoBlockTimestamp: Date.parse('2024-03-06T16:00:00Z') / 1000,
      eUpgradeTime: 253431244800,
    });
  });

  it('v1.11.13: Cancun at the unscheduled Etna, and Berlin, London and Shanghai', async () => {
    const config = await chainConfig('v1.11.13');
    expect(config).toMatchObject({
      apricotPhase1BlockTimestamp: 1607144400,
      berlinBlock: 0,
      londonBlock: 0,
      shanghaiTime: 1607144400,
      etnaTimestamp: 253399622400,
      cancunTime: 253399622400,
    });
    expect(config).not.toHaveProperty('eUpgradeTime');
  });
});
