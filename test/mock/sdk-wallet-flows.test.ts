/**
 * Flows of @avalanche-sdk/client's wallet that sdk-client.test.ts does not take, against a Fuji world (the SDK's
 * wallet knows Mainnet's and Fuji's chain IDs only): X → P → X with its X-Chain and P-Chain exports and imports, a
 * send on the X-Chain, a delegation to a current validator, a subnet created and a chain on it. Each tx is built,
 * signed, issued and waited for by the SDK as it would be against a node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { fujiWallet, fundedKey } from './sdk-fuji-wallet.ts';

let node: RunningMockNode;
let privateKey: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 2 } });
  privateKey = await fundedKey(node);
});
afterAll(() => node?.close());

const NANO = 1_000_000_000n;
const sdk = () => fujiWallet(node.url, privateKey);
const wallet = () => sdk().wallet;
const client = () => sdk().client;
const X = () => sdk().account.getXPAddress('X', 'fuji');
const P = () => sdk().account.getXPAddress('P', 'fuji');
const send = (prepared: Parameters<ReturnType<typeof sdk>['send']>[0]) => sdk().send(prepared);

async function balances() {
  const c = client();
  const [x, p] = await Promise.all([
    c.xChain.getBalance({ address: X(), assetID: 'AVAX' }),
    c.pChain.getBalance({ addresses: [P()] }),
  ]);
  return { x: BigInt(x.balance), p: BigInt(p.balance) };
}

describe('@avalanche-sdk/client wallet flows on the mock (Fuji)', () => {
  it('moves AVAX X → P and back: each side pays its own fee', async () => {
    const w = wallet();
    const before = await balances();
    await send(
      await w.xChain.prepareExportTxn({
        destinationChain: 'P',
        exportedOutputs: [{ addresses: [P()], amount: 5n * NANO }],
      }),
    );
    await send(await w.pChain.prepareImportTxn({ sourceChain: 'X', importedOutput: { addresses: [P()] } }));
    const middle = await balances();
    expect(before.x - middle.x).toBeGreaterThan(5n * NANO);
    expect(middle.p - before.p).toBeGreaterThan(4n * NANO);
    expect(middle.p - before.p).toBeLessThan(5n * NANO);

    await send(
      await w.pChain.prepareExportTxn({
        destinationChain: 'X',
        exportedOutputs: [{ addresses: [X()], amount: 2n * NANO }],
      }),
    );
    const txID = await send(
      await w.xChain.prepareImportTxn({ sourceChain: 'P', importedOutput: { addresses: [X()] } }),
    );
    expect(await client().xChain.getTxStatus({ txID })).toMatchObject({ status: 'Accepted' });
    const after = await balances();
    expect(middle.p - after.p).toBeGreaterThan(2n * NANO);
    expect(after.x - middle.x).toBeGreaterThan(NANO);
    expect(after.x - middle.x).toBeLessThan(2n * NANO);
  });

  it('sends AVAX on the X-Chain to another account', async () => {
    const w = wallet();
    const [, other] = ((await node.dev.listAccounts()) as { accounts: { xAddress: string }[] }).accounts;
    const to = other!.xAddress;
    const balanceOf = async (address: string) =>
      BigInt((await client().xChain.getBalance({ address, assetID: 'AVAX' })).balance);
    const before = await balanceOf(to);
    await send(await w.xChain.prepareBaseTxn({ outputs: [{ addresses: [to], amount: 3n * NANO }] }));
    expect((await balanceOf(to)) - before).toBe(3n * NANO);
  });

  it('delegates to a current Primary Network validator; getCurrentValidators lists the delegation', async () => {
    const w = wallet();
    const c = client();
    const { validators } = await c.pChain.getCurrentValidators({});
    const chainTime = BigInt(Math.floor(Date.parse((await c.pChain.getTimestamp()).timestamp) / 1000));
    // A validator that stays at least 3 more days: Fuji's minimum staking period is one day.
    const validator = validators.find((v) => BigInt(v.endTime) > chainTime + 3n * 86_400n);
    expect(validator).toBeDefined();
    const end = chainTime + 2n * 86_400n;
    const txID = await send(
      await w.pChain.prepareAddPermissionlessDelegatorTxn({
        // The SDK reads this amount in nAVAX, whatever its name says: 1 AVAX, Fuji's minimum delegation.
        stakeInAvax: NANO,
        nodeId: validator!.nodeID,
        end,
        rewardAddresses: [P()],
      }),
    );
    expect(await c.pChain.getTxStatus({ txID })).toMatchObject({ status: 'Committed' });
    const after = await c.pChain.getCurrentValidators({ nodeIDs: [validator!.nodeID] });
    const delegators = (after.validators[0] as { delegators?: { txID: string; weight: string }[] }).delegators;
    expect(delegators?.find((d) => d.txID === txID)?.weight).toBe(String(NANO));
  });

  it('creates a subnet it owns and a chain on it', async () => {
    const w = wallet();
    const c = client();
    const subnetID = await send(await w.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [P()] } }));
    const chain = await w.pChain.prepareCreateChainTxn({
      subnetId: subnetID,
      vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
      chainName: 'flows',
      genesisData: { config: { chainId: 99_999 } },
      subnetAuth: [0],
    });
    const chainID = await send(chain);
    const { blockchains } = await c.pChain.getBlockchains();
    expect(blockchains.find((b: { id: string }) => b.id === chainID)).toMatchObject({ subnetID, name: 'flows' });
    expect(await c.pChain.getBlockchainStatus({ blockchainId: chainID })).toMatchObject({ status: 'Created' });
  });
});
