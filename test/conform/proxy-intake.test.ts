/**
 * Slow and many callers against the proxy (issue 24 item 10), on 127.0.0.1: under `ulimit -n 1024`, 500 callers
 * trickling their bodies in neither starve honest callers nor reach the node (each body is read whole first), and a
 * caller past the connection limit gets a 503 that says why, at once. Every wait is on an event, under a deadline.
 */
import { spawn } from 'node:child_process';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { refusalText } from '../../conform/proxy-intake.ts';
import { startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { watchOutput } from '../support/child-output.ts';
import { ROOT, cliArgs } from '../support/cli.ts';
import { listen, send } from '../support/rpc.ts';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A node stand-in that counts the connections and requests reaching it. */
async function countingUpstream() {
  const seen = { connections: 0, requests: 0 };
  const server = await listen((req, res) => {
    seen.requests += 1;
    req.resume();
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","result":{"height":"1"},"id":1}'),
    );
  });
  server.server.on('connection', () => (seen.connections += 1));
  cleanups.push(server.close);
  return { url: server.url, seen };
}

/** Rejects after `ms` unless `promise` settled first: a generous bound, not a timing claim. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(what)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** A caller that sends its head and the first bytes of a 1,000-byte body, then goes quiet. */
function slowCaller(url: URL): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(
        `POST /ext/bc/P HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`,
        () => done(socket),
      ),
    );
    socket.on('error', fail);
    cleanups.push(() => void socket.destroy());
  });
}

async function honestCall(url: string): Promise<{ status: number; body: string }> {
  const answer = await send(`${url}/ext/bc/P`, {
    contentType: null,
    body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}',
  });
  return { status: answer.status, body: answer.text };
}

describe('slow callers', () => {
  it('under ulimit -n 1024, 500 bodies trickling in leave honest calls answered and never reach the node', async () => {
    const node = await countingUpstream();
    // The proxy CLI in its own process with the file descriptor limit of the report.
    const child = spawn(
      'bash',
      [
        '-c',
        'ulimit -n 1024 && exec "$0" "$@"',
        process.execPath,
        ...cliArgs('conform/proxy-cli.ts', ['--upstream', node.url, '--port', '0']),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(() => void child.kill('SIGKILL'));
    watchOutput(child.stderr);
    const [, url] = await watchOutput(child.stdout).until(/listening on (http:\/\/\S+),/);
    const slow = [];
    for (let i = 0; i < 500; i++) slow.push(await slowCaller(new URL(url!)));
    const answers = await within(
      Promise.all(Array.from({ length: 8 }, () => honestCall(url!))),
      60_000,
      'honest callers were starved',
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    // Only the honest calls reached the node: no slow caller made the proxy open a socket upstream.
    expect(node.seen.requests).toBe(8);
    expect(node.seen.connections).toBeLessThanOrEqual(8);
    expect(slow.every((socket) => !socket.destroyed)).toBe(true);
  }, 240_000);
});

describe('the connection limit', () => {
  it('answers a caller past the limit 503 with the reason, at once, and serves again once one leaves', async () => {
    const node = await countingUpstream();
    const refusals: string[] = [];
    const proxy = await startProxy({
      upstream: node.url,
      validator: new SpecValidator(loadSpecModel()),
      maxConnections: 3,
      onRefused: (message) => refusals.push(message),
    });
    cleanups.push(() => proxy.close());
    const held: Socket[] = [];
    for (let i = 0; i < 3; i++) held.push(await slowCaller(new URL(proxy.url)));
    const refused = await within(honestCall(proxy.url), 30_000, 'the refused caller was left waiting');
    expect(refused).toEqual({ status: 503, body: refusalText(3) });
    expect(refusals).toEqual([refusalText(3).trim()]);
    expect(proxy.stats.refused).toBe(1);
    // One held caller leaves: a new caller is served (retried until the proxy has seen the socket close).
    const closed = new Promise((done) => held[0]!.once('close', done));
    held[0]!.destroy();
    await closed;
    const served = await within(
      (async () => {
        for (;;) {
          const answer = await honestCall(proxy.url);
          if (answer.status === 200) return answer;
        }
      })(),
      30_000,
      'no caller was served after one left',
    );
    expect(served.status).toBe(200);
  }, 60_000);

  it('answers a body over the limit 413 without sending it on', async () => {
    const node = await countingUpstream();
    const proxy = await startProxy({
      upstream: node.url,
      validator: new SpecValidator(loadSpecModel()),
      maxBodyBytes: 100,
    });
    cleanups.push(() => proxy.close());
    const sent = await send(`${proxy.url}/ext/bc/P`, { contentType: null, body: 'x'.repeat(1000) });
    const answer = { status: sent.status, body: sent.text };
    expect(answer).toEqual({
      status: 413,
      body: '413 Payload Too Large: the proxy takes request bodies of at most 100 bytes\n',
    });
    expect(node.seen.requests).toBe(0);
  });
});
