/**
 * mock/package/README.md's walkthrough, run: below is its code block verbatim but for the import's specifier (the
 * package's source instead of its name), and the last test checks that the README still shows exactly this.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockNodeHandle, loadFixture, startMockNode } from '../../mock/package/index.ts';

const AVAX = 1_000_000_000n;
let node: MockNodeHandle;
beforeAll(async () => {
  node = await startMockNode({ accounts: 2 }); // keys 0 and 1 hold 2,500 AVAX on X, P and C
});
afterAll(() => node.close());

// Set up once; every later call reverts to the state right after it.
async function validator() {
  const nodeID = 'NodeID-4qwtiJBFyK5H13hQSAKjqxpmuarMuR2Sm';
  await node.wallet(0).addValidator(nodeID, 2_000n * AVAX);
  return { nodeID };
}

it('delegates to a fresh validator', async () => {
  const { nodeID } = await loadFixture(node.dev, validator);
  const bob = node.wallet(1);
  await bob.delegate(nodeID, 25n * AVAX); // built, signed and issued with avalanchejs, waited for
  expect(await bob.balance('P')).toBeLessThan(2_475n * AVAX); // the stake and the fee left
});

it('starts the next test from the fixture again', async () => {
  await loadFixture(node.dev, validator);
  expect(await node.wallet(1).balance('P')).toBe(2_500n * AVAX);
});

it("is the README's walkthrough, verbatim", async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../../mock/package/README.md', import.meta.url), 'utf8');
  const block = /## A delegation test, start to end\n[^\n]*\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const here = readFileSync(import.meta.filename, 'utf8');
  expect(block).toBeDefined();
  expect(here).toContain(block!.replace("from '@avalanche-openrpc/mock'", "from '../../mock/package/index.ts'"));
});
