/**
 * OpenRPC 1.3.2, `servers`: "If the servers property is not provided, or is an empty array, the default value would be
 * a Server Object with a url value of `localhost`." A foreign document without a server is served at
 * `http://localhost/`: the generated client sends there unless told otherwise, and the docs' curl examples show it. A
 * server URL written without a scheme (`localhost:8545/rpc`, as the spec's own default is) is read as HTTP, and a
 * relative one (`/rpc`, "relative to where the document is served") keeps its path on that same default host.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';
import { listen } from '../support/rpc.ts';

const temp = mkdtempSync(join(tmpdir(), 'default-server-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Each document's `servers` (undefined: none written). */
const SERVERS: Record<string, object[] | undefined> = {
  none: undefined,
  empty: [],
  bare: [{ url: 'localhost' }],
  hostport: [{ url: 'localhost:8545/rpc' }],
  relative: [{ url: '/rpc' }],
};

let module: Record<string, new (options?: { baseUrl?: string }) => { url: string }>;
const out = join(temp, 'out');

beforeAll(async () => {
  const spec = join(temp, 'spec');
  mkdirSync(spec, { recursive: true });
  for (const [name, servers] of Object.entries(SERVERS)) {
    const document = {
      openrpc: '1.3.2',
      info: { title: name, version: '1.0.0' },
      ...(servers ? { servers } : {}),
      methods: [{ name: `${name}_get`, params: [], result: { name: 'r', schema: { type: 'string' } } }],
    };
    writeFileSync(join(spec, `${name}.json`), JSON.stringify(document));
  }
  await generate({ spec, out, artifacts: ['client', 'docs'] });
  module = await import(pathToFileURL(join(out, 'client/dist/index.js')).href);
}, 120_000);

const urlOf = (name: string) => new module[`${name[0]!.toUpperCase()}${name.slice(1)}Client`]!().url;

describe('the server of a document that names none, or names one without a host', () => {
  it.each([
    ['none', 'http://localhost/'],
    ['empty', 'http://localhost/'],
    ['bare', 'http://localhost/'],
    ['hostport', 'http://localhost:8545/rpc'],
    ['relative', 'http://localhost/rpc'],
  ])('%s: the client sends to %s, and the docs show it', (name, url) => {
    expect(urlOf(name)).toBe(url);
    expect(readFileSync(join(out, `docs/${name}.html`), 'utf8')).toContain(url);
  });
});

/**
 * OpenRPC 1.3 Method Object `servers`: "An alternative servers array to service this method." A method with a server
 * of its own is called there by the generated client, and its docs' curl example and "try it" form send there too,
 * the endpoint's variables at their defaults where the method's URL names them.
 */
describe("a method's own server", () => {
  it('is where the client sends the call and where the docs send its example', async () => {
    const spec = join(temp, 'method-spec');
    const methodOut = join(temp, 'method-out');
    mkdirSync(spec, { recursive: true });
    const seen: string[] = [];
    const http = await listen((request, response) => {
      seen.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'ok' }));
    });
    try {
      const document = {
        openrpc: '1.3.2',
        info: { title: 'own', version: '1.0.0' },
        servers: [{ url: 'http://127.0.0.1:1/main/{chain}', variables: { chain: { default: 'X' } } }],
        methods: [
          {
            name: 'own_get',
            params: [],
            servers: [{ url: `${http.url.replace(/\/$/, '')}/other/{chain}` }],
            result: { name: 'r', schema: { type: 'string' } },
            examples: [{ name: 'e', params: [], result: { name: 'r', value: 'ok' } }],
          },
        ],
      };
      writeFileSync(join(spec, 'own.json'), JSON.stringify(document));
      await generate({ spec, out: methodOut, artifacts: ['client', 'docs'] });
      const client = await import(pathToFileURL(join(methodOut, 'client/dist/index.js')).href);
      expect(await new client.OwnClient().ownGet()).toBe('ok');
      expect(seen).toEqual(['/other/X']);
      const page = readFileSync(join(methodOut, 'docs/own.html'), 'utf8');
      const target = `${http.url.replace(/\/$/, '')}/other/X`;
      const curls = page.match(/curl -X POST[^<]*/g) ?? [];
      expect(curls.length).toBeGreaterThan(0);
      for (const curl of curls) expect(curl).toContain(target);
      expect(page).toContain(`value="${http.url.replace(/\/$/, '')}" required data-node-url`);
      expect(page).toContain('name="path" type="text" value="/other/X"');
    } finally {
      await http.close();
    }
  });
});
