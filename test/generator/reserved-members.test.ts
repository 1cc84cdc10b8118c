/**
 * A valid document whose methods are named like members JavaScript or the client needs for itself (`toJSON`, `then`,
 * Object.prototype's) generates, each renamed `call…` (names.ts): `JSON.stringify(client)` and `await client` send
 * nothing, a server without a handler for one does not answer it with Object.prototype's; and a document's own
 * `rpc.discover` keeps its typed client method while the endpoint answers it with the bundled document.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { listen } from '../support/rpc.ts';

const out = mkdtempSync(join(tmpdir(), 'reserved-members-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const method = (name: string, value: unknown) => ({
  name,
  params: [],
  result: { name: 'r', schema: { type: typeof value } },
  examples: [{ name: 'one', params: [], result: { name: 'r', value } }],
});
const DOCUMENT = {
  openrpc: '1.3.2',
  info: { title: 'Members', version: '1.0.0' },
  methods: [
    method('toJSON', 'sent'),
    method('then', 7),
    method('isPrototypeOf', true),
    method('to_string', 'ts'),
    { ...method('rpc.discover', {}), result: { name: 'document', schema: { type: 'object' } } },
  ],
};

const typeScriptFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return typeScriptFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });

async function generated() {
  const spec = join(out, 'spec');
  mkdirSync(spec);
  writeFileSync(join(spec, 'members.json'), JSON.stringify(DOCUMENT));
  const model = loadModel(spec);
  const dir = join(out, 'packages');
  for (const file of await renderArtifacts(model)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  const server = await import(pathToFileURL(join(dir, 'server/dist/index.js')).href);
  const { MembersClient } = await import(pathToFileURL(join(dir, 'client/dist/index.js')).href);
  return { model, dir, server, MembersClient };
}

/** Serves `listener` on 127.0.0.1, counting the requests that reach it. */
async function counted(listener: RequestListener) {
  const seen = { requests: 0 };
  const http = await listen((request, response) => {
    seen.requests++;
    listener(request, response);
  });
  return Object.assign(http, { seen });
}

describe('methods named like reserved members', () => {
  let packages: ReturnType<typeof generated>;
  beforeAll(() => {
    packages = generated();
  });

  it('are renamed call…; JSON.stringify(client) and await client send nothing; the client compiles', {
    timeout: 180_000,
  }, async () => {
    const { model, dir, server, MembersClient } = await packages;
    expect(model.endpoints[0]!.methods.map((m) => [m.name, m.shortName])).toEqual([
      ['toJSON', 'callToJSON'],
      ['then', 'callThen'],
      ['isPrototypeOf', 'callIsPrototypeOf'],
      ['to_string', 'callToString'],
      ['rpc.discover', 'discover'],
    ]);

    const files = typeScriptFiles(join(dir, 'client/src'));
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);

    const endpoint = server.createMembersEndpoint(
      server.exampleHandlers(server.membersDocument, server.membersMethods),
    );
    const http = await counted(endpoint.node);
    try {
      const client = new MembersClient({ baseUrl: http.url });
      JSON.stringify(client);
      expect(await Promise.resolve(client)).toBe(client);
      expect(String(client)).toBe('[object Object]');
      expect(http.seen.requests).toBe(0);
      expect(await client.callToJSON()).toBe('sent');
      expect(await client.callThen()).toBe(7);
      expect(await client.callIsPrototypeOf()).toBe(true);
      expect(await client.callToString()).toBe('ts');
      expect(http.seen.requests).toBe(4);
    } finally {
      await http.close();
    }
  });

  it("a server given no handler answers none of them with Object.prototype's member", {
    timeout: 120_000,
  }, async () => {
    const { server, MembersClient } = await packages;
    const http = await counted(server.createMembersEndpoint({}).node);
    try {
      const client = new MembersClient({ baseUrl: http.url });
      for (const call of [() => client.callIsPrototypeOf(), () => client.callToString()])
        await expect(call()).rejects.toMatchObject({ code: -32601 });
    } finally {
      await http.close();
    }
  });

  it("a document's own rpc.discover: a typed client method, answered with the bundled document", {
    timeout: 120_000,
  }, async () => {
    const { dir, server, MembersClient } = await packages;
    const handlers = { discover: () => ({ mine: true }) };
    const served = await counted(server.createMembersEndpoint(handlers).node);
    const own = await counted(server.createMembersEndpoint(handlers, { discover: false }).node);
    try {
      const discovered = await new MembersClient({ baseUrl: served.url }).discover();
      expect(discovered).toEqual(server.membersDocument);
      expect(await new MembersClient({ baseUrl: own.url }).discover()).toEqual({ mine: true });
    } finally {
      await served.close();
      await own.close();
    }
    // Nothing of the document's declaration is dropped: the client's method, its types and the handler's comment.
    const endpointSource = readFileSync(join(dir, 'client/src/members.ts'), 'utf8');
    expect(endpointSource).toMatch(/discover\(options\?: CallOptions\): Promise<RpcDiscoverResult>/);
    expect(readFileSync(join(dir, 'client/src/types.ts'), 'utf8')).toMatch(
      /export (type|interface) RpcDiscoverResult\b/,
    );
    expect(readFileSync(join(dir, 'server/src/members.ts'), 'utf8').replace(/\n\s*\* /g, ' ')).toContain(
      'its bundled document, as this declaration says, unless created with `discover: false`: only then does this ' +
        'handler run',
    );
  });
});
