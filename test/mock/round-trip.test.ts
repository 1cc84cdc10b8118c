/**
 * Every example of every method, through the generated client, over real HTTP: the params on the wire are the
 * example's params and the client returns exactly the example's result. The chain APIs' examples are answered by the
 * generated server package's example handler set (the classic OpenRPC mock): the mock node answers them from its
 * simulated network instead. The admin, keystore, info and health examples describe the mock node's own starting
 * state, so they go to the mock node (but those about a chain it does not simulate), stateful ones after the calls that
 * lead to them
 * (the user exists before it is exported).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as client from '../../generated/client/dist/index.js';
import * as server from '../../generated/server/dist/index.js';
import { loadModel } from '../../generators/pipeline.ts';
import type { MethodModel } from '../../generators/model/types.ts';
import { startMockNode } from '../../mock/node.ts';
import { callRpc, listen } from '../support/rpc.ts';

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
  dev: client.DevClient,
  indexer: client.IndexerClient,
  proposervm: client.ProposervmClient,
  'c-avax': client.CAvaxClient,
};

/** Calls (method, example index) that bring a fresh node to the state an example shows. */
const BEFORE: Record<string, Array<[string, number]>> = {
  'keystore.deleteUser': [['keystore.importUser', 0]],
  'keystore.exportUser': [['keystore.importUser', 0]],
  'keystore.listUsers/one user': [['keystore.createUser', 0]],
  'admin.getChainAliases/chain aliased with admin.aliasChain': [['admin.aliasChain', 0]],
  'admin.stopCPUProfiler': [['admin.startCPUProfiler', 0]],
  'dev.revert': [['dev.snapshot', 0]],
  'dev.setSubnetOwner': [['dev.addSubnet', 0]],
  'dev.convertSubnet': [['dev.addSubnet', 0]],
  'dev.addL1Validator': [
    ['dev.addSubnet', 0],
    ['dev.convertSubnet', 0],
  ],
  'dev.setL1ValidatorBalance': [
    ['dev.addSubnet', 0],
    ['dev.convertSubnet', 0],
    ['dev.addL1Validator', 0],
  ],
};

function findMethod(name: string): { endpoint: string; method: MethodModel } {
  for (const endpoint of model.endpoints) {
    const method = endpoint.methods.find((m) => m.name === name);
    if (method) return { endpoint: endpoint.name, method };
  }
  throw new Error(`no method ${name}`);
}

const served = model.endpoints;
const cases = served.flatMap((endpoint) =>
  endpoint.methods.flatMap((method) =>
    method.examples.map((example, index) => ({ endpoint: endpoint.name, method, example, index })),
  ),
);

/** The chain endpoints on example handlers, at the node's paths. */
async function startExamplesServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const endpoint = <H>(
    create: (handlers: H) => server.Endpoint,
    document: server.OpenrpcDocument,
    methods: readonly server.MethodSpec[],
  ) => create(server.exampleHandlers<H>(document, methods));
  const router = server.createRouter({
    '/ext/bc/X': endpoint(server.createXChainEndpoint, server.xChainDocument, server.xChainMethods),
    '/ext/bc/X/wallet': endpoint(server.createXWalletEndpoint, server.xWalletDocument, server.xWalletMethods),
    '/ext/vm/avm': endpoint(server.createAvmStaticEndpoint, server.avmStaticDocument, server.avmStaticMethods),
    '/ext/bc/P': endpoint(server.createPChainEndpoint, server.pChainDocument, server.pChainMethods),
    '/ext/admin': endpoint(server.createAdminEndpoint, server.adminDocument, server.adminMethods),
    '/ext/bc/C/avax': endpoint(server.createCAvaxEndpoint, server.cAvaxDocument, server.cAvaxMethods),
    '/ext/index/P/block': endpoint(server.createIndexerEndpoint, server.indexerDocument, server.indexerMethods),
    '/ext/bc/P/proposervm': endpoint(
      server.createProposervmEndpoint,
      server.proposervmDocument,
      server.proposervmMethods,
    ),
  });
  return listen(router.node);
}

// The Info, Health and dev examples are a fresh local mock node's answers (its network, chains, node ID, peers,
// health).
const STATEFUL = new Set(['admin', 'keystore', 'info', 'health', 'dev']);
/**
 * Admin examples of what the mock node does not have: a chain the simulated network lacks (a subnet's, from the API
 * docs), a real node's configuration and database.
 */
const OTHER_CHAIN = new Set(['admin.aliasChain', 'admin.getChainAliases', 'admin.getConfig', 'admin.dbGet']);
/**
 * Admin examples of a node with plugins: the mock runs none, so its loadVMs answers `{"newVMs":{}}` as a node with an
 * empty plugin directory does (test/mock/wire-admin-load-vms.test.ts); the example of a plugin loaded and one failed
 * goes to the example handler set.
 */
const OTHER_NODE = new Set(['admin.loadVMs/one VM loaded, one failed']);

describe('round trip of every example through the generated client', () => {
  let node: { url: string; close: () => Promise<void> } | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function call(endpoint: string, method: MethodModel, params: Record<string, unknown>, wire: unknown[]) {
    const fetch = (url: string, init: { body: string }) => {
      wire.push(JSON.parse(init.body));
      return globalThis.fetch(url, init as RequestInit);
    };
    const instance = new CLIENTS[endpoint]!({ baseUrl: node!.url, fetch }) as Record<
      string,
      (...args: unknown[]) => Promise<unknown>
    >;
    return method.params.length > 0 ? instance[method.shortName]!(params) : instance[method.shortName]!();
  }

  it.each(cases.map((c) => [`${c.method.name} / ${c.example.name}`, c] as const))(
    '%s',
    async (_title, { endpoint, method, example }) => {
      node =
        STATEFUL.has(endpoint) && !OTHER_CHAIN.has(method.name) && !OTHER_NODE.has(`${method.name}/${example.name}`)
          ? await startMockNode({ port: 0, nodeVersion: 'all', validateResults: true, world: { accounts: 0 } })
          : await startExamplesServer();
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
    },
  );

  it('refuses, on the example handler set, params no example has', async () => {
    node = await startExamplesServer();
    const answer = await callRpc(`${node.url}/ext/bc/P`, 'platform.getBlockByHeight', {
      height: 123456789,
      encoding: 'hex',
    });
    expect(answer, JSON.stringify(answer)).toMatchObject({
      error: { code: -32000, message: 'platform.getBlockByHeight: no example of the spec has these params' },
    });
  });

  it('covers every method of the spec', () => {
    expect(new Set(cases.map((c) => c.method.name)).size).toBe(served.reduce((n, e) => n + e.methods.length, 0));
  });
});
