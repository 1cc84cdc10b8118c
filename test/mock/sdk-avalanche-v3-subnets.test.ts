/**
 * avalanche.js v3's P-Chain builders (the `avalanche` package, 3.16.0) against the local network: a subnet created,
 * a chain on it and a subnet validator added, each signed by v3's keychain (its subnet auth too) and paid with v3's
 * static fees (over the dynamic fee: the rest is burned); v3's AddValidatorTx and AddDelegatorTx are refused in
 * the node's words (post-Durango). v3 checks start times against the wall clock, so the world's clock is moved to it.
 */
import { Avalanche, BN } from 'avalanche';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ_PRIVATE_KEY, NETWORKS } from '../../mock/world/networks.ts';
import { pRefusal } from './refusal.ts';

const local = NETWORKS.local;
const DAY = 86_400;
let node: RunningMockNode;
let avalanche: Avalanche;
let now: number;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  avalanche = new Avalanche('127.0.0.1', Number(new URL(node.url).port), 'http', local.networkID, local.xChainID);
  now = Math.floor(Date.now() / 1000);
  await node.dev.setTime({ timestamp: now });
});
afterAll(() => node?.close());

function wallet() {
  const p = avalanche.PChain();
  const keys = p.keyChain();
  const ewoq = keys.importKey(EWOQ_PRIVATE_KEY).getAddressString();
  const utxos = async () => (await p.getUTXOs([ewoq])).utxos;
  const auth = (): [number, ReturnType<typeof p.parseAddress>][] => [[0, p.parseAddress(ewoq)]];
  return { p, keys, ewoq, utxos, auth };
}

describe('avalanche.js v3 on the P-Chain', () => {
  it('creates a subnet, a chain on it and a subnet validator; each reads back', async () => {
    const { p, keys, ewoq, utxos, auth } = wallet();
    const nodeID = 'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu';
    await node.dev.addStaker({
      nodeID,
      weight: '2000000000000',
      endTime: String(now + 30 * DAY),
      rewardAddresses: [ewoq],
    });

    const subnetID = await p.issueTx(
      (await p.buildCreateSubnetTx(await utxos(), [ewoq], [ewoq], [ewoq], 1)).sign(keys),
    );
    expect(await p.getTxStatus(subnetID)).toMatchObject({ status: 'Committed' });
    expect(await p.getSubnets([subnetID])).toEqual([{ id: subnetID, controlKeys: [ewoq], threshold: '1' }]);

    const evm = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
    const chain = await p.buildCreateChainTx(
      await utxos(),
      [ewoq],
      [ewoq],
      subnetID,
      'v3chain',
      evm,
      [],
      '{}',
      undefined,
      undefined,
      auth(),
    );
    const chainID = await p.issueTx(chain.sign(keys));
    const chains = (await p.getBlockchains()) as { id: string; name: string; subnetID: string }[];
    expect(chains.find((c) => c.id === chainID)).toMatchObject({ name: 'v3chain', subnetID });

    const added = await p.buildAddSubnetValidatorTx(
      await utxos(),
      [ewoq],
      [ewoq],
      nodeID,
      new BN(now + 60),
      new BN(now + 2 * DAY),
      new BN(10),
      subnetID,
      undefined,
      undefined,
      auth(),
    );
    const addID = await p.issueTx(added.sign(keys));
    const { validators } = (await p.getCurrentValidators(subnetID)) as { validators: object[] };
    // Post-Durango the period starts at the chain time, whatever the tx says.
    expect(validators).toMatchObject([
      { txID: addID, nodeID, weight: '10', startTime: String(now), endTime: String(now + 2 * DAY) },
    ]);
  });

  it('builds AddValidatorTx and AddDelegatorTx, which the node refuses post-Durango', async () => {
    const { p, keys, ewoq, utxos } = wallet();
    const nodeID = 'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu';
    const start = new BN(now + 60);
    const end = new BN(now + 20 * DAY);
    const validator = await p.buildAddValidatorTx(
      await utxos(),
      [ewoq],
      [ewoq],
      [ewoq],
      nodeID,
      start,
      end,
      new BN('2000000000000'),
      [ewoq],
      10,
    );
    await expect(p.issueTx(validator.sign(keys))).rejects.toThrow(
      pRefusal('AddValidatorTx is not permitted post-Durango'),
    );
    const delegator = await p.buildAddDelegatorTx(
      await utxos(),
      [ewoq],
      [ewoq],
      [ewoq],
      nodeID,
      start,
      end,
      new BN('25000000000'),
      [ewoq],
    );
    await expect(p.issueTx(delegator.sign(keys))).rejects.toThrow(
      pRefusal('AddDelegatorTx is not permitted post-Durango'),
    );
  });
});
