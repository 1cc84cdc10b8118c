/**
 * `npm run mock` is ready when it says it listens, as anvil and Hardhat's node are: what a first tx or C-Chain call
 * would load in one piece (mock/lazy-cchain.ts START_UP_LOADS: avalanchejs, EDR's library, libsecp256k1) is loaded
 * before; a node of `startMockNode`, whose start a test suite waits for, leaves it to its idle steps.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../mock/cli-run.ts';
import { startMockNode } from '../../mock/node.ts';
import { avalancheLoaded } from '../../mock/shared/avalanche.ts';

const require = createRequire(import.meta.url);
const loaded = () => ({
  avalanchejs: avalancheLoaded(),
  edr: require.resolve('@nomicfoundation/edr') in require.cache,
  secp256k1: require.resolve('secp256k1') in require.cache,
});

describe('the loads no slice can cut', () => {
  it('are taken by the CLI before it listens, and left by startMockNode to its idle steps', async () => {
    const node = await startMockNode({ port: 0 });
    // Nothing yet: the idle steps wait for 200 ms without a request, after this turn.
    const atStart = loaded();
    await node.close();
    expect(atStart).toEqual({ avalanchejs: false, edr: false, secp256k1: false });
    const cli = await runCli(['--port', '0', '--quiet']);
    try {
      expect(loaded()).toEqual({ avalanchejs: true, edr: true, secp256k1: true });
      const answer = await fetch(`${cli.url}/ext/bc/X`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{}}',
      });
      expect(await answer.json()).toMatchObject({ result: { height: expect.stringMatching(/^\d+$/) } });
    } finally {
      await cli.close();
    }
  });
});
