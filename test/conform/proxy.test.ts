/**
 * The validating proxy end to end on 127.0.0.1: bytes, status and headers unchanged both ways, answers streamed,
 * violations logged with method, direction, pointer and rule, a 502 for an unreachable upstream, and the CLI's
 * summary on SIGINT.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyViolation, type ValidatingProxy, startProxy } from '../../conform/proxy.ts';
import { formatViolation } from '../../conform/proxy-stats.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { startCli } from '../support/cli.ts';
import { listen, send } from '../support/rpc.ts';

const validator = new SpecValidator(loadSpecModel());
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
}

/** An upstream that records what reached it and answers through `answer`. */
async function upstream(
  answer: (req: Received, res: import('node:http').ServerResponse) => void | Promise<void>,
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { body: Buffer.concat(chunks), headers: req.headers, rawHeaders: req.rawHeaders };
      received.push(entry);
      void answer(entry, res);
    });
  });
  closers.push(server.close);
  return { url: server.url, received };
}

async function proxyTo(url: string, violations: ProxyViolation[] = []): Promise<ValidatingProxy> {
  const proxy = await startProxy({ upstream: url, validator, onViolation: (v) => violations.push(v) });
  closers.push(() => proxy.close());
  return proxy;
}

/** A raw HTTP call: exact bytes out, exact bytes, status line and headers back. */
const call = (url: string, path: string, body: Buffer | string, headers?: Record<string, string>) =>
  send(url, { path, body, ...(headers && { headers }) });

/** Fails fast instead of at the suite's time limit when the proxy leaves a caller waiting. */
function within<T>(promise: Promise<T>, message: string): Promise<T> {
  const stuck = new Promise<never>((_, fail) => setTimeout(() => fail(new Error(message)), 10_000).unref());
  return Promise.race([promise, stuck]);
}

describe('the validating proxy', () => {
  it('forwards bytes, status and headers unchanged both ways', async () => {
    const answer = Buffer.from('{"jsonrpc":"2.0","result":{"height":"42"},"id":7}\n');
    const node = await upstream((_req, res) => {
      res.sendDate = false;
      res.writeHead(200, 'OK', [
        'Content-Type',
        'application/json; charset=utf-8',
        'X-Content-Type-Options',
        'nosniff',
        'node-id',
        'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
      ]);
      res.end(answer);
    });
    const violations: ProxyViolation[] = [];
    const proxy = await proxyTo(node.url, violations);
    const sent = Buffer.from('{ "jsonrpc" : "2.0",\n "id":7, "method":"platform.getHeight", "params":{} }  ');
    const got = await call(proxy.url, '/ext/bc/P?x=1', sent, {
      'content-type': 'application/json',
      'x-caller': 'test',
      'content-length': String(sent.length),
    });

    expect(node.received[0]!.body.equals(sent)).toBe(true);
    expect(node.received[0]!.headers['x-caller']).toBe('test');
    expect(node.received[0]!.headers['content-length']).toBe(String(sent.length));
    // The caller's Host goes upstream as sent, so the node's host allowlist still applies.
    expect(node.received[0]!.headers.host).toBe(new URL(proxy.url).host);
    expect(got.body.equals(answer)).toBe(true);
    expect(got.status).toBe(200);
    expect(got.headers['node-id']).toBe('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers.date).toBeUndefined();
    await proxy.settled();
    expect(violations).toEqual([]);
    expect(proxy.stats.toJSON().methods).toEqual({
      'platform.getHeight': { calls: 1, violations: 0, specified: true },
    });
  });

  it('passes HTTP-level answers through as they are', async () => {
    const node = await upstream((_req, res) => {
      res
        .writeHead(415, 'Unsupported Media Type', ['Content-Type', 'text/plain; charset=utf-8'])
        .end('rpc: unrecognized Content-Type: text/plain\n');
    });
    const proxy = await proxyTo(node.url);
    const got = await call(proxy.url, '/ext/bc/P', 'hello', { 'content-type': 'text/plain' });
    expect([got.status, got.statusMessage, got.body.toString()]).toEqual([
      415,
      'Unsupported Media Type',
      'rpc: unrecognized Content-Type: text/plain\n',
    ]);
  });

  it('streams an answer instead of holding it back', async () => {
    let firstChunkSeen!: () => void;
    const seen = new Promise<void>((done) => (firstChunkSeen = done));
    const node = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","result":');
      // The rest is only written once the caller has the first part: a buffering proxy would never finish.
      await seen;
      res.end('{"height":"1"},"id":1}\n');
    });
    const proxy = await proxyTo(node.url);
    const got = await within(
      send(proxy.url, {
        path: '/ext/bc/P',
        body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}',
        onChunk: firstChunkSeen,
      }),
      'the proxy held the first chunk back',
    );
    expect(got.body.toString()).toBe('{"jsonrpc":"2.0","result":{"height":"1"},"id":1}\n');
  });

  it('logs each violation with method, direction, JSON pointer and rule, and counts per method', async () => {
    const node = await upstream((req, res) => {
      const { id, method } = JSON.parse(req.body.toString()) as { id: number; method: string };
      const result =
        method === 'platform.getHeight'
          ? { height: 42 }
          : method === 'platform.getTx'
            ? { tx: 'not hex', encoding: 'hex' }
            : { version: 'avalanchego/1.14.2' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', result, id }));
    });
    const violations: ProxyViolation[] = [];
    const proxy = await proxyTo(node.url, violations);
    await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight","params":{}}');
    await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":2,"method":"platform.getTx","params":{"txID":5}}');
    await call(proxy.url, '/ext/admin', '{"jsonrpc":"2.0","id":3,"method":"admin.getNodeConfig"}');
    await proxy.settled();

    const seen = violations.map((v) => [v.method, v.direction, v.pointer, v.rule]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['platform.getHeight', 'response', '/result/height', 'type'],
        ['platform.getTx', 'request', '/params/txID', 'type'],
        ['platform.getTx', 'response', '/result/tx', 'format'],
      ]),
    );
    expect(seen.every(([method]) => method !== 'admin.getNodeConfig')).toBe(true);
    const stats = proxy.stats.toJSON();
    expect(stats.calls).toBe(3);
    expect(stats.methods['platform.getHeight']).toEqual({ calls: 1, violations: 1, specified: true });
    expect(stats.methods['admin.getNodeConfig']).toEqual({ calls: 1, violations: 0, specified: false });
    // One violation per offending value: txID of the wrong type, and `tx` (which fails both of its branches).
    expect(stats.methods['platform.getTx']).toEqual({ calls: 1, violations: 2, specified: true });
    expect(violations.filter((v) => v.method === 'platform.getTx').map(formatViolation)).toEqual([
      '#2 platform.getTx request /params/txID: must be string, not integer',
      '#2 platform.getTx response /result/tx: not 0x-prefixed hex with a 4-byte checksum',
    ]);
  });

  it('answers 502 with a clear text when the upstream cannot be reached', async () => {
    const gone = await upstream(() => undefined);
    await closers.pop()!();
    const proxy = await proxyTo(gone.url);
    const got = await call(proxy.url, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}');
    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.body.toString()).toMatch(
      new RegExp(`^502 Bad Gateway: the upstream node at ${gone.url} could not be reached \\(ECONNREFUSED\\)`),
    );
    expect(proxy.stats.upstreamFailures).toBe(1);
  });

  it('cuts the caller off when the upstream breaks off mid-answer, and keeps serving', async () => {
    let calls = 0;
    const node = await upstream((_req, res) => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      if (calls === 1) res.write('{"jsonrpc":"2.0",', () => res.socket?.destroy());
      else res.end('{"jsonrpc":"2.0","result":{"height":"1"},"id":1}'.padEnd(100, ' '));
    });
    const proxy = await proxyTo(node.url);
    const body = '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}';
    await expect(within(call(proxy.url, '/ext/bc/P', body), 'the caller was left waiting')).rejects.toThrow(
      /^(aborted|the connection closed before the answer was complete)$/,
    );
    const second = await call(proxy.url, '/ext/bc/P', body);
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body.toString())).toEqual({ jsonrpc: '2.0', result: { height: '1' }, id: 1 });
  });
});

describe('npm run proxy (the CLI)', () => {
  it('logs violations as they happen and prints calls and violations per method on SIGINT', async () => {
    const node = await upstream((req, res) => {
      const { id } = JSON.parse(req.body.toString()) as { id: number };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', result: { height: 42 }, id }));
    });
    const cli = startCli('conform/proxy-cli.ts', ['--upstream', node.url, '--port', '0']);
    const output = cli.stdout;
    const [, url] = await output.until(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await call(url!, '/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}');
    await output.until(/violation/);
    await call(url!, '/ext/admin', '{"jsonrpc":"2.0","id":2,"method":"admin.getNodeConfig"}');
    await call(url!, '/ext/admin', '{"jsonrpc":"2.0","id":3,"method":"admin.getNodeConfig"}');
    // Logged when it happens, once per method, not only in the summary.
    await output.until(/unknown #2 admin\.getNodeConfig: not in the spec, passed through unchecked/);
    // A line break in a method name is written as an escape: it cannot start a forged `violation` line.
    const forged = 'info.x\nviolation #1 platform.getHeight request /params: forged';
    await call(url!, '/ext/info', JSON.stringify({ jsonrpc: '2.0', id: 4, method: forged }));
    await output.until(/unknown #4 info\.x\\u000aviolation/);
    const exited = cli.stop('SIGINT');
    await output.until(/platform\.getHeight\s+1\s+1\n/);
    expect(await exited).toBe(0);
    const out = output.text;
    expect(out).toMatch(/violation #1 platform\.getHeight response \/result\/height: must be string, not integer\n/);
    expect(out.match(/unknown #/g)).toHaveLength(2);
    expect(out.match(/^violation /gm)).toHaveLength(1);
    expect(out).toMatch(/Proxy summary: 4 calls, 1 violation/);
  });
});
