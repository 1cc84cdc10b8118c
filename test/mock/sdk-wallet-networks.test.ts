/**
 * The mock package's wallet (`node.wallet(i)`) where wallet.test.ts does not take it: on the Fuji and Mainnet worlds
 * (their own HRPs, chain IDs and fees), with each account's funds split over several UTXOs, round a full circle
 * X → P → C → X, each hop's export and import issued and waited for by the wallet.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';

const AVAX = 1_000_000_000n;
const nodes: MockNodeHandle[] = [];
afterAll(async () => {
  for (const node of nodes) await node.close();
});

describe.each(['fuji', 'mainnet'] as const)('the wallet on %s, five UTXOs per account', (network) => {
  it('moves AVAX X → P → C → X; each chain ends with what arrived less its fees', async () => {
    const node = await startMockNode({ network, accounts: 1, utxosPerAccount: 5 });
    nodes.push(node);
    const wallet = node.wallet(node.keys.length - 1);
    expect(wallet.address.X).toMatch(network === 'fuji' ? /^X-fuji1/ : /^X-avax1/);
    const start = { x: await wallet.balance('X'), p: await wallet.balance('P'), c: await wallet.balance('C') };
    expect(start.x).toBe(2_500n * AVAX);

    await wallet.exportTo('X', 'P', 100n * AVAX);
    await wallet.importFrom('X', 'P');
    const p = await wallet.balance('P');
    expect(p - start.p > 99n * AVAX && p - start.p < 100n * AVAX).toBe(true);

    await wallet.exportTo('P', 'C', 50n * AVAX);
    await wallet.importFrom('P', 'C');
    const c = await wallet.balance('C');
    // On C in wei: the 50 AVAX less the import's fee.
    expect(c - start.c > 49n * AVAX * AVAX && c - start.c < 50n * AVAX * AVAX).toBe(true);

    await wallet.exportTo('C', 'X', 20n * AVAX);
    await wallet.importFrom('C', 'X');
    const x = await wallet.balance('X');
    expect(start.x - x > 80n * AVAX && start.x - x < 81n * AVAX).toBe(true);
    expect(c - (await wallet.balance('C'))).toBeGreaterThan(20n * AVAX * AVAX);
  });
});
