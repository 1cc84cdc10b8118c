/**
 * A server URL is the spec's, but the base URL a caller passes is the caller's: whatever the spec writes after
 * `{baseUrl}`, the generated client sends its calls to the scheme, host and port the caller named. `{baseUrl}@evil.invalid/x`
 * passes OpenRPC's meta-schema, and joined to `http://127.0.0.1:9650` as text it read as user info `127.0.0.1:9650` at
 * host `evil.invalid`; a template's text after the base only ever adds a path. A variable's value is percent-encoded
 * into the path, so the same text through `{p}` stays in the path too. No request is sent: the test reads the URL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'server-url-origin-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const BASE = 'http://127.0.0.1:9650';

/** Each endpoint's server: the name of its document (and client class) and its server object. */
const SERVERS: Record<string, object> = {
  at: { name: 'n', url: '{baseUrl}@evil.invalid/x', variables: { baseUrl: { default: BASE } } },
  dot: { name: 'n', url: '{baseUrl}.evil.invalid/x', variables: { baseUrl: { default: BASE } } },
  port: { name: 'n', url: '{baseUrl}:8080/x', variables: { baseUrl: { default: BASE } } },
  bare: { name: 'n', url: '{baseUrl}rpc', variables: { baseUrl: { default: BASE } } },
  variable: {
    name: 'n',
    url: '{baseUrl}{p}',
    variables: { baseUrl: { default: BASE }, p: { default: '@evil.invalid/x' } },
  },
  path: { name: 'n', url: '{baseUrl}/ext/bc/X', variables: { baseUrl: { default: BASE } } },
};

type Client = { url: string };
let module: Record<string, new (options: { baseUrl?: string }) => Client>;

/** One spec folder, one document per server, generated once. */
beforeAll(async () => {
  const spec = join(temp, 'spec');
  const out = join(temp, 'out');
  mkdirSync(spec, { recursive: true });
  for (const [name, server] of Object.entries(SERVERS)) {
    const document = {
      openrpc: '1.3.2',
      info: { title: name, version: '1.0.0' },
      servers: [server],
      methods: [{ name: `${name}_get`, params: [], result: { name: 'r', schema: { type: 'string' } } }],
    };
    writeFileSync(join(spec, `${name}.json`), JSON.stringify(document));
  }
  await generate({ spec, out, artifacts: ['client'] });
  module = await import(pathToFileURL(join(out, 'client/dist/index.js')).href);
}, 120_000);

const clientOf = (name: string, baseUrl?: string) =>
  new module[`${name[0]!.toUpperCase()}${name.slice(1)}Client`]!(baseUrl === undefined ? {} : { baseUrl });

describe("the caller's base URL", () => {
  it.each(['at', 'dot', 'port', 'bare', 'variable'])(
    'keeps its scheme, host and port, and gains no user info, whatever the template "%s" goes on with',
    (name) => {
      for (const baseUrl of [BASE, 'http://node.example:9650', undefined]) {
        const url = new URL(clientOf(name, baseUrl).url);
        expect(url.origin).toBe(new URL(baseUrl ?? BASE).origin);
        expect(url.username + url.password).toBe('');
      }
    },
  );

  it('gets the text after it as a path ("@evil.invalid/x" stays in the path, encoded when a variable holds it)', () => {
    expect(clientOf('at').url).toBe(`${BASE}/@evil.invalid/x`);
    expect(clientOf('variable').url).toBe(`${BASE}/%40evil.invalid%2Fx`);
    expect(clientOf('bare', 'http://127.0.0.1:9650/').url).toBe(`${BASE}/rpc`);
  });

  it('is joined to a template that writes its own path as before', () => {
    expect(clientOf('path').url).toBe(`${BASE}/ext/bc/X`);
    expect(clientOf('path', 'http://127.0.0.1:9651/').url).toBe('http://127.0.0.1:9651/ext/bc/X');
  });
});
