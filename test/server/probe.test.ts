/** Every recorded answer of the node's RPC layer, reproduced byte for byte by the generated runtime's node profile. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../generated/server/dist/index.js';
import { probeEndpoint } from './probe-service.ts';
import { listen, send } from '../support/rpc.ts';

interface ProbeCase {
  case: string;
  httpMethod: string;
  contentType: string;
  request: string;
  status: number;
  body: string;
  respContentType: string;
  nosniff: string;
}

const cases = JSON.parse(
  readFileSync(new URL('./fixtures/rpc-layer-probe.json', import.meta.url), 'utf8'),
) as ProbeCase[];

describe('node profile reproduces the recorded RPC layer', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(createRouter({ '/ext/bc/X': probeEndpoint() }).node as never);
  });
  afterAll(() => server.close());

  it.each(cases.map((c) => [c.case, c] as const))('%s', async (_name, probe) => {
    const response = await send(server.port, {
      path: '/ext/bc/X',
      method: probe.httpMethod,
      contentType: probe.contentType === '' ? null : probe.contentType,
      body: probe.request,
    });
    expect(response.status).toBe(probe.status);
    expect(response.text).toBe(probe.body);
    expect(response.headers['content-type'] ?? '').toBe(probe.respContentType);
    expect(response.headers['x-content-type-options'] ?? '').toBe(probe.nosniff);
  });
});
