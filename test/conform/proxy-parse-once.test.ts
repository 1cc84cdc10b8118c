/**
 * One proxied exchange parses each body once: the checks, the redaction and the transcript share the parsed value
 * (a large body parsed three or four times held the proxy's main thread for seconds). Counted by spying on JSON.parse
 * for the exact texts of the two bodies, with an upstream that never parses what it receives.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { type ProxyViolation, startProxy } from '../../conform/proxy.ts';
import { REDACTED } from '../../conform/redact.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { listen, send } from '../support/rpc.ts';

const validator = new SpecValidator(loadSpecModel());
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0).reverse()) await close();
});

const KEYS = 100_000;
const padding = JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`k${i}`, i])));
const PASSWORD = 'correct horse battery staple';

it('parses the request and the answer once each, and still redacts the secret in the transcript', async () => {
  const request = `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"a","password":"${PASSWORD}"},"padding":${padding}}`;
  const answer = `{"jsonrpc":"2.0","id":1,"result":{},"padding":${padding}}`;
  const node = await listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  closers.push(node.close);
  const dir = mkdtempSync(join(tmpdir(), 'proxy-parse-once-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const violations: ProxyViolation[] = [];
  const proxy = await startProxy({
    upstream: node.url,
    validator,
    record: dir,
    onViolation: (v) => violations.push(v),
  });
  closers.push(() => proxy.close());

  const parse = vi.spyOn(JSON, 'parse');
  const reply = await send(proxy.url, { path: '/ext/keystore', body: request });
  await proxy.settled();
  const parsesOf = (text: string) => parse.mock.calls.filter(([arg]) => arg === text).length;
  const counts = { request: parsesOf(request), answer: parsesOf(answer) };
  parse.mockRestore();

  expect(reply.text).toBe(answer);
  expect(counts).toEqual({ request: 1, answer: 1 });
  // The exchange was judged (a specified method, both ways) on the one parsed value.
  expect(proxy.stats.methods.has('keystore.createUser')).toBe(true);
  expect(violations).toEqual([]);
  const [file] = readdirSync(dir);
  const transcript = readFileSync(join(dir, file!), 'utf8');
  expect(transcript).not.toContain(PASSWORD);
  expect(JSON.parse(transcript).request.params.password).toBe(REDACTED);
  expect(JSON.parse(transcript).request.padding.k99999).toBe(KEYS - 1);
  expect(JSON.parse(transcript).response.body.padding.k0).toBe(0);
});
