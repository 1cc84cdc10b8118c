/**
 * Every example of every method, through the generated client, over real HTTP, against the mock node: the params on
 * the wire are the example's params and the client returns exactly the example's result. Stateful examples first
 * replay the calls that lead to them (the user exists before it is exported, the profiler runs before it stops).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as client from '../../generated/client/dist/index.js';
import { loadModel } from '../../generators/pipeline.ts';
import type { MethodModel } from '../../generators/model/types.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const model = loadModel('openrpc');

const CLIENTS: Record<string, new (options: object) => object> = {
  'x-chain': client.XChainClient,
  'x-wallet': client.XWalletClient,
  'avm-static': client.AvmStaticClient,
  'p-chain': client.PChainClient,
  admin: client.AdminClient,
  keystore: client.KeystoreClient,
  info: client.InfoClient,
  health: client.HealthClient,
};

/** Calls (method, example index) that bring a fresh node to the state an example shows. */
const BEFORE: Record<string, Array<[string, number]>> = {
  'keystore.deleteUser': [['keystore.importUser', 0]],
  'keystore.exportUser': [['keystore.importUser', 0]],
  'keystore.listUsers/one user': [['keystore.createUser', 0]],
  'admin.getChainAliases/chain aliased with admin.aliasChain': [['admin.aliasChain', 0]],
  'admin.stopCPUProfiler': [['admin.startCPUProfiler', 0]],
  'admin.loadVMs/nothing new': [['admin.loadVMs', 0]],
};

function findMethod(name: string): { endpoint: string; method: MethodModel } {
  for (const endpoint of model.endpoints) {
    const method = endpoint.methods.find((m) => m.name === name);
    if (method) return { endpoint: endpoint.name, method };
  }
  throw new Error(`no method ${name}`);
}

// The development controls (`x-mock-only`) answer from the mock's world once the mock implements them; until then
// the mock does not serve /ext/dev at all.
const served = model.endpoints.filter((endpoint) => endpoint.document['x-mock-only'] !== true);
const cases = served.flatMap((endpoint) =>
  endpoint.methods.flatMap((method) => method.examples.map((example, index) => ({ endpoint: endpoint.name, method, example, index }))),
);

describe('round trip of every example through the generated client', () => {
  let node: RunningMockNode | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function call(endpoint: string, method: MethodModel, params: Record<string, unknown>, wire: unknown[]) {
    const fetch = (url: string, init: { body: string }) => {
      wire.push(JSON.parse(init.body));
      return globalThis.fetch(url, init as RequestInit);
    };
    const instance = new CLIENTS[endpoint]!({ baseUrl: node!.url, fetch }) as Record<string, (...args: unknown[]) => Promise<unknown>>;
    return method.params.length > 0 ? instance[method.shortName]!(params) : instance[method.shortName]!();
  }

  it.each(cases.map((c) => [`${c.method.name} / ${c.example.name}`, c] as const))('%s', async (_title, { endpoint, method, example }) => {
    node = await startMockNode({ port: 0, validateResults: true });
    for (const [name, index] of BEFORE[`${method.name}/${example.name}`] ?? BEFORE[method.name] ?? []) {
      const before = findMethod(name);
      await call(before.endpoint, before.method, before.method.examples[index]!.params, []);
    }
    const wire: Array<{ method: string; params: unknown }> = [];
    const result = await call(endpoint, method, example.params, wire);
    expect(wire).toHaveLength(1);
    expect(wire[0]!.method).toBe(method.name);
    expect(wire[0]!.params).toEqual(example.params);
    expect(result).toEqual(example.result);
  });

  it('covers every method of the spec', () => {
    expect(new Set(cases.map((c) => c.method.name)).size).toBe(served.reduce((n, e) => n + e.methods.length, 0));
  });
});
