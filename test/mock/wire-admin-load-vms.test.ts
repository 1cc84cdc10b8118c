/**
 * admin.loadVMs of a node without plugins, in v1.14.2's words. The node always has a plugin directory (config/config.go
 * getPluginDir creates the default one; a given one must exist), loads what it holds at start-up (node/node.go:1255),
 * and each call rescans it (vms/registry/vm_registry.go Reload, vm_getter.go Get): with nothing in it, no VM is new
 * and none failed. api/admin/service.go:326 answers `newVMs` from ids.GetRelevantAliases, a map made even when empty
 * (`{}`, ids/aliases.go:127), and `failedVMs` with `omitempty`, so an empty map is left out (:328).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node.close());

const loadVMs = async () =>
  JSON.parse(
    (
      await send(`${node.url}/ext/admin`, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.loadVMs', params: {} }),
      })
    ).text,
  );

describe('admin.loadVMs without plugins', () => {
  it('finds nothing new and leaves failedVMs out, on the first call as on every other', async () => {
    for (let call = 0; call < 3; call++)
      expect(await loadVMs()).toStrictEqual({ jsonrpc: '2.0', result: { newVMs: {} }, id: 1 });
  });
});
