/**
 * The simulated network as the SDKs see it: avalanchejs 5.2.0 and avalanche.js v3 against the mock over HTTP. The
 * ewoq key's UTXOs decode and add up to every balance method's answer; blocks walk from the tip to genesis by parent
 * ID; validators and chains agree across methods; every "not found" is the node's error.
 */
import { createHash } from 'node:crypto';
import { avm, pvm } from '@avalabs/avalanchejs';
import { Avalanche, BN } from 'avalanche';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bech32Encode, cb58Encode, hexDecode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { NETWORKS } from '../../mock/world/networks.ts';
import { callRpc } from '../support/rpc.ts';

const EWOQ = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c';
const local = NETWORKS.local;
const address = (chain: string, hex: string, hrp = 'local') => `${chain}-${bech32Encode(hrp, Buffer.from(hex, 'hex'))}`;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, validateResults: true, world: { accounts: 3 } });
});
afterAll(() => node.close());

const rpc = (path: string, method: string, params: Record<string, unknown> = {}) =>
  callRpc(`${node.url}${path}`, method, params);

describe('avalanchejs 5.2.0', () => {
  it("decodes the ewoq key's UTXOs, whose sums are every balance method's answer", async () => {
    const x = new avm.AVMApi(node.url);
    const p = new pvm.PVMApi(node.url);
    const { utxos: xUtxos } = await x.getUTXOs({ addresses: [address('X', EWOQ)] });
    expect(xUtxos.map((u) => u.getAssetId())).toEqual([local.avaxAssetID]);
    const xSum = xUtxos.reduce((sum, u) => sum + (u.output as unknown as { amount(): bigint }).amount(), 0n);
    expect(xSum).toBe(300_000_000_000_000_000n);
    expect(BigInt((await x.getBalance({ address: address('X', EWOQ), assetID: 'AVAX' } as never)).balance)).toBe(xSum);
    const all = await x.getAllBalances({ address: address('X', EWOQ) } as never);
    expect(all.balances).toEqual([{ asset: 'AVAX', balance: String(xSum) }]);

    const { utxos: pUtxos } = await p.getUTXOs({ addresses: [address('P', EWOQ)] });
    const pSum = pUtxos.reduce((sum, u) => sum + (u.output as unknown as { amount(): bigint }).amount(), 0n);
    expect(pSum).toBe(30_000_000_000_000_000n);
    const balance = await p.getBalance({ addresses: [address('P', EWOQ)] });
    expect([balance.balance, balance.unlocked, balance.lockedStakeable]).toEqual([pSum, pSum, 0n]);
    expect(balance.utxoIDs.map((u) => `${u.txID}:${u.outputIndex}`).sort()).toEqual(
      pUtxos.map((u) => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`).sort(),
    );
  });

  it('reads the funded accounts, the asset, the fees and the staking asset of the network', async () => {
    const x = new avm.AVMApi(node.url);
    const p = new pvm.PVMApi(node.url);
    expect(await x.getAssetDescription('AVAX')).toMatchObject({
      assetID: local.avaxAssetID,
      symbol: 'AVAX',
      denomination: '9',
    });
    expect(await x.getTxFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 1_000_000n });
    expect((await p.getStakingAssetID({ subnetID: local.pChainID } as never)).assetID).toBe(local.avaxAssetID);
    for (const account of node.world.accounts) {
      expect((await p.getBalance({ addresses: [address('P', account.address)] })).unlocked).toBe(2_500_000_000_000n);
    }
    const fees = await p.getFeeConfig();
    expect(fees.maxCapacity).toBe(1_000_000n);
  });
});

describe('avalanche.js v3', () => {
  it('agrees: XChain().getUTXOs and getBalance of the ewoq key', async () => {
    const avalanche = new Avalanche(
      '127.0.0.1',
      Number(new URL(node.url).port),
      'http',
      local.networkID,
      local.xChainID,
    );
    const xchain = avalanche.XChain();
    const set = (await xchain.getUTXOs([address('X', EWOQ)])).utxos;
    const total = set
      .getAllUTXOs()
      .reduce((sum: BN, u) => sum.add((u.getOutput() as unknown as { getAmount(): BN }).getAmount()), new BN(0));
    const balance = await xchain.getBalance(address('X', EWOQ), local.avaxAssetID);
    expect(total.toString()).toBe('300000000000000000');
    expect(new BN(balance.balance).toString()).toBe(total.toString());
  });
});

describe('coherence over RPC', () => {
  it.each([
    ['P', '/ext/bc/P', 'platform'],
    ['X', '/ext/bc/X', 'avm'],
  ])('walks the %s-Chain from its tip to genesis by parent ID', async (_chain, path, ns) => {
    const tip = Number((await rpc(path, `${ns}.getHeight`)).result.height);
    let expectedID: string | undefined;
    for (let height = tip; height >= 0; height--) {
      const { block } = (await rpc(path, `${ns}.getBlockByHeight`, { height, encoding: 'hex' })).result;
      const bytes = hexDecode(block)!;
      const id = cb58Encode(createHash('sha256').update(bytes).digest());
      if (expectedID) expect(id).toBe(expectedID);
      expect((await rpc(path, `${ns}.getBlock`, { blockID: id, encoding: 'hex' })).result.block).toBe(block);
      const header = node.world.blockIDs.get(id)!;
      expect(header.height).toBe(height);
      expectedID = header.parentID;
    }
    expect(expectedID).toBe(path === '/ext/bc/P' ? local.genesisID : cb58Encode(new Uint8Array(32)));
  });

  it('agrees on validators and chains across methods', async () => {
    const { validators } = (await rpc('/ext/bc/P', 'platform.getCurrentValidators')).result;
    expect(validators.map((v: { nodeID: string }) => v.nodeID).sort()).toEqual(
      local.stakers.map((s) => s.nodeID).sort(),
    );
    const total = validators.reduce((sum: bigint, v: { weight: string }) => sum + BigInt(v.weight), 0n);
    expect((await rpc('/ext/bc/P', 'platform.getTotalStake', {})).result.weight).toBe(String(total));
    const { height } = (await rpc('/ext/bc/P', 'platform.getHeight')).result;
    expect(Object.keys((await rpc('/ext/bc/P', 'platform.getValidatorsAt', { height })).result).sort()).toEqual(
      local.stakers.map((s) => s.nodeID).sort(),
    );
    const one = validators[0];
    const only = (await rpc('/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [one.nodeID] })).result.validators;
    expect(only).toEqual([{ ...one, delegators: [] }]);
    expect((await rpc('/ext/bc/P', 'platform.getTxStatus', { txID: one.txID })).result).toEqual({
      status: 'Committed',
    });
    const { blockchains } = (await rpc('/ext/bc/P', 'platform.getBlockchains')).result;
    expect(blockchains.map((c: { id: string }) => c.id).sort()).toEqual([local.xChainID, local.cChainID].sort());
    expect(
      (await rpc('/ext/bc/P', 'platform.validates', { subnetID: local.pChainID })).result.blockchainIDs.sort(),
    ).toEqual([local.xChainID, local.cChainID].sort());
    expect((await rpc('/ext/bc/P', 'platform.validatedBy', { blockchainID: local.xChainID })).result).toEqual({
      subnetID: local.pChainID,
    });
    expect((await rpc('/ext/admin', 'admin.getChainAliases', { chain: local.xChainID })).result.aliases).toEqual(
      expect.arrayContaining(['X', 'avm']),
    );
    expect((await rpc('/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: 'X' })).result).toEqual({
      status: 'Validating',
    });
  });

  it("answers every unknown ID, height and address with the node's error", async () => {
    const unknown = cb58Encode(createHash('sha256').update('unknown').digest());
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['/ext/bc/X', 'avm.getTx', { txID: unknown }, 'not found'],
      ['/ext/bc/X', 'avm.getBlock', { blockID: unknown }, `couldn't get block with id ${unknown}: not found`],
      ['/ext/bc/X', 'avm.getBlockByHeight', { height: 99 }, "couldn't get block at height 99: not found"],
      ['/ext/bc/X', 'avm.getAssetDescription', { assetID: 'FOO' }, "asset 'FOO' not found"],
      ['/ext/bc/X', 'avm.getAssetDescription', { assetID: unknown }, 'not found'],
      [
        '/ext/bc/X',
        'avm.getBalance',
        { address: address('X', EWOQ, 'avax'), assetID: 'AVAX' },
        `problem parsing address '${address('X', EWOQ, 'avax')}': couldn't parse address ` +
          `"${address('X', EWOQ, 'avax')}": expected hrp "local" but got "avax"`,
      ],
      [
        '/ext/bc/X',
        'avm.getBalance',
        { address: address('P', EWOQ), assetID: 'AVAX' },
        `problem parsing address '${address('P', EWOQ)}': couldn't parse address "${address('P', EWOQ)}": ` +
          `mismatched chainIDs: expected "${local.xChainID}" but got "${local.pChainID}"`,
      ],
      ['/ext/bc/P', 'platform.getTx', { txID: unknown }, "couldn't get tx: not found"],
      ['/ext/bc/P', 'platform.getBlock', { blockID: unknown }, `couldn't get block with id ${unknown}: not found`],
      ['/ext/bc/P', 'platform.getBlockByHeight', { height: 99 }, "couldn't get block at height 99: not found"],
      ['/ext/bc/P', 'platform.getSubnet', { subnetID: unknown }, 'not found'],
      ['/ext/bc/P', 'platform.getSubnet', { subnetID: local.pChainID }, "the primary network isn't a subnet"],
      [
        '/ext/bc/P',
        'platform.getMinStake',
        { subnetID: unknown },
        `failed fetching subnet transformation for ${unknown}: not found`,
      ],
      [
        '/ext/bc/P',
        'platform.getL1Validator',
        { validationID: unknown },
        `fetching L1 validator "${unknown}" failed: not found`,
      ],
      [
        '/ext/bc/P',
        'platform.validatedBy',
        { blockchainID: unknown },
        `problem retrieving blockchain "${unknown}": not found`,
      ],
      [
        '/ext/bc/P',
        'platform.getBalance',
        { addresses: [address('X', EWOQ)] },
        `couldn't parse address "${address('X', EWOQ)}": mismatched chainIDs: expected "${local.pChainID}" but got ` +
          `"${local.xChainID}"`,
      ],
    ];
    for (const [path, method, params, message] of cases)
      expect((await rpc(path, method, params)).error?.message, method).toBe(message);
    expect((await rpc('/ext/bc/X', 'avm.getTxStatus', { txID: unknown })).result).toEqual({ status: 'Unknown' });
  });
});

describe('networks', () => {
  it.each(['local', 'fuji', 'mainnet'] as const)('%s: the real IDs at the node paths, and its HRP', async (network) => {
    const other = await startMockNode({ port: 0, world: { network, accounts: 1 } });
    try {
      const id = NETWORKS[network];
      const description = await callRpc(`${other.url}/ext/bc/${id.xChainID}`, 'avm.getAssetDescription', {
        assetID: 'AVAX',
      });
      expect(description.result.assetID).toBe(id.avaxAssetID);
      const account = address('P', other.world.accounts[0]!.address, id.hrp);
      expect((await new pvm.PVMApi(other.url).getBalance({ addresses: [account] })).balance).toBe(2_500_000_000_000n);
    } finally {
      await other.close();
    }
  });
});
