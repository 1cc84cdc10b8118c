/**
 * @avalanche-sdk/client's P-Chain wallet flows that sdk-wallet-flows.test.ts does not take, on a Fuji world moved
 * past Etna: a Primary Network validator with a BLS signer of its own, a subnet validator added and removed, a subnet
 * converted to an L1 whose validator is topped up and disabled, and the validator's end (dev.setTime) paying its
 * stake back and its reward (once its node connected), read through the SDK's public pChain client.
 */
import { bls12_381 } from '@noble/curves/bls12-381';
import { bls, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { fujiWallet, fundedKey } from './sdk-fuji-wallet.ts';

let node: RunningMockNode;
let privateKey: string;
// 2025-06-01: after Fuji's Etna (2024-11-25), so L1 transactions are valid; the genesis stakers have ended.
const START = 1_748_736_000n;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 2 } });
  privateKey = await fundedKey(node);
  await node.dev.setTime({ timestamp: Number(START) });
});
afterAll(() => node?.close());

const NANO = 1_000_000_000n;
const DAY = 86_400n;
const sdk = () => fujiWallet(node.url, privateKey);
const P = () => sdk().account.getXPAddress('P', 'fuji');
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

function blsSigner(seed: number) {
  const secret = new Uint8Array(32).fill(seed);
  const publicKey = bls12_381.getPublicKey(secret);
  return {
    publicKey: hex(publicKey),
    proof: hex(bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(secret))),
  };
}
const nodeIdOf = (seed: number) => `NodeID-${utils.base58check.encode(new Uint8Array(20).fill(seed))}`;

async function pBalance(): Promise<bigint> {
  return BigInt((await sdk().client.pChain.getBalance({ addresses: [P()] })).balance);
}

describe('@avalanche-sdk/client P-Chain validators on the mock (Fuji, after Etna)', () => {
  it('adds a validator with its BLS signer; its end returns the stake and pays the reward', async () => {
    const { wallet, client, send } = sdk();
    const signer = blsSigner(11);
    const nodeId = nodeIdOf(0x51);
    const end = START + 15n * DAY;
    const stake = 2n * NANO;
    const txID = await send(
      await wallet.pChain.prepareAddPermissionlessValidatorTxn({
        stakeInAvax: stake,
        nodeId,
        publicKey: signer.publicKey,
        signature: signer.proof,
        end,
        rewardAddresses: [P()],
        delegatorRewardAddresses: [P()],
        delegatorRewardPercentage: 2.5,
      }),
    );
    expect(await client.pChain.getTxStatus({ txID })).toMatchObject({ status: 'Committed' });
    const { validators } = await client.pChain.getCurrentValidators({ nodeIDs: [nodeId] });
    expect(validators).toHaveLength(1);
    expect(validators[0]).toMatchObject({
      txID,
      nodeID: nodeId,
      weight: String(stake),
      endTime: String(end),
      delegationFee: '2.5000',
      signer: { publicKey: signer.publicKey, proofOfPossession: signer.proof },
    });
    const staked = await client.pChain.getStake({ addresses: [P()], validatorsOnly: false } as never);
    expect(BigInt(String(staked.staked))).toBe(stake);

    // A node staked by a transaction is up only once it connects (dev.setConnection); the reward needs 80% uptime.
    await node.dev.setConnection({ nodeID: nodeId, connected: true });
    const { potentialReward } = validators[0] as unknown as { potentialReward: string };
    const before = await pBalance();
    await node.dev.setTime({ timestamp: Number(end) });
    expect((await client.pChain.getCurrentValidators({ nodeIDs: [nodeId] })).validators).toEqual([]);
    const rewards = await client.pChain.getRewardUTXOs({ txID } as never);
    expect(Number(rewards.numFetched)).toBe(1);
    expect((await pBalance()) - before).toBe(stake + BigInt(potentialReward));
    expect(BigInt(String((await client.pChain.getStake({ addresses: [P()] } as never)).staked))).toBe(0n);
  });

  it('adds a subnet validator for a Primary Network validator and removes it', async () => {
    const { wallet, client, send } = sdk();
    const now = BigInt(Math.floor(Date.parse((await client.pChain.getTimestamp()).timestamp) / 1000));
    const signer = blsSigner(12);
    const nodeId = nodeIdOf(0x52);
    await send(
      await wallet.pChain.prepareAddPermissionlessValidatorTxn({
        stakeInAvax: NANO,
        nodeId,
        publicKey: signer.publicKey,
        signature: signer.proof,
        end: now + 20n * DAY,
        rewardAddresses: [P()],
        delegatorRewardAddresses: [P()],
        delegatorRewardPercentage: 2,
      }),
    );
    const subnetId = await send(await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [P()] } }));
    const addID = await send(
      await wallet.pChain.prepareAddSubnetValidatorTxn({
        subnetId,
        nodeId,
        weight: 7n,
        end: now + 10n * DAY,
        subnetAuth: [0],
      }),
    );
    expect(await client.pChain.getTxStatus({ txID: addID })).toMatchObject({ status: 'Committed' });
    const added = await client.pChain.getCurrentValidators({ subnetID: subnetId } as never);
    expect(added.validators).toMatchObject([{ txID: addID, nodeID: nodeId, weight: '7' }]);

    const removeID = await send(
      await wallet.pChain.prepareRemoveSubnetValidatorTxn({ subnetId, nodeId, subnetAuth: [0] }),
    );
    expect(await client.pChain.getTxStatus({ txID: removeID })).toMatchObject({ status: 'Committed' });
    expect((await client.pChain.getCurrentValidators({ subnetID: subnetId } as never)).validators).toEqual([]);
    const json = (await client.pChain.getTx({ txID: removeID, encoding: 'json' } as never)) as unknown as {
      tx: { unsignedTx: { nodeID: string; subnetID: string; subnetAuthorization: { signatureIndices: number[] } } };
    };
    expect(json.tx.unsignedTx).toMatchObject({
      nodeID: nodeId,
      subnetID: subnetId,
      subnetAuthorization: { signatureIndices: [0] },
    });
  });

  it('converts a subnet to an L1, tops its validator up and disables it', async () => {
    const { wallet, client, send } = sdk();
    const subnetId = await send(await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [P()] } }));
    const blockchainId = await send(
      await wallet.pChain.prepareCreateChainTxn({
        subnetId,
        vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
        chainName: 'l1',
        genesisData: { config: { chainId: 99_998 } },
        subnetAuth: [0],
      }),
    );
    const signer = blsSigner(13);
    const owner = { addresses: [P()], threshold: 1 };
    const convertID = await send(
      await wallet.pChain.prepareConvertSubnetToL1Txn({
        subnetId,
        blockchainId,
        managerContractAddress: '0x0feedc0de0000000000000000000000000000000',
        validators: [
          {
            nodeId: nodeIdOf(0x53),
            nodePoP: { publicKey: signer.publicKey, proofOfPossession: signer.proof },
            weight: 100n,
            initialBalanceInAvax: NANO,
            remainingBalanceOwner: owner,
            deactivationOwner: owner,
          },
        ],
        subnetAuth: [0],
      } as never),
    );
    expect(await client.pChain.getTxStatus({ txID: convertID })).toMatchObject({ status: 'Committed' });
    const subnet = await client.pChain.getSubnet({ subnetID: subnetId });
    expect(subnet).toMatchObject({ isPermissioned: false, managerChainID: blockchainId });
    const [validator] = (await client.pChain.getCurrentValidators({ subnetID: subnetId } as never))
      .validators as unknown as {
      validationID: string;
      balance: string;
    }[];
    expect(validator).toBeDefined();
    const validationId = validator!.validationID;
    const startBalance = BigInt(validator!.balance);

    await send(await wallet.pChain.prepareIncreaseL1ValidatorBalanceTxn({ balanceInAvax: NANO, validationId }));
    const topped = await client.pChain.getL1Validator({ validationID: validationId });
    expect(BigInt(String(topped.balance))).toBe(startBalance + NANO);

    const before = await pBalance();
    const disableID = await send(await wallet.pChain.prepareDisableL1ValidatorTxn({ validationId, disableAuth: [0] }));
    expect(await client.pChain.getTxStatus({ txID: disableID })).toMatchObject({ status: 'Committed' });
    const disabled = await client.pChain.getL1Validator({ validationID: validationId });
    expect(BigInt(String(disabled.balance))).toBe(0n);
    // The balance left is refunded to the remaining-balance owner (this key), less the disable's fee.
    expect((await pBalance()) - before).toBeGreaterThan(NANO);
  });
});
