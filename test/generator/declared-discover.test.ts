/**
 * A document that declares its own `rpc.discover` has the generated server answer it through that declaration: the
 * params it takes, validated as the document says, and its result checked against the declared schema when results
 * are validated; the bundled document is the answer unless the endpoint is created with `discover: false`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRpc, listen } from '../support/rpc.ts';
import { importServerPackage } from '../support/server-package.ts';

const out = mkdtempSync(join(tmpdir(), 'declared-discover-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const discoverWith = (required: string[]) => ({
  name: 'rpc.discover',
  paramStructure: 'by-position',
  params: [{ name: 'verbose', schema: { type: 'boolean' } }],
  result: { name: 'OpenRPC Schema', schema: { type: 'object', required } },
});
const documentWith = (required: string[]) => ({
  openrpc: '1.2.6',
  info: { title: 'Declared', version: '1.0.0' },
  methods: [{ name: 'ping', params: [], result: { name: 'pong', schema: { type: 'string' } } }, discoverWith(required)],
});

interface DeclaredServer {
  declaredDocument: object;
  createDeclaredEndpoint: (handlers: object, options?: object) => { node: Parameters<typeof listen>[0] };
}

async function serverOf(tag: string, required: string[]): Promise<DeclaredServer> {
  const spec = join(out, tag);
  mkdirSync(spec);
  writeFileSync(join(spec, 'declared.json'), JSON.stringify(documentWith(required)));
  return importServerPackage<DeclaredServer>(spec, join(out, `${tag}-server`), tag);
}

/** Each call's answer from an endpoint created with `options`, served on 127.0.0.1. */
async function answers(server: DeclaredServer, options: object, calls: unknown[]) {
  const http = await listen(server.createDeclaredEndpoint({ discover: () => ({ own: true }) }, options).node);
  try {
    const results = [];
    for (const params of calls) results.push(await callRpc(http.url, 'rpc.discover', params));
    return results;
  } finally {
    await http.close();
  }
}

describe("a document's own rpc.discover", () => {
  let server: DeclaredServer;
  beforeAll(async () => {
    server = await serverOf('matching', ['openrpc', 'methods']);
  }, 120_000);

  it('takes the params it declares, refuses others, and answers the bundled document', async () => {
    const [none, verbose, wrong] = await answers(server, {}, [[], [true], ['yes']]);
    expect(none!.result).toEqual(server.declaredDocument);
    expect(verbose!.result).toEqual(server.declaredDocument);
    expect(wrong!.error?.code).toBe(-32602);
  });

  it('is answered by its handler with discover: false', async () => {
    const [own] = await answers(server, { discover: false }, [[]]);
    expect(own!.result).toEqual({ own: true });
  });

  it('has the document checked against its declared result when results are validated', {
    timeout: 120_000,
  }, async () => {
    const [matching] = await answers(server, { validateResults: true }, [[]]);
    expect(matching!.result).toEqual(server.declaredDocument);
    const mismatched = await serverOf('mismatched', ['notInTheDocument']);
    const [refused] = await answers(mismatched, { validateResults: true }, [[]]);
    expect(refused!.error?.code).toBe(-32603);
  });
});
