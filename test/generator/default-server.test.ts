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
