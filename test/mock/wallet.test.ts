/**
 * The mock package's test helpers as a user's suite would use them: a wallet per funded key over the node's HTTP API
 * (send, export and import between X and P, create a subnet and a chain, add a validator, delegate to it), and a
 * fixture set up once and reverted to before each test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { loadFixture } from '../../mock/package/fixture.ts';
import { Wallet } from '../../mock/package/wallet.ts';

const AVAX = 1_000_000_000n;
let node: RunningMockNode;
let alice: Wallet;
let bob: Wallet;

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { accounts: 2 } });
  const [, first, second] = node.state.dev.listAccounts().accounts;
  alice = new Wallet(node.url, first!.privateKey, node.world.network.hrp);
  bob = new Wallet(node.url, second!.privateKey, node.world.network.hrp);
});
afterAll(() => node.close());

/** Alice stakes a new validator; the fixture every test starts from. */
async function validatorStaked() {
  const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;
  await alice.addValidator(nodeID, 2_000n * AVAX);
  return { nodeID };
}

describe('the wallet', () => {
  it('sends AVAX on both chains, and the balances move by the amount and the fee', async () => {
    const before = await bob.balance('X');
    await alice.send('X', bob.address.X, 5n * AVAX);
    expect(await bob.balance('X')).toBe(before + 5n * AVAX);
    const pBefore = await bob.balance('P');
    await alice.send('P', bob.address.P, 3n * AVAX);
    expect(await bob.balance('P')).toBe(pBefore + 3n * AVAX);
  });

  it('moves AVAX from X to P and back with an export and an import', async () => {
    const p = await bob.balance('P');
    await bob.exportTo('X', 'P', 10n * AVAX);
    await bob.importFrom('X', 'P');
    const arrived = (await bob.balance('P')) - p;
    expect(arrived > 9n * AVAX && arrived < 10n * AVAX).toBe(true);
    await expect(bob.importFrom('X', 'P')).rejects.toThrow(/nothing exported/);
  });

  it('creates a subnet it owns and a chain on it', async () => {
    const subnetID = await alice.createSubnet();
    const vmID = cb58Encode(new Uint8Array(32).fill(7));
    const chainID = await alice.createChain(subnetID, 'testchain', vmID);
    expect(node.world.chains.get(chainID)?.subnetID).toBe(subnetID);
  });
});

describe('a fixture: set up once, reverted to before each test', () => {
  it('stakes a validator and delegates to it', async () => {
    const { nodeID } = await loadFixture(node.state.dev, validatorStaked);
    await bob.delegate(nodeID, 25n * AVAX);
    const delegators = [...node.world.stakers.values()].filter((s) => s.nodeID === nodeID);
    expect(delegators).toHaveLength(2);
  });

  it('starts again from the staked validator alone', async () => {
    const { nodeID } = await loadFixture(node.state.dev, validatorStaked);
    expect([...node.world.stakers.values()].filter((s) => s.nodeID === nodeID)).toHaveLength(1);
  });
});
