/**
 * The package's loadFixture against Hardhat's (hardhat-network-helpers loadFixture.ts): an anonymous set-up is refused
 * (it would be a new fixture each call), and returning to an earlier fixture forgets the fixtures set up after it,
 * whose snapshots that revert discarded, so their next call sets them up again instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockNodeHandle, loadFixture, startMockNode } from '../../mock/package/index.ts';

let node: MockNodeHandle;
beforeAll(async () => {
  node = await startMockNode({ accounts: 1 });
});
afterAll(() => node?.close());

const TO = `0x${'f1'.repeat(20)}`;
const balance = async () => {
  const answer = await fetch(`${node.url}/ext/bc/C/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [TO, 'latest'] }),
  });
  return BigInt(((await answer.json()) as { result: string }).result);
};

describe('loadFixture', () => {
  it('refuses an anonymous set-up, as Hardhat does', async () => {
    await expect(loadFixture(node.dev, async () => 1)).rejects.toThrow(
      /^Anonymous functions cannot be used as fixtures/,
    );
  });

  it('sets up again a fixture whose snapshot a return to an earlier fixture discarded', async () => {
    let runs = 0;
    async function base() {
      await node.wallet(0).send('C', TO, 1n);
      return 'base';
    }
    async function onTop() {
      await loadFixture(node.dev, base);
      runs++;
      await node.wallet(0).send('C', TO, 10n);
      return 'onTop';
    }
    expect(await loadFixture(node.dev, base)).toBe('base');
    expect(await balance()).toBe(1n);
    expect(await loadFixture(node.dev, onTop)).toBe('onTop');
    expect(await balance()).toBe(11n);
    expect(await loadFixture(node.dev, base)).toBe('base');
    expect(await balance()).toBe(1n);
    // onTop's snapshot was taken after base's, so the revert to base discarded it: onTop is set up again.
    expect(await loadFixture(node.dev, onTop)).toBe('onTop');
    expect(await balance()).toBe(11n);
    expect(runs).toBe(2);
    expect(await loadFixture(node.dev, onTop)).toBe('onTop');
    expect(await balance()).toBe(11n);
    expect(runs).toBe(2);
  });
});
