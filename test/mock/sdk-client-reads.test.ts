/**
 * A dashboard on @avalanche-sdk/client 0.1.1 against a Fuji mock node: one client, many read methods of its pChain,
 * xChain, cChain and info clients, each answered without an error and in the shape the SDK types promise (the SDK
 * parses some results itself, e.g. info.acps into Maps, so a wrong field shape throws there).
 */
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheFuji } from '@avalanche-sdk/client/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { fujiWallet, fundedKey } from './sdk-fuji-wallet.ts';

let node: RunningMockNode;
const fujiClient = (url: string) =>
  createAvalancheClient({ chain: avalancheFuji, transport: { type: 'http', url: `${url}/ext/bc/C/rpc` } });
let client: ReturnType<typeof fujiClient>;
let pAddress: string;
let xAddress: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 1 } });
  client = fujiClient(node.url);
  const { account } = fujiWallet(node.url, await fundedKey(node));
  pAddress = account.getXPAddress('P', 'fuji');
  xAddress = account.getXPAddress('X', 'fuji');
});
afterAll(() => node?.close());

describe('@avalanche-sdk/client reads', () => {
  it('pChain: heights, blocks, stake, supply, fees, validators, UTXOs', async () => {
    const p = client.pChain;
    const { height } = await p.getHeight();
    expect(Number(height)).toBeGreaterThanOrEqual(0);
    const block = await p.getBlockByHeight({ height: Number(height), encoding: 'json' } as never);
    expect(block).toHaveProperty('block');
    expect((await p.getBalance({ addresses: [pAddress] })).balance).toBeDefined();
    const { utxos } = await p.getUTXOs({ addresses: [pAddress] });
    expect(utxos.length).toBeGreaterThan(0);
    const supply = await p.getCurrentSupply({} as never);
    expect(BigInt(String(supply.supply))).toBeGreaterThan(0n);
    const minStake = await p.getMinStake({ subnetID: '11111111111111111111111111111111LpoYY' } as never);
    expect(BigInt(String(minStake.minValidatorStake))).toBe(1_000_000_000n);
    const total = await p.getTotalStake({ subnetID: '11111111111111111111111111111111LpoYY' });
    expect(BigInt(String(total.weight))).toBeGreaterThan(0n);
    const state = await p.getFeeState();
    expect(BigInt(String(state.price))).toBeGreaterThan(0n);
    const config = await p.getFeeConfig();
    expect(config).toHaveProperty('weights');
    const current = await p.getCurrentValidators({});
    expect(current.validators.length).toBeGreaterThan(0);
    const sample = await p.sampleValidators({ size: 1 });
    expect(sample.validators).toHaveLength(1);
    const { timestamp } = await p.getTimestamp();
    expect(Number.isNaN(Date.parse(timestamp))).toBe(false);
    const { blockchains } = await p.getBlockchains();
    expect(blockchains.map((b) => b.name).sort()).toEqual(expect.arrayContaining(['C-Chain', 'X-Chain']));
    const { subnets } = await p.getSubnets({} as never);
    expect(subnets.length).toBeGreaterThan(0);
    expect((await p.getStakingAssetID({} as never)).assetID).toBeDefined();
  });

  it('xChain: height, blocks, balances, asset, fees, UTXOs', async () => {
    const x = client.xChain;
    const { height } = await x.getHeight();
    const block = await x.getBlockByHeight({ height: Number(height), encoding: 'json' });
    expect(block).toHaveProperty('block');
    const avax = await x.getAssetDescription({ assetID: 'AVAX' });
    expect(avax).toMatchObject({ name: 'Avalanche', symbol: 'AVAX' });
    const balance = await x.getBalance({ address: xAddress, assetID: 'AVAX' });
    expect(BigInt(String(balance.balance))).toBeGreaterThan(0n);
    // The SDK types avm.getAllBalances with `addresses`; the node takes `address` (api.JSONAddress) and refuses the
    // SDK's form with "problem parsing address ''", so an app passes the node's.
    await expect(x.getAllBalances({ addresses: [xAddress] })).rejects.toThrow(/problem parsing address ''/);
    const all = (await x.getAllBalances({ address: xAddress } as never)) as unknown as {
      balances: { asset: string; balance: bigint }[];
    };
    expect(all.balances).toEqual([{ asset: 'AVAX', balance: BigInt(String(balance.balance)) }]);
    const fee = await x.getTxFee();
    expect(BigInt(String(fee.txFee))).toBe(1_000_000n);
    const { utxos } = await x.getUTXOs({ addresses: [xAddress] });
    expect(utxos.length).toBeGreaterThan(0);
  });

  it('info: node, network, versions, VMs, peers, upgrades, ACPs', async () => {
    const info = client.info;
    expect(await info.getNetworkID()).toEqual({ networkID: '5' });
    expect(await info.getNetworkName()).toEqual({ networkName: 'fuji' });
    expect((await info.getNodeID()).nodeID).toMatch(/^NodeID-/);
    expect((await info.getNodeVersion()).version).toMatch(/^avalanchego\/1\.14\.2$/);
    expect(await info.getBlockchainID({ alias: 'X' })).toHaveProperty('blockchainID');
    expect(await info.isBootstrapped({ chain: 'P' })).toEqual({ isBootstrapped: true });
    expect((await info.getVMs()).vms).toBeDefined();
    expect((await info.peers({})).peers).toBeDefined();
    expect((await info.upgrades()).etnaTime).toBeDefined();
    const { acps } = await info.acps();
    expect(acps).toBeInstanceOf(Map);
    expect(await info.getTxFee()).toHaveProperty('txFee');
  });

  it('cChain: the chain ID and the block number', async () => {
    expect(await client.getChainId()).toBe(43113);
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
  });
});
