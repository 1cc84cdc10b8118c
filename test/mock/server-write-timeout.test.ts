/**
 * An answer the client does not read (mock/server.ts): Go's server ends the connection once a write has waited past
 * --http-write-timeout (30 s; api/server/server.go:129). node:http alone keeps the connection, and the answer in
 * memory, for as long as the client leaves it open.
 */
import { once } from 'node:events';
import type { RequestListener } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, serveHttp } from '../../mock/server.ts';

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Answers 64 MB, more than the kernel's buffers on both ends hold. */
const big: RequestListener = (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.alloc(64 << 20)));
};

async function start(writeTimeoutMs?: number): Promise<{ port: number; accepted: Promise<Socket> }> {
  running = await serveHttp(big, 0, '127.0.0.1', writeTimeoutMs === undefined ? {} : { writeTimeoutMs });
  const accepted = once(running.server, 'connection').then(([socket]) => socket as Socket);
  return { port: (running.server.address() as { port: number }).port, accepted };
}

const request = 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok';

describe('an answer the client does not read', () => {
  it('ends the connection once its write has waited past the write timeout', async () => {
    const { port, accepted } = await start(300);
    const client = connect(port, '127.0.0.1');
    client.pause();
    client.write(request);
    const server = await accepted;
    // The event, not a clock: unbounded, the connection (and its 64 MB) stays for as long as the client keeps it.
    await once(server, 'close');
    expect(server.destroyed).toBe(true);
    client.destroy();
  }, 30_000);

  it('is delivered whole to a client that reads it', async () => {
    const { port } = await start();
    const client = connect(port, '127.0.0.1');
    client.write(request);
    let size = 0;
    client.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size >= (64 << 20) + 100) client.end();
    });
    await once(client, 'close');
    expect(size).toBeGreaterThan(64 << 20);
  }, 30_000);
});
