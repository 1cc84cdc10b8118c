/**
 * admin.aliasChain's refusals in v1.14.2's words: the chain manager is an ids.Aliaser (chains/manager.go:126), whose
 * errors wrap sentinel errors since v1.11.0 (ids/aliases.go:13).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRpc } from '../support/rpc.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node.close());

const aliasChain = (chain: string, alias: string) =>
  callRpc(`${node.url}/ext/admin`, 'admin.aliasChain', { chain, alias });

describe('admin.aliasChain refusals', () => {
  it('an unknown chain: ids/aliases.go:71 `%w: %s` of "there is no ID with alias"', async () => {
    expect((await aliasChain('nope', 'other')).error).toEqual({
      code: -32000,
      message: 'there is no ID with alias: nope',
      data: null,
    });
  });

  it('an alias in use: ids/aliases.go:105 `%w: %s` of "alias already mapped to an ID"', async () => {
    expect(await aliasChain('X', 'mine')).toEqual({ result: {} });
    expect((await aliasChain('P', 'mine')).error).toEqual({
      code: -32000,
      message: 'alias already mapped to an ID: mine',
      data: null,
    });
  });
});
