/**
 * The field's shapes end to end, beyond what the corpus test checks for every document: a namespaced document's client
 * calls through its namespaces over real HTTP, and a foreign document's examples that do not validate stay out of
 * every artifact.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { listen } from '../support/rpc.ts';

const out = mkdtempSync(join(tmpdir(), 'field-shapes-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function generated(spec: string) {
  const model = loadModel(spec);
  const files = await renderArtifacts(model);
  const dir = join(out, spec.replace(/\W+/g, '-'));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  return { model, files, dir };
}

describe('the field’s shapes', () => {
  it('a namespaced document: client.fraud.subscribe() is fraud.Subscribe, over HTTP, to handlers grouped alike', {
    timeout: 120_000,
  }, async () => {
    const { dir } = await generated('test/fixtures/field/namespaced');
    const server = await import(pathToFileURL(join(dir, 'server/dist/index.js')).href);
    const { NodeApiClient } = await import(pathToFileURL(join(dir, 'client/dist/index.js')).href);
    const endpoint = server.createNodeApiEndpoint(
      server.exampleHandlers(server.nodeApiDocument, server.nodeApiMethods),
    ) as { node: RequestListener };
    const http = await listen(endpoint.node);
    try {
      const client = new NodeApiClient({ baseUrl: http.url });
      expect(await client.fraud.subscribe({ proofType: 'badencoding' })).toBe('0x1');
      expect(await client.fraudSubscribe({ proofType: 'badencoding' })).toBe('0x1');
      expect(Object.keys(client.header)).toEqual(['subscribe']);
      expect(typeof client.rpc.discover).toBe('function');
    } finally {
      await http.close();
    }
    // The server's handlers, grouped as the client is.
    const grouped = server.createNodeApiEndpoint(
      server.nodeApiHandlersOf({
        fraud: { subscribe: ({ proofType }: { proofType: string }) => `0x${proofType.length}` },
      }),
    ) as { node: RequestListener };
    const http2 = await listen(grouped.node);
    try {
      const client = new NodeApiClient({ baseUrl: http2.url });
      expect(await client.fraud.subscribe({ proofType: 'badencoding' })).toBe('0x11');
    } finally {
      await http2.close();
    }
  });

  it('examples that do not validate are advice, and no artifact shows them', { timeout: 120_000 }, async () => {
    const { model, files } = await generated('test/fixtures/field/wrong-examples');
    expect(model.advice?.map((a) => `${a.method} ${a.pointer}: ${a.message}`)).toEqual([
      'lock_acquire /methods/0/examples/0/params/0/value: must be string',
      'lock_acquire /methods/0/examples/0/params: example lacks the required param "lock_hint"',
      'lock_acquire /methods/0/examples/0/result/value: must match pattern "^0x[0-9a-f]+$"',
    ]);
    const text = files.map((file) => String(file.contents)).join('\n');
    expect(text).toContain('0xabc');
    expect(text).not.toContain('0xABC');
  });
});
