/**
 * Upstreams that keep a call alive without ever finishing it, on raw sockets: a body trickled a byte at a time,
 * endless `100 Continue` heads, a head trickled a line at a time. Each resets the silence timeout, so the caller used to
 * wait for ever; the answer timeout ends each (504, or the caller's connection cut once the answer has begun). An
 * upstream answering bytes that are not HTTP is named as such, not as unreachable.
 */
import { type Server, type Socket, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ValidatingProxy, startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { send } from '../support/rpc.ts';

const validator = new SpecValidator(loadSpecModel());
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An upstream that reads a request's head, then does `act` on the raw socket, every 50 ms if `repeat`. */
async function rawUpstream(act: (socket: Socket) => void, repeat?: (socket: Socket) => void): Promise<string> {
  const timers: NodeJS.Timeout[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.resume();
      act(socket);
      if (repeat) timers.push(setInterval(() => socket.writable && repeat(socket), 50));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function proxyTo(upstream: string, failures: string[]): Promise<ValidatingProxy> {
  // The silence timeout is far above the 50 ms between the upstream's bytes: only the answer timeout can end these.
  const proxy = await startProxy({
    upstream,
    validator,
    timeoutMs: 5000,
    answerTimeoutMs: 1000,
    onUpstreamError: (message) => failures.push(message),
  });
  closers.push(() => proxy.close());
  return proxy;
}

const call = (proxy: ValidatingProxy) =>
  send(`${proxy.url}/ext/bc/P`, { body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}' });

describe('an upstream that never finishes its answer', () => {
  it('trickling the body: the caller, already answering, is cut and the failure said', async () => {
    const upstream = await rawUpstream(
      (socket) =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'),
      (socket) => socket.write('1\r\n \r\n'),
    );
    const failures: string[] = [];
    const proxy = await proxyTo(upstream, failures);
    await expect(call(proxy)).rejects.toThrow();
    expect(failures).toEqual([
      `the caller's connection cut: the upstream node at ${upstream} did not finish its answer within 1 s`,
    ]);
  }, 30_000);

  it.each([
    ['sending 100 Continue heads', '', 'HTTP/1.1 100 Continue\r\n\r\n'],
    ['trickling its head', 'HTTP/1.1 200 OK\r\n', 'X-More: yes\r\n'],
  ])(
    '%s: the caller gets 504',
    async (_, first, next) => {
      const upstream = await rawUpstream(
        (socket) => socket.write(first),
        (socket) => socket.write(next),
      );
      const failures: string[] = [];
      const proxy = await proxyTo(upstream, failures);
      const got = await call(proxy);
      const message = `the upstream node at ${upstream} did not finish its answer within 1 s`;
      expect([got.status, got.text]).toEqual([504, `504 Gateway Timeout: ${message}\n`]);
      expect(failures).toEqual([`504 to the caller: ${message}`]);
    },
    30_000,
  );
});

describe('an upstream answering bytes that are not HTTP', () => {
  it('gets the caller a 502 that says so', async () => {
    const upstream = await rawUpstream((socket) => socket.end('garbage\r\n\r\n'));
    const failures: string[] = [];
    const proxy = await proxyTo(upstream, failures);
    const got = await call(proxy);
    const message = `the upstream node at ${upstream} answered something that is not HTTP (HPE_INVALID_CONSTANT)`;
    expect([got.status, got.text]).toEqual([502, `502 Bad Gateway: ${message}\n`]);
  });
});
