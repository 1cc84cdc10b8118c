/**
 * The mock node's HTTP server (mock/server.ts, node:http) on raw sockets: keep-alive, pipelining, chunked bodies,
 * refusals in Go net/http's words, the head limit and the node's timeouts. A listener that echoes what it was given
 * stands behind it.
 */
import { once } from 'node:events';
import type { RequestListener } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, type ServeOptions, serveHttp } from '../../mock/server.ts';

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const seen: string[] = [];

/**
 * Echoes the method, path and body. A body of `slow` is answered only once the next request on the connection has
 * been answered: pipelined answers must still leave in order.
 */
let heldBack: (() => void) | undefined;
const echo: RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString();
    seen.push(text);
    const answer = () => {
      const reply = `${req.method} ${req.url} ${text}`;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(reply) }).end(reply);
    };
    if (text === 'slow') heldBack = answer;
    else {
      answer();
      heldBack?.();
      heldBack = undefined;
    }
  });
};

async function serve(options: ServeOptions = {}): Promise<number> {
  seen.length = 0;
  heldBack = undefined;
  running = await serveHttp(echo, 0, '127.0.0.1', options);
  return (running.server.address() as { port: number }).port;
}

/** The answers complete in `text`: each head with the body its Content-Length announces (none for a 1xx). */
function completeAnswers(text: string): number {
  let count = 0;
  for (let at = 0; ; count++) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return count;
    const length = Number(/\r\nContent-Length: (\d+)\r\n/i.exec(text.slice(at, headEnd + 2))?.[1] ?? 0);
    at = headEnd + 4 + length;
    if (text.length < at) return count;
  }
}

/**
 * A raw connection to the server. Every wait is on the socket's events (what came back, its close), bounded by a
 * deadline against a hang; a server that resets the connection has closed it too.
 */
function open(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.setNoDelay(true);
  let text = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const check of [...waiters]) check();
  };
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    wake();
  });
  socket.on('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = (done: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within 30 s; received ${JSON.stringify(text)}, closed: ${closed}`));
      }, 30_000);
      waiters.add(check);
      check();
    });
  return {
    get text() {
      return text;
    },
    get closed() {
      return closed;
    },
    /** Resolves once the bytes are handed to the operating system, or the connection is gone. */
    write: (bytes: string | Buffer) =>
      new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(bytes, () => resolve()))),
    until,
    /** Waits for `count` complete answers in all. */
    answers: (count: number) => until(() => completeAnswers(text) >= count, `${count} complete answers`),
    /** Waits for the server to close the connection; resolves to what it sent and that it closed. */
    closing: async () => {
      await until(() => closed, 'close');
      return { text, closed };
    },
  };
}
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

const post = (body: string, headers = '') =>
  `POST /ext/bc/X HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
const bodies = (text: string) =>
  text
    .split('HTTP/1.1 ')
    .slice(1)
    .map((answer) => answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('framing', () => {
  it('answers with the reply, its length and a date, and keeps the connection', async () => {
    const connection = open(await serve());
    await connection.write(post('one'));
    await connection.write(post('two'));
    await connection.answers(2);
    expect(statuses(connection.text)).toEqual([200, 200]);
    expect(connection.text).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
    expect(bodies(connection.text)).toEqual(['POST /ext/bc/X one', 'POST /ext/bc/X two']);
    // Kept: a third request on the same connection is answered too.
    await connection.write(post('three'));
    await connection.answers(3);
    expect(connection.closed).toBe(false);
  });

  it('answers pipelined requests in order, a slow answer holding back the next', async () => {
    const connection = open(await serve());
    await connection.write(post('slow') + post('fast'));
    await connection.answers(2);
    expect(bodies(connection.text)).toEqual(['POST /ext/bc/X slow', 'POST /ext/bc/X fast']);
  });

  it('reads a head and body sent a byte at a time, and a chunked body with extensions and trailers', async () => {
    const port = await serve();
    const bytes = open(port);
    for (const byte of post('bytes')) await bytes.write(byte);
    await bytes.answers(1);
    expect(bodies(bytes.text)).toEqual(['POST /ext/bc/X bytes']);
    const chunked = open(port);
    await chunked.write(
      'POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ' +
        'chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n',
    );
    await chunked.answers(1);
    expect(bodies(chunked.text)).toEqual(['POST /c abcde']);
  });
});

/** Sends `bytes` on a new connection and waits for the server to close it. */
async function closedAfter(port: number, bytes: string | Buffer) {
  const connection = open(port);
  await connection.write(bytes);
  return connection.closing();
}

describe('connections', () => {
  it('closes after Connection: close and after HTTP/1.0 unless asked to keep it', async () => {
    const port = await serve();
    expect(await closedAfter(port, post('x', 'Connection: close\r\n'))).toMatchObject({ closed: true });
    expect(await closedAfter(port, 'POST /a HTTP/1.0\r\nContent-Length: 1\r\n\r\nx')).toMatchObject({ closed: true });
    const kept = open(port);
    for (const body of ['x', 'y']) {
      await kept.write(`POST /a HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\n${body}`);
      await kept.answers(body === 'x' ? 1 : 2);
    }
    expect([bodies(kept.text), kept.closed]).toEqual([['POST /a x', 'POST /a y'], false]);
  });

  it("sends 100 Continue to a client waiting for it, and 417 in Go's words for other expectations", async () => {
    const port = await serve();
    const waiting = open(port);
    await waiting.write('POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n');
    await waiting.until(() => waiting.text.includes('\r\n\r\n'), 'interim answer');
    expect(waiting.text).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    await waiting.write('ok');
    await waiting.answers(2);
    expect(statuses(waiting.text)).toEqual([100, 200]);
    const other = await closedAfter(
      port,
      'POST /x HTTP/1.1\r\nHost: h\r\nExpect: something\r\nContent-Length: 2\r\n\r\nok',
    );
    expect(other).toEqual({ text: refusal('417 Expectation Failed', '417 Expectation Failed'), closed: true });
  });

  it('cuts a request not finished in time and a connection idle too long, without an answer', async () => {
    const port = await serve({ readTimeoutMs: 200, idleTimeoutMs: 300 });
    const unfinished = await closedAfter(port, 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc');
    expect(unfinished).toEqual({ text: '', closed: true });
    const idle = await closedAfter(port, post('first'));
    expect([statuses(idle.text), idle.closed]).toEqual([[200], true]);
  });

  it('closes every connection on close()', async () => {
    const port = await serve();
    const accepted = once(running!.server, 'connection');
    const connection = open(port);
    await connection.write('POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc');
    await accepted;
    await running!.close();
    running = undefined;
    expect(await connection.closing()).toEqual({ text: '', closed: true });
  });
});

const refusal = (status: string, text: string) =>
  `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`;

describe('refusals', () => {
  it.each([
    [
      'a missing Host',
      'POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: missing required Host header',
    ],
    [
      'two Host headers',
      'POST /x HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: too many Host headers',
    ],
    [
      'another HTTP version',
      'POST /x HTTP/2.0\r\nHost: h\r\n\r\n',
      '505 HTTP Version Not Supported',
      '505 HTTP Version Not Supported: unsupported protocol version',
    ],
    ['no request line at all', 'hello\r\n\r\n', '400 Bad Request', '400 Bad Request: malformed HTTP request'],
    [
      'a folded header line',
      'POST /x HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: malformed MIME header line',
    ],
    [
      'a vertical tab around a value',
      'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \x0bchunked\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: invalid header value',
    ],
    [
      'a no-break space around a length',
      'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: \xa05\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: invalid Content-Length',
    ],
    [
      'chunked followed by another coding line',
      'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n',
      '501 Not Implemented',
      'Unsupported transfer encoding',
    ],
    [
      "a space before a header's colon",
      'POST /x HTTP/1.1\r\nHost : h\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: malformed MIME header line',
    ],
    [
      'a control character in a value',
      'POST /x HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: invalid header value',
    ],
    [
      'two different lengths',
      'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      '400 Bad Request',
      '400 Bad Request: invalid Content-Length',
    ],
    [
      'a signed length',
      'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\na',
      '400 Bad Request',
      '400 Bad Request: invalid Content-Length',
    ],
    [
      'a length beside chunked',
      'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
      '400 Bad Request',
      '400 Bad Request: both Transfer-Encoding and Content-Length',
    ],
    [
      'a bad chunk size',
      'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      '400 Bad Request',
      '400 Bad Request: malformed chunked encoding',
    ],
    [
      'a coding other than chunked',
      'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n',
      '501 Not Implemented',
      'Unsupported transfer encoding',
    ],
  ])("refuses %s in net/http's words and closes", async (_, request, status, text) => {
    const answer = await closedAfter(await serve(), Buffer.from(request, 'latin1'));
    expect(answer).toEqual({ text: refusal(status, text), closed: true });
    expect(seen).toEqual([]);
  });

  it('answers 431 to a head over the limit, even one never finished, and serves the next connection', async () => {
    const port = await serve({ maxHeaderBytes: 1024 });
    const long = `POST /x HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(2000)}`;
    expect(await closedAfter(port, long)).toEqual({
      text: refusal('431 Request Header Fields Too Large', '431 Request Header Fields Too Large'),
      closed: true,
    });
    const next = open(port);
    await next.write(post('fine'));
    await next.answers(1);
    expect(next.text).toContain('fine');
  });
});
