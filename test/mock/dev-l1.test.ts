/**
 * L1 state edits on /ext/dev through the generated DevClient: a subnet made an L1, validators added with their keys,
 * weights, balances and owners, a balance set, each seen by the P-Chain's reads and by the continuous fee; bad input
 * refused with the reason and nothing changed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { proofOfPossession } from '../../mock/engine/bls.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const AVAX = 1_000_000_000n;
const nodeID = (fill: number) => `NodeID-${cb58Encode(new Uint8Array(20).fill(fill))}`;
const address = (fill: number) => `P-${bech32Encode('local', new Uint8Array(20).fill(fill))}`;
const blsKey = (fill: number) =>
  `0x${Buffer.from(proofOfPossession(new Uint8Array(32).fill(fill)).publicKey).toString('hex')}`;
const CHAIN = cb58Encode(new Uint8Array(32).fill(9));
const MANAGER = `0x${'ab'.repeat(20)}`;

let node: RunningMockNode;
let p: PChainClient;
beforeEach(async () => {
  node = await startMockNode({ port: 0, world: { accounts: 0 } });
  p = new PChainClient({ baseUrl: node.url });
});
afterEach(() => node.close());

async function l1(): Promise<string> {
  const { subnetID } = await node.dev.addSubnet({ addresses: [address(1)] });
  await node.dev.convertSubnet({ subnetID, chainID: CHAIN, address: MANAGER });
  return subnetID;
}

const validator = (subnetID: string, fill: number, extra: Record<string, unknown> = {}) => ({
  subnetID,
  nodeID: nodeID(fill),
  publicKey: blsKey(fill),
  weight: '100',
  balance: String(AVAX),
  remainingBalanceOwner: [address(2)],
  deactivationOwner: [address(3)],
  ...extra,
});

describe('an L1 in a given state, without its transactions', () => {
  it('converts a subnet and adds an active validator that getSubnet, getL1Validator and getValidatorsAt show', async () => {
    const subnetID = await l1();
    expect(await p.getSubnet({ subnetID })).toMatchObject({ managerChainID: CHAIN, managerAddress: MANAGER });
    const { validationID } = await node.dev.addL1Validator(validator(subnetID, 4));
    expect(await p.getL1Validator({ validationID })).toMatchObject({
      subnetID,
      nodeID: nodeID(4),
      publicKey: blsKey(4),
      weight: '100',
      balance: String(AVAX),
      minNonce: '0',
      remainingBalanceOwner: { threshold: '1', addresses: [address(2)] },
      deactivationOwner: { threshold: '1', addresses: [address(3)] },
    });
    const height = (await p.getHeight({})).height;
    expect(await p.getValidatorsAt({ height, subnetID })).toMatchObject({
      [nodeID(4)]: { weight: '100', publicKey: blsKey(4) },
    });
  });

  it('sets a balance: 0 deactivates the validator, more reactivates it, and the continuous fee drains it', async () => {
    const subnetID = await l1();
    const { validationID } = await node.dev.addL1Validator(validator(subnetID, 4));
    await node.dev.setL1ValidatorBalance({ validationID, balance: '0' });
    expect(await p.getL1Validator({ validationID })).toMatchObject({ balance: '0' });
    const height = (await p.getHeight({})).height;
    expect(Object.keys(await p.getValidatorsAt({ height, subnetID }))).not.toContain(nodeID(4));
    await node.dev.setL1ValidatorBalance({ validationID, balance: '5000' });
    await node.dev.increaseTime({ seconds: 1 });
    const { balance } = await p.getL1Validator({ validationID });
    expect(BigInt(balance)).toBeLessThan(5000n);
    expect(BigInt(balance)).toBeGreaterThan(0n);
  });

  it('refuses what the node would never hold, and changes nothing', async () => {
    const { subnetID: plain } = await node.dev.addSubnet({ addresses: [address(1)] });
    await expect(node.dev.addL1Validator(validator(plain, 4))).rejects.toThrow(
      `could not load subnet conversion for ${plain} with: not found`,
    );
    const subnetID = await l1();
    await expect(node.dev.convertSubnet({ subnetID, chainID: CHAIN, address: MANAGER })).rejects.toThrow(
      `subnet ${subnetID} is already an L1`,
    );
    await expect(
      node.dev.convertSubnet({ subnetID: cb58Encode(new Uint8Array(32).fill(5)), chainID: CHAIN, address: MANAGER }),
    ).rejects.toThrow(/^subnet \w+ not found$/);
    const bad: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ weight: '0' }, 'validator weight must be non-zero'],
      [{ publicKey: `0x${'00'.repeat(48)}` }, "couldn't decompress public key"],
      [{ publicKey: `0x${'ff'.repeat(48)}` }, /couldn't decompress public key|invalid public key/],
      [{ nodeID: nodeID(0) }, 'validator nodeID cannot be empty'],
      [{ balance: String(2n ** 64n) }, /unmarshal an argument|balance must be an unsigned 64-bit integer/],
      [{ remainingBalanceOwner: [`P-${bech32Encode('fuji', new Uint8Array(20))}`] }, /is not on this network/],
      [{ weight: String(2n ** 64n - 50n) }, /total weight would overflow/],
    ];
    await node.dev.addL1Validator(validator(subnetID, 4));
    const before = node.world.l1Validators.size;
    const height = (await p.getHeight({})).height;
    for (const [extra, text] of bad)
      await expect(node.dev.addL1Validator(validator(subnetID, 5, extra))).rejects.toThrow(text);
    await expect(node.dev.addL1Validator(validator(subnetID, 4))).rejects.toThrow(
      'L1 validator contains duplicate subnetID + nodeID pair',
    );
    const unknown = cb58Encode(new Uint8Array(32).fill(6));
    await expect(node.dev.setL1ValidatorBalance({ validationID: unknown, balance: '1' })).rejects.toThrow(
      `L1 validator ${unknown} not found`,
    );
    expect(node.world.l1Validators.size).toBe(before);
    expect((await p.getHeight({})).height).toBe(height);
  });

  it('in process, synchronously, with the checks the HTTP schema would otherwise make first', () => {
    const dev = node.state.dev;
    const { subnetID } = dev.addSubnet({ addresses: [address(1)] });
    expect(() => dev.convertSubnet({ subnetID, chainID: 'nope', address: MANAGER })).toThrow(
      'chainID "nope" is not an ID (cb58)',
    );
    expect(() => dev.convertSubnet({ subnetID, chainID: CHAIN, address: 'ab' })).toThrow(/0x-prefixed hex/);
    expect(() => dev.convertSubnet({ subnetID, chainID: CHAIN, address: `0x${'00'.repeat(4097)}` })).toThrow(
      'address is too long',
    );
    dev.convertSubnet({ subnetID, chainID: CHAIN, address: MANAGER });
    expect(() => dev.addL1Validator(validator(subnetID, 4, { publicKey: '0x1234' }))).toThrow(
      "couldn't decompress public key",
    );
    expect(() => dev.addL1Validator(validator(subnetID, 4, { balance: '-1' }))).toThrow(
      'balance must be an unsigned 64-bit integer, not "-1"',
    );
    const { validationID } = dev.addL1Validator(validator(subnetID, 4));
    dev.setL1ValidatorBalance({ validationID, balance: '7' });
    expect(node.world.l1Validators.get(validationID)).toMatchObject({ balance: 7n, weight: 100n });
  });

  it('survives dumpState and loadState', async () => {
    const subnetID = await l1();
    const { validationID } = await node.dev.addL1Validator(validator(subnetID, 4));
    const { state } = await node.dev.dumpState();
    await node.dev.reset();
    await expect(p.getL1Validator({ validationID })).rejects.toThrow(/not found/);
    await node.dev.loadState({ state });
    expect(await p.getL1Validator({ validationID })).toMatchObject({ nodeID: nodeID(4), balance: String(AVAX) });
    expect(await p.getSubnet({ subnetID })).toMatchObject({ managerAddress: MANAGER });
  });

  it('is undone by a revert', async () => {
    const { snapshotID } = await node.dev.snapshot();
    const subnetID = await l1();
    const { validationID } = await node.dev.addL1Validator(validator(subnetID, 4));
    await node.dev.revert({ snapshotID });
    await expect(p.getL1Validator({ validationID })).rejects.toThrow(/not found/);
    expect(node.world.subnets.get(subnetID)).toBeUndefined();
  });
});
