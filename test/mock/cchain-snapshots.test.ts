/**
 * viem's test client's snapshot/revert in both modes, as a Hardhat or Foundry test suite leans on them: a revert
 * consumes the snapshot it went back to (and every later one), which is why Hardhat's takeSnapshot().restore() and
 * loadFixture take a fresh snapshot after each revert.
 */
import { http, type Hex, createPublicClient, createTestClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

const TO: Hex = '0x00000000000000000000000000000000000ad9c0';

describe.each<'anvil' | 'hardhat'>(['anvil', 'hardhat'])('snapshots in %s mode', (mode) => {
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  });
  afterAll(() => node?.close());

  const rpcUrl = () => `${node.url}/ext/bc/C/rpc`;
  const test = () => createTestClient({ mode, transport: http(rpcUrl()) });
  const eth = () => createPublicClient({ transport: http(rpcUrl()) });
  // viem's testClient.revert drops the answer; the boolean is what takeSnapshot().restore() reads.
  const revert = (id: Hex) => test().request({ method: 'evm_revert', params: [id] }) as Promise<unknown>;
  const transfer = async (value: bigint) => {
    const { pub, wallet } = cClients(node.url);
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value }) });
  };

  it('a later snapshot is gone once an earlier one is reverted to', async () => {
    const first = await test().snapshot();
    await transfer(1n);
    const second = await test().snapshot();
    expect(await revert(first)).toBe(true);
    expect(await revert(second)).toBe(false);
  });

  // A snapshot is used up by the revert to it:
  // - anvil: foundry crates/anvil/src/eth/backend/mem/mod.rs revert_state_snapshot ends with
  //   `self.db.write().await.revert_state(id, RevertStateSnapshotAction::RevertRemove)`, so evm_revert to the same
  //   id again finds nothing and answers false.
  // - Hardhat: EDR crates/edr_provider/src/data.rs revert_to_snapshot takes `self.snapshots.split_off(&snapshot_id)`
  //   and removes the id from what it split off ("they can only be used once"); hardhat-network-helpers
  //   src/helpers/takeSnapshot.ts restore() calls evm_revert then "re-take[s] the snapshot so that `restore` can be
  //   called again", and throws InvalidSnapshotError when evm_revert answers false.
  // The mock's evm_revert and anvil_revert use the snapshot up (mock/cchain/dev-rpc-handlers.ts); its own dev.revert on
  // /ext/dev keeps it.
  it('a snapshot serves one revert: reverting to it again answers false and leaves the state alone', async () => {
    const before = await eth().getBalance({ address: TO });
    const id = await test().snapshot();
    await transfer(5n);
    expect(await revert(id)).toBe(true);
    expect(await eth().getBalance({ address: TO })).toBe(before);
    await transfer(7n);
    expect(await revert(id)).toBe(false);
    expect(await eth().getBalance({ address: TO })).toBe(before + 7n);
  });
});
