/**
 * The wallet on the C-Chain, over the node's HTTP API as a user's suite would use it: an EVM transfer signed with the
 * funded key (read back with viem, in wei), exports and imports between C and X and between C and P in both
 * directions (balances in wei on C and nAVAX on X and P, moved by the amount and the fee each chain charges), and a
 * subnet converted to an L1 with validators whose BLS keys the wallet proves.
 */
import { http, type Hex, createPublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { Wallet } from '../../mock/package/wallet.ts';

const AVAX = 1_000_000_000n;
const WEI_PER_NAVAX = 1_000_000_000n;
let node: RunningMockNode;
let alice: Wallet;
let bob: Wallet;
const eth = () => createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`) });

beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { accounts: 2 } });
  const [, first, second] = node.state.dev.listAccounts().accounts;
  alice = new Wallet(node.url, first!.privateKey, node.world.network.hrp);
  bob = new Wallet(node.url, second!.privateKey, node.world.network.hrp);
  expect(alice.address.C).toBe(first!.cAddress);
});
afterAll(() => node.close());

/** nAVAX (atomic amounts) in wei (EVM balances). */
const weiOf = (nAVAX: bigint) => nAVAX * WEI_PER_NAVAX;

describe('the wallet on the C-Chain', () => {
  it('sends an EVM transfer: the recipient gains the value in wei, the sender pays it and the gas', async () => {
    const value = 3n * 10n ** 18n + 7n;
    const before = await bob.balance('C');
    const aliceBefore = await alice.balance('C');
    const hash = (await alice.send('C', bob.address.C, value)) as Hex;
    expect(await bob.balance('C')).toBe(before + value);
    expect(await eth().getBalance({ address: bob.address.C as Hex })).toBe(before + value);
    const receipt = await eth().getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(alice.address.C.toLowerCase());
    expect(await alice.balance('C')).toBe(aliceBefore - value - receipt.gasUsed * receipt.effectiveGasPrice);
    await expect(alice.send('C', 'X-local1nope', 1n)).rejects.toThrow(/is not a C-Chain \(0x…\) address/);
  });

  it('moves AVAX from C to P and back, with each chain’s fee', async () => {
    const amount = 10n * AVAX;
    const cBefore = await bob.balance('C');
    const pBefore = await bob.balance('P');
    await bob.exportTo('C', 'P', amount);
    const exportFee = cBefore - (await bob.balance('C')) - weiOf(amount);
    expect(exportFee).toBeGreaterThan(0n);
    expect(exportFee % WEI_PER_NAVAX).toBe(0n);
    await bob.importFrom('C', 'P');
    const arrived = (await bob.balance('P')) - pBefore;
    expect(arrived).toBeLessThan(amount);
    expect(arrived).toBeGreaterThan(amount - AVAX / 100n);

    const cMiddle = await bob.balance('C');
    await bob.exportTo('P', 'C', 4n * AVAX);
    await bob.importFrom('P', 'C');
    const credited = (await bob.balance('C')) - cMiddle;
    expect(credited).toBeLessThan(weiOf(4n * AVAX));
    expect(credited).toBeGreaterThan(weiOf(4n * AVAX - AVAX / 100n));
    expect(credited % WEI_PER_NAVAX).toBe(0n);
    await expect(bob.importFrom('P', 'C')).rejects.toThrow(/nothing exported from P/);
  });

  it('moves AVAX from X to C and back: X charges its flat fee on each side', async () => {
    const xBefore = await alice.balance('X');
    const cBefore = await alice.balance('C');
    const baseTxFee = node.world.config.txFee;
    await alice.exportTo('X', 'C', 5n * AVAX);
    expect(await alice.balance('X')).toBe(xBefore - 5n * AVAX - baseTxFee);
    await alice.importFrom('X', 'C');
    const credited = (await alice.balance('C')) - cBefore;
    expect(credited > weiOf(5n * AVAX - AVAX / 100n) && credited < weiOf(5n * AVAX)).toBe(true);

    const xMiddle = await alice.balance('X');
    await alice.exportTo('C', 'X', 2n * AVAX);
    await alice.importFrom('C', 'X');
    expect(await alice.balance('X')).toBe(xMiddle + 2n * AVAX - baseTxFee);
  });

  it('refuses an export the EVM balance cannot pay with coreth’s text, changing nothing', async () => {
    const before = await bob.balance('C');
    await expect(bob.exportTo('C', 'X', before / WEI_PER_NAVAX + AVAX)).rejects.toThrow(/insufficient funds/);
    expect(await bob.balance('C')).toBe(before);
    await expect(bob.exportTo('C', 'C', 1n)).rejects.toThrow(/another chain/);
  });
});

describe('the wallet converts a subnet to an L1', () => {
  it('with two validators whose keys it proves; getL1Validator answers each by its validation ID', async () => {
    const p = new PChainClient({ baseUrl: node.url });
    const subnetID = await alice.createSubnet();
    const chainID = await alice.createChain(subnetID, 'manager', cb58Encode(new Uint8Array(32).fill(7)));
    const nodeID = (fill: number) => `NodeID-${cb58Encode(new Uint8Array(20).fill(fill))}`;
    const pBefore = await alice.balance('P');
    const { txID, validationIDs } = await alice.convertSubnetToL1(subnetID, chainID, `0x${'cd'.repeat(20)}`, [
      { nodeID: nodeID(9), weight: 50n, balance: 2n * AVAX },
      { nodeID: nodeID(3), weight: 20n, balance: AVAX },
    ]);
    expect((await p.getTxStatus({ txID })).status).toBe('Committed');
    expect(await p.getSubnet({ subnetID })).toMatchObject({
      managerChainID: chainID,
      managerAddress: `0x${'cd'.repeat(20)}`,
    });
    expect(await p.getL1Validator({ validationID: validationIDs[0]! })).toMatchObject({
      nodeID: nodeID(9),
      weight: '50',
      balance: String(2n * AVAX),
      remainingBalanceOwner: { threshold: '1', addresses: [alice.address.P] },
    });
    expect(await p.getL1Validator({ validationID: validationIDs[1]! })).toMatchObject({ nodeID: nodeID(3) });
    // The balances and the fee came from the wallet's P-Chain funds.
    expect(await alice.balance('P')).toBeLessThan(pBefore - 3n * AVAX);
  });
});
