/**
 * The mock as it was before it simulated a network, kept as a wrong node for the coherence rows of `npm run conform`:
 * each method answers on its own, from the spec's examples or a schema-valid answer built per request, so every
 * answer is well formed and no two agree. A coherence row that passes against it checks nothing.
 */
import * as server from '../../generated/server/dist/index.js';
import { MethodAnswers } from './synthetic/answers.ts';
import { mockModel } from '../../mock/spec.ts';
import { listen } from '../support/rpc.ts';

const ENDPOINTS = [
  ['x-chain', '/ext/bc/X', server.createXChainEndpoint, server.xChainMethods, 'X'],
  ['p-chain', '/ext/bc/P', server.createPChainEndpoint, server.pChainMethods, 'P'],
  ['admin', '/ext/admin', server.createAdminEndpoint, server.adminMethods, 'X'],
] as const;

export async function startSyntheticNode(): Promise<{ url: string; close: () => Promise<void> }> {
  const model = mockModel();
  const routes: Record<string, server.Endpoint> = {};
  for (const [name, path, create, methods, chain] of ENDPOINTS) {
    const endpoint = model.endpoints.find((e) => e.name === name)!;
    const handlers: Record<string, (params: Record<string, unknown>) => unknown> = {};
    for (const spec of methods) {
      const answers = new MethodAnswers(model, endpoint.methods.find((m) => m.name === spec.name)!, spec, {
        chain,
        hrp: 'avax',
      });
      handlers[spec.handler] = (params) => answers.answer(params);
    }
    routes[path] = (create as (handlers: never) => server.Endpoint)(handlers as never);
  }
  return listen(server.createRouter(routes).node);
}
