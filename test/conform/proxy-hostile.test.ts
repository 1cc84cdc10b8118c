/**
 * The proxy under hostile input and hostile upstreams (issue 14): one bad exchange fails only itself, values nested
 * thousands deep are written and compared without recursion, a silent upstream gets the caller a 504, the caller's
 * Host reaches the node, secrets (x-sensitive) never reach a transcript, a log line or an error, and a large answer
 * is not kept once checked.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyOptions, type ProxyViolation, startProxy } from '../../conform/proxy.ts';
import { NAME_LIMIT, OTHER_METHODS, UNKNOWN_ROWS, formatViolation, printable } from '../../conform/proxy-stats.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { NOT_JSON, NOT_ONE_REQUEST } from '../../conform/redact.ts';
import { readTranscripts } from '../../conform/transcript.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { startMockNode } from '../../mock/node.ts';
import { hexEncode } from '../../generators/formats.ts';
import { listen, send } from '../support/rpc.ts';

const model = loadSpecModel();
const validator = new SpecValidator(model);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function upstream(
  answer: (body: string, headers: IncomingHttpHeaders, res: import('node:http').ServerResponse) => void,
): Promise<string> {
  const server = await listen((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => answer(body, req.headers, res));
  });
  closers.push(server.close);
  return server.url;
}

async function proxyTo(url: string, extra: Partial<ProxyOptions> = {}) {
  const proxy = await startProxy({ upstream: url, validator, ...extra });
  closers.push(() => proxy.close());
  return proxy;
}

const call = (url: string, path: string, body: string, headers: Record<string, string> = {}) =>
  send(url + path, { body, headers });

const echo = (body: string, _h: IncomingHttpHeaders, res: import('node:http').ServerResponse) => {
  // Answers with the request's own id, as a node does: the proxy then compares two deep values.
  const id = body.slice(body.indexOf('"id":') + 5, body.lastIndexOf(',"method"'));
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(`{"jsonrpc":"2.0","result":{"height":"1"},"id":${id}}`);
};

describe('the proxy under hostile input', () => {
  it('survives an id nested 5,000 levels deep, records it, and keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    const internal: string[] = [];
    const proxy = await proxyTo(await upstream(echo), { record: dir, onInternalError: (m) => internal.push(m) });
    const id = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const deep = await call(proxy.url, '/ext/bc/P', `{"jsonrpc":"2.0","id":${id},"method":"platform.getHeight"}`);
    expect(deep.status).toBe(200);
    await proxy.settled();
    const next = await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":2,"method":"platform.getHeight"}');
    expect(JSON.parse(next.text)).toEqual({ jsonrpc: '2.0', result: { height: '1' }, id: 2 });
    await proxy.settled();
    expect(internal).toEqual([]);
    const [first] = readTranscripts(dir);
    let value = (first!.transcript.request as { id: unknown }).id;
    let depth = 0;
    while (Array.isArray(value)) [value, depth] = [value[0], depth + 1];
    expect([depth, value]).toEqual([5000, 1]);
  });

  it('loses only the exchange whose checking fails, and says so without the request', async () => {
    const broken = new SpecValidator(model);
    broken.checkParams = () => {
      throw new RangeError('password hunter2 made it throw');
    };
    const internal: string[] = [];
    const proxy = await proxyTo(await upstream(echo), { validator: broken, onInternalError: (m) => internal.push(m) });
    const got = await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}');
    expect(got.status).toBe(200);
    await proxy.settled();
    expect(internal).toEqual(['exchange #1: checking failed (RangeError); the proxy carries on']);
    expect((await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":2,"method":"platform.getHeight"}')).status).toBe(
      200,
    );
  });

  it('answers 504 when the upstream stays silent past the timeout', async () => {
    const silent = await upstream(() => undefined);
    const failures: string[] = [];
    const proxy = await proxyTo(silent, { timeoutMs: 300, onUpstreamError: (m) => failures.push(m) });
    const got = await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}');
    expect(got.status).toBe(504);
    expect(got.text).toBe(`504 Gateway Timeout: the upstream node at ${silent} did not answer within 0.3 s\n`);
    expect(failures).toEqual([`504 to the caller: the upstream node at ${silent} did not answer within 0.3 s`]);
  });

  it("forwards the caller's Host header, or the one --host-header names", async () => {
    const hosts: Array<string | undefined> = [];
    const node = await upstream((body, headers, res) => {
      hosts.push(headers.host);
      echo(body, headers, res);
    });
    const plain = await proxyTo(node);
    await call(plain.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}', {
      host: 'evil.example',
    });
    const named = await proxyTo(node, { hostHeader: 'localhost:9650' });
    await call(named.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}', {
      host: 'evil.example',
    });
    expect(hosts).toEqual(['evil.example', 'localhost:9650']);
  });
});

describe('method names a caller chooses', () => {
  it('keeps a bounded number of rows, each name cut, however many distinct names arrive', async () => {
    const opened: string[] = [];
    const proxy = await proxyTo(await upstream(echo), { onUnknownMethod: (name) => opened.push(name) });
    const calls = UNKNOWN_ROWS + 40;
    for (let i = 0; i < calls; i++) {
      const method = `${i}.${'m'.repeat(20_000)}`;
      await call(proxy.url, '/ext/bc/P', JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
    }
    await proxy.settled();
    const methods = proxy.stats.toJSON().methods;
    expect(Object.keys(methods)).toHaveLength(UNKNOWN_ROWS + 1);
    expect(methods[OTHER_METHODS]).toEqual({ calls: 40, violations: 0, specified: false });
    expect(Math.max(...Object.keys(methods).map((name) => name.length))).toBe(NAME_LIMIT + 1);
    expect(opened).toHaveLength(UNKNOWN_ROWS + 1);
    expect(opened.at(-1)).toBe(OTHER_METHODS);
    expect(proxy.stats.calls).toBe(calls);
  }, 60_000);

  it('cannot forge a log line: line breaks and terminal controls in a name are written as escapes', async () => {
    const opened: string[] = [];
    const proxy = await proxyTo(await upstream(echo), { onUnknownMethod: (name) => opened.push(name) });
    const forged = 'info.x\nviolation #1 platform.getHeight request /params: forged\r\u2028\u202e\u001b[2J\\';
    await call(proxy.url, '/ext/info', JSON.stringify({ jsonrpc: '2.0', id: 1, method: forged }));
    await proxy.settled();
    expect(opened).toEqual([
      'info.x\\u000aviolation #1 platform.getHeight request /params: forged\\u000d\\u2028\\u202e\\u001b[2J\\\\',
    ]);
    expect(
      formatViolation({
        seq: 1,
        endpoint: '/',
        method: forged,
        direction: 'request',
        pointer: '',
        rule: 'x',
        message: 'a\nb',
      }),
    ).toBe(`#1 ${opened[0]} request (root): a\\u000ab`);
    // An emoji is one character and stays itself; a lone half of a surrogate pair is escaped.
    expect(printable('😀\ud800')).toBe('😀\\ud800');
  });
});

describe('the proxy after a large answer', () => {
  it('keeps no reference to the answer once it is checked and recorded', async () => {
    // A block of 2 MB in the node's hex: the spec's Hex pattern and format run over it, then the redactor's pattern.
    const block = hexEncode(new Uint8Array(2 * 1024 * 1024).map((_, i) => (i * 7) & 0xff));
    const dir = mkdtempSync(join(tmpdir(), 'large-'));
    const proxy = await proxyTo(
      await upstream((body, _h, res) => {
        const { id } = JSON.parse(body) as { id: number };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"jsonrpc":"2.0","result":{"block":"${block}","encoding":"hex"},"id":${id}}`);
      }),
      { record: dir },
    );
    const params = { height: '1', encoding: 'hex' };
    const answer = await call(
      proxy.url,
      '/ext/bc/P',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getBlockByHeight', params }),
    );
    expect(answer.text.length).toBeGreaterThan(4 * 1024 * 1024);
    await proxy.settled();
    // V8 keeps the last string a regular expression matched (RegExp.input) until the next match: a whole answer.
    const lastMatched = (RegExp as unknown as { input: string }).input.length;
    expect(lastMatched).toBeLessThan(1000);
    expect(proxy.stats.violations).toBe(0);
    expect(readTranscripts(dir)[0]!.transcript.response.body).toMatchObject({ result: { block } });
  });
});

describe('secrets through the proxy', () => {
  const PASSWORD = 'Correct-Horse-Battery-Staple-9';

  it('records keystore calls with passwords and exported users redacted, files owner-readable only', async () => {
    const mock = await startMockNode({ port: 0, nodeVersion: 'all' });
    closers.push(() => mock.close());
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    const lines: string[] = [];
    const proxy = await proxyTo(mock.url, {
      record: dir,
      onViolation: (v: ProxyViolation) => lines.push(formatViolation(v)),
      onInternalError: (m) => lines.push(m),
      onUnknownMethod: (m) => lines.push(m),
    });
    const rpc = (method: string, params: unknown) =>
      call(proxy.url, '/ext/keystore', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    await rpc('keystore.createUser', { username: 'alice', password: PASSWORD });
    const exported = JSON.parse((await rpc('keystore.exportUser', { username: 'alice', PASSWORD })).text) as {
      result: { user: string };
    };
    await rpc('keystore.importUser', { username: 'bob', paſſword: PASSWORD, user: exported.result.user });
    await rpc('keystore.deleteUser', [{ username: 'alice', password: PASSWORD }]);
    // Too long and not JSON: neither a violation nor the raw text may carry it.
    await rpc('keystore.createUser', { username: 'carol', password: `${PASSWORD}${'x'.repeat(1100)}` });
    await call(
      proxy.url,
      '/ext/keystore',
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"password":"${PASSWORD}"`,
    );
    // Issue 24: bodies the node accepts (trailing bytes, an escaped key, a folded key) and bodies it refuses.
    const hostile = [
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"dan","password":"${PASSWORD}"}}xyz`,
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"eve","pass\\u0077ord":"${PASSWORD}"}}`,
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"fay","PAſſWORD":"${PASSWORD}"}}`,
      `[{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"gus","pwd":"${PASSWORD}"}}]`,
      `{"jsonrpc":"2.0","id":1,"method":"keystore.CreateUser","params":{"username":"hal","pwd":"${PASSWORD}"}}`,
      `{"jsonrpc":"2.0","id":1,"params":{"username":"ida","pwd":"${PASSWORD}"}}`,
      `{"jsonrpc":"1.0","id":1,"method":"keystore.createUser","params":[{"username":"jo","pwd":"${PASSWORD}"}]}`,
    ];
    for (const body of hostile) await call(proxy.url, '/ext/keystore', body);
    await proxy.settled();

    const files = readdirSync(dir);
    expect(files).toHaveLength(6 + hostile.length);
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(exported.result.user.slice(2, 40));
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    }
    const transcripts = readTranscripts(dir).map((t) => t.transcript);
    expect(transcripts[0]!.request).toMatchObject({ params: { username: 'alice', password: '<redacted>' } });
    expect(transcripts[1]!.response.body).toMatchObject({ result: { user: '<redacted>', encoding: 'hex' } });
    expect(transcripts[2]!.request).toMatchObject({ params: { paſſword: '<redacted>', user: '<redacted>' } });
    expect(transcripts[3]!.request).toMatchObject({ params: [{ password: '<redacted>' }] });
    expect(transcripts[5]).toMatchObject({ requestNote: NOT_JSON });
    expect(transcripts[5]).not.toHaveProperty('request');
    expect(transcripts[6]).toMatchObject({ requestNote: NOT_ONE_REQUEST, request: { params: '<redacted>' } });
    expect(transcripts[7]!.request).toMatchObject({ params: { username: 'eve', password: '<redacted>' } });
    expect(transcripts[8]!.request).toMatchObject({ params: { username: 'fay', PAſſWORD: '<redacted>' } });
    expect(transcripts[9]!.request).toMatchObject([{ params: '<redacted>' }]);
    for (const refused of transcripts.slice(10, 12)) expect(refused.request).toMatchObject({ params: '<redacted>' });
    expect(lines.some((line) => /password/.test(line))).toBe(true);
    expect(lines.join('\n')).not.toContain(PASSWORD.slice(0, 10));
  });
});
