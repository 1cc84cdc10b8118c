/**
 * A request refused before its body is read (404, 403, 415, the C-Chain's 413 of a declared length): Go's server
 * answers "Connection: close" when more than 256 KiB of the body is left unread (maxPostHandlerReadBytes) and closes
 * the connection, reading on for a moment first so the client gets the answer rather than a reset. node:http said
 * keep-alive, read on, and after some hundreds of megabytes took part of the body for a new request and answered it
 * with a stray 400. A body the handler reads keeps its connection.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const DECLARED = 64 * 1024 * 1024;

/**
 * Sends `head` declaring `declared` bytes of body, then `sent` bytes of it (spaces), and returns what came back until
 * the server closed the connection, or the first answer when the whole body was sent or the answer keeps the connection.
 */
function exchange(head: string, declared: number, sent: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
      // A whole body sent, or an answer that keeps the connection: it is complete once its length is in.
      const kept = sent === declared || /\r\nconnection: keep-alive/i.test(text.slice(0, end));
      if (kept && length && text.length >= end + 4 + Number(length[1])) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
    // The server may close while this side still sends: what it answered is what counts.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    socket.write(`${head}\r\nContent-Length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 0x20));
  });
}

const headers = (text: string) => text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();

describe('a refusal with most of the body unread', () => {
  const cases: Array<[what: string, head: string, status: string, body: string]> = [
    [
      'a path the node does not serve',
      'POST /ext/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json',
      'HTTP/1.1 404 Not Found',
      '404 page not found\n',
    ],
    [
      'a Host the node does not allow',
      'POST /ext/info HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json',
      'HTTP/1.1 403 Forbidden',
      'invalid host specified\n',
    ],
    [
      'a content type gorilla does not take',
      'POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain',
      'HTTP/1.1 415 Unsupported Media Type',
      'rpc: unrecognized Content-Type: text/plain',
    ],
    [
      'a C-Chain body declared over 5 MiB',
      'POST /ext/bc/C/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json',
      'HTTP/1.1 413 Payload Too Large',
      `content length too large (${DECLARED}>5242880)\n`,
    ],
  ];
  for (const [what, head, status, body] of cases)
    it(`says Connection: close and closes, the answer whole (${what})`, async () => {
      const text = await exchange(head, DECLARED, 1024 * 1024);
      expect(text.slice(0, text.indexOf('\r\n'))).toBe(status);
      expect(headers(text)).toContain('\r\nconnection: close');
      expect(headers(text)).not.toContain('keep-alive');
      // One answer, then the end of the connection: nothing of the body was read as a request.
      expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(body);
    });
});

describe('a large body the handler reads', () => {
  it('keeps its connection', async () => {
    const call = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
    const padded = 512 * 1024;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
      let got = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        got += chunk;
        if (got.endsWith('}\n')) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('error', reject);
      socket.write(
        `POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${padded}\r\n\r\n`,
      );
      socket.write(call + ' '.repeat(padded - call.length));
    });
    expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    expect(headers(text)).toContain('\r\nconnection: keep-alive');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      jsonrpc: '2.0',
      result: { networkID: '12345' },
      id: 1,
    });
  });
});
