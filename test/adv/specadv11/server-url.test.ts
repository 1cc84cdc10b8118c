/**
 * A server URL is the spec's, but the base URL a caller passes is the caller's: whatever the spec writes after
 * `{baseUrl}`, the generated client must send its calls to the host the caller named. `{baseUrl}@evil.invalid/x`
 * passes OpenRPC's meta-schema; the client joins the caller's base URL and that path as text, so
 * `http://127.0.0.1:9650` + `@evil.invalid/x` reads as user info `127.0.0.1:9650` at host `evil.invalid`. A
 * variable's value is percent-encoded into the path (so the same text through `{p}` stays in the path); the literal
 * text of the template must not be able to do what a variable cannot. No request is sent: the test reads the URL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'specadv11-url-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

type Client = { url: string };

/** Generates the client of a one-method document served at `server` and constructs it with the caller's base URL. */
async function clientFor(name: string, server: object): Promise<Client> {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(spec, { recursive: true });
  const document = {
    openrpc: '1.3.2',
    info: { title: 'Url', version: '1.0.0' },
    servers: [server],
    methods: [{ name: 'url_get', params: [], result: { name: 'r', schema: { type: 'string' } } }],
  };
  writeFileSync(join(spec, 'p.json'), JSON.stringify(document));
  await generate({ spec, out, artifacts: ['client'] });
  const module = await import(pathToFileURL(join(out, 'client/dist/index.js')).href);
  const Constructor = module.PClient as new (options: { baseUrl: string }) => Client;
  return new Constructor({ baseUrl: 'http://127.0.0.1:9650' });
}

describe("the caller's base URL", () => {
  it('stays the host when the server URL template continues {baseUrl} with "@host"', async () => {
    const client = await clientFor('literal', {
      name: 'node',
      url: '{baseUrl}@evil.invalid/x',
      variables: { baseUrl: { default: 'http://127.0.0.1:9650' } },
    });
    expect(new URL(client.url).hostname).toBe('127.0.0.1');
  });

  it('gets no user info from a variable holding "@host" (the control: variables are percent-encoded)', async () => {
    const client = await clientFor('variable', {
      name: 'node',
      url: '{baseUrl}{p}',
      variables: { baseUrl: { default: 'http://127.0.0.1:9650' }, p: { default: '@evil.invalid/x' } },
    });
    // `http://127.0.0.1:9650%40evil.invalid%2Fx`: no user info, so no other host (though not a URL either).
    expect(client.url.startsWith('http://127.0.0.1:9650')).toBe(true);
    expect(client.url).not.toContain('@');
  });
});
