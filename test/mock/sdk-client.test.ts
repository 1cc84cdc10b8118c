/**
 * @avalanche-sdk/client against the mock node, unchanged: its wallet moves AVAX C → P and P → C with atomic exports
 * and imports (each signed, issued and waited for by the SDK), and its info, health, index and proposervm clients
 * read the node's answers. The wallet's network is Fuji: the SDK's wallet (0.1.1) knows the chain IDs of Mainnet and
 * Fuji only and refuses any other network ID ("Invalid network ID: 12345"), as it would refuse a real local node.
 */
import {
  createAvalancheClient,
  createAvalancheWalletClient,
  createHealthApiClient,
  createIndexApiClient,
  createInfoApiClient,
  createProposervmApiClient,
} from '@avalanche-sdk/client';
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts';
import { avalancheFuji, avalancheLocal } from '@avalanche-sdk/client/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cb58Decode } from '../../generators/formats.ts';

let node: RunningMockNode;
let local: RunningMockNode;
let privateKey: string;
beforeAll(async () => {
  local = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 1 } });
  node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 1 } });
  const [funded] = ((await node.dev.listAccounts()) as { accounts: { privateKey: string }[] }).accounts;
  // Past Fortuna (ACP-176), as Fuji is today: eth_baseFee is then the next block's base fee, the one an atomic tx's fee
  // is checked against. (Before it, the gas price oracle's estimate may be lower, and the SDK's fee too low.)
  await node.dev.setTime({ timestamp: FORTUNA_AND_AFTER });
  privateKey = `0x${Buffer.from(cb58Decode(funded!.privateKey.slice('PrivateKey-'.length))!).toString('hex')}`;
});
afterAll(async () => {
  await node?.close();
  await local?.close();
});

const account = () => privateKeyToAvalancheAccount(privateKey);
const transport = () => ({ type: 'http' as const, url: `${node.url}/ext/bc/C/rpc` });
const wallet = () => createAvalancheWalletClient({ account: account(), chain: avalancheFuji, transport: transport() });
const client = () => createAvalancheClient({ chain: avalancheFuji, transport: transport() });
/** The API clients of the local node (the SDK types `createAvalancheClient`'s only for Mainnet and Fuji). */
function localClient() {
  const options = { chain: avalancheLocal, transport: { type: 'http' as const, url: `${local.url}/ext/bc/C/rpc` } };
  return {
    info: createInfoApiClient(options),
    health: createHealthApiClient(options),
    pIndex: createIndexApiClient({ ...options, clientType: 'indexPChainBlock' }),
    pProposervm: createProposervmApiClient({ ...options, clientType: 'proposervmPChain' }),
    cProposervm: createProposervmApiClient({ ...options, clientType: 'proposervmCChain' }),
  };
}

const NANO = 1_000_000_000n;
/** 2025-06-01, after Fuji's Fortuna (2025-04-08). */
const FORTUNA_AND_AFTER = 1_748_736_000;
const P_ADDRESS = () => account().getXPAddress('P', 'fuji');

/** The funded key's AVAX on P (nAVAX) and on C (wei). */
async function balances() {
  const c = client();
  const p = await c.pChain.getBalance({ addresses: [P_ADDRESS()] });
  return { p: BigInt(p.balance), c: await c.getBalance({ address: account().getEVMAddress() }) };
}

describe('@avalanche-sdk/client against the mock node', () => {
  it('moves AVAX from P to C: an export from P, then an import on C', async () => {
    const w = wallet();
    const before = await balances();
    const exported = await w.pChain.prepareExportTxn({
      destinationChain: 'C',
      exportedOutputs: [{ addresses: [P_ADDRESS()], amount: 2n * NANO }],
    });
    const exportTx = await w.sendXPTransaction(exported);
    await w.waitForTxn(exportTx);
    const imported = await w.cChain.prepareImportTxn({
      sourceChain: 'P',
      toAddress: account().getEVMAddress(),
    });
    const importTx = await w.sendXPTransaction(imported);
    await w.waitForTxn(importTx);
    const after = await balances();
    expect(before.p - after.p).toBeGreaterThan(2n * NANO);
    // C gained the 2 AVAX less the import's fee (paid from what it imports).
    expect(after.c - before.c).toBeGreaterThan(0n);
    expect(after.c - before.c).toBeLessThan(2n * NANO * NANO);
  });

  it('moves AVAX from C to P: an export from C, then an import on P', async () => {
    const w = wallet();
    const before = await balances();
    const exported = await w.cChain.prepareExportTxn({
      destinationChain: 'P',
      fromAddress: account().getEVMAddress(),
      exportedOutput: { addresses: [P_ADDRESS()], amount: 3n * NANO },
    });
    const exportTx = await w.sendXPTransaction(exported);
    await w.waitForTxn(exportTx);
    expect(await client().cChain.getAtomicTxStatus({ txID: exportTx.txHash })).toMatchObject({ status: 'Accepted' });
    const imported = await w.pChain.prepareImportTxn({
      sourceChain: 'C',
      importedOutput: { addresses: [P_ADDRESS()] },
    });
    const importTx = await w.sendXPTransaction(imported);
    await w.waitForTxn(importTx);
    expect(await client().pChain.getTxStatus({ txID: importTx.txHash })).toMatchObject({ status: 'Committed' });
    const after = await balances();
    // C paid 3 AVAX and the export's fee; P gained 3 AVAX less the import's fee.
    expect(before.c - after.c).toBeGreaterThan(3n * NANO * NANO);
    expect(after.p - before.p).toBeGreaterThan(0n);
    expect(after.p - before.p).toBeLessThan(3n * NANO);
  });

  it('reads info and health', async () => {
    const c = localClient();
    expect(await c.info.getNetworkID()).toEqual({ networkID: '12345' });
    expect(await c.info.getNetworkName()).toEqual({ networkName: 'local' });
    expect((await c.info.getNodeID()).nodeID).toMatch(/^NodeID-/);
    expect((await c.info.getNodeVersion()).version).toMatch(/^avalanchego\/1\./);
    expect(await c.info.isBootstrapped({ chain: 'P' })).toEqual({ isBootstrapped: true });
    const { blockchainID } = await c.info.getBlockchainID({ alias: 'X' });
    expect(blockchainID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/);
    expect((await c.info.peers({ nodeIDs: [] })).peers.length).toBeGreaterThan(0);
    expect((await c.info.getVMs()).vms).toBeTruthy();
    expect((await c.info.upgrades()).apricotPhase1Time).toBeTruthy();
    expect(await c.info.acps()).toHaveProperty('acps');
    expect(await c.info.uptime()).toHaveProperty('rewardingStakePercentage');
    expect(await c.info.getTxFee()).toHaveProperty('txFee');
    expect((await c.health.health({})).healthy).toBe(true);
    expect((await c.health.liveness()).healthy).toBe(true);
    expect((await c.health.readiness({})).healthy).toBe(true);
  });

  it('reads the indexes and proposervm', async () => {
    const c = localClient();
    const last = await c.pIndex.getLastAccepted({ encoding: 'hex' });
    expect(await c.pIndex.getIndex({ id: last.id, encoding: 'hex' })).toEqual({ index: last.index });
    // The SDK's type asks for endIndex (0.1.1); the node reads numToFetch, and refuses a range of none.
    await expect(c.pIndex.getContainerRange({ startIndex: 0, endIndex: 1, encoding: 'hex' })).rejects.toThrow(
      'numToFetch must be in [1,1024] but is 0',
    );
    const range = await c.pIndex.getContainerRange({ startIndex: 0, numToFetch: 2, encoding: 'hex' } as never);
    expect(range.containers[0]?.index).toBe('0');
    expect(await c.pProposervm.getProposedHeight()).toHaveProperty('height');
    expect(await c.pProposervm.getCurrentEpoch()).toHaveProperty('number');
    expect(await c.cProposervm.getProposedHeight()).toHaveProperty('height');
  });
});
