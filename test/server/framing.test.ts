/**
 * How the node profile frames its answers on the wire, read off a raw loopback socket. Go's net/http holds the first
 * 2,048 bytes a handler writes (bufferBeforeChunkingSize): json2 writes its answer in one json.NewEncoder(w).Encode
 * and sets no Content-Length, so an answer up to 2,048 bytes has its length, a longer one is chunked (HTTP/1.1; an
 * HTTP/1.0 request gets no chunks).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInfoEndpoint } from '../../generated/server/dist/index.js';
import { listen } from '../support/rpc.ts';

/** One request on its own connection, closed by the server after the answer: the answer's bytes as sent. */
function exchange(port: number, head: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.end(
      `${head}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

const call = '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"X"}}';
/** The answer's bytes for a blockchainID of `size` characters. */
const answer = (size: number) => `{"jsonrpc":"2.0","result":{"blockchainID":"${'a'.repeat(size)}"},"id":1}\n`;
const OVERHEAD = answer(0).length;

describe('answer framing', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let size = 0;
  beforeAll(async () => {
    const endpoint = createInfoEndpoint({ getBlockchainID: () => ({ blockchainID: 'a'.repeat(size) }) });
    server = await listen(endpoint.node as never);
  });
  afterAll(() => server.close());

  const send = (version: string) =>
    exchange(server.port, `POST / HTTP/${version}\r\nHost: 127.0.0.1\r\nConnection: close`, call);
  const split = (raw: string) => {
    const end = raw.indexOf('\r\n\r\n');
    return { head: raw.slice(0, end).toLowerCase(), body: raw.slice(end + 4) };
  };

  it('gives an answer of up to 2,048 bytes its length', async () => {
    size = 2048 - OVERHEAD;
    const { head, body } = split(await send('1.1'));
    expect(head).toContain('\r\ncontent-length: 2048');
    expect(head).not.toContain('transfer-encoding');
    expect(body).toBe(answer(size));
  });

  it('chunks a longer one, in one chunk, as Go writes it', async () => {
    for (const length of [2049, 100_000]) {
      size = length - OVERHEAD;
      const { head, body } = split(await send('1.1'));
      expect(head).toContain('\r\ntransfer-encoding: chunked');
      expect(head).not.toContain('content-length');
      expect(body).toBe(`${length.toString(16)}\r\n${answer(size)}\r\n0\r\n\r\n`);
    }
  });

  it('sends the length to an HTTP/1.0 client, which reads no chunks', async () => {
    size = 4096;
    const { head, body } = split(await send('1.0'));
    expect(head).toContain(`\r\ncontent-length: ${answer(size).length}`);
    expect(body).toBe(answer(size));
  });
});
