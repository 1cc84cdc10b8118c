/** The mock's development controls (`x-mock-only`) are never sent to a node, not even with writes included. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { listen } from '../support/rpc.ts';

const called: string[] = [];
// A node that serves nothing but records what it was asked, with the node's answer to an unknown service.
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  server = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: unknown; method: string };
      called.push(method);
      const error = { code: -32000, message: `rpc: can't find service "${method}"`, data: null };
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ jsonrpc: '2.0', error, id }));
    });
  });
});
afterAll(() => server.close());

it('skips every dev.* method and never calls one', async () => {
  const model = loadSpecModel();
  const validator = new SpecValidator(model);
  const report = await runConformance({ url: server.url, validator, includeWrites: true, methods: /^(dev|info)\./ });
  const dev = report.results.filter((r) => r.method.startsWith('dev.'));
  const devMethods = model.endpoints.find((e) => e.name === 'dev')!.methods.length;
  expect(devMethods).toBeGreaterThan(20);
  expect(dev.length).toBe(devMethods);
  for (const result of dev)
    expect([result.status, result.reason]).toEqual([
      'SKIP',
      'served only by the mock node (x-mock-only), never by a node',
    ]);
  expect(called.filter((m) => m.startsWith('dev.'))).toEqual([]);
  // The Info reads beside them are called.
  expect(called).toContain('info.getNetworkID');
});
