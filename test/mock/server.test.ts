/**
 * The mock node's HTTP server (mock/server.ts, node:http) on raw sockets: keep-alive, pipelining, chunked bodies,
 * refusals in Go net/http's words, the head limit and the node's timeouts. A listener that echoes what it was given
 * stands behind it.
 */
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

/** Echoes the method, path and body; a body of `slow` is answered 50 ms later. */
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
    if (text === 'slow') setTimeout(answer, 50);
    else answer();
  });
};

async function serve(options: ServeOptions = {}): Promise<number> {
  seen.length = 0;
  running = await serveHttp(echo, 0, '127.0.0.1', options);
  return (running.server.address() as { port: number }).port;
}

interface Talk {
  text: string;
  closed: boolean;
}

/**
 * Sends each piece (a pause between pieces), then collects what comes back until the server closes or `waitMs` passes.
 */
function talk(port: number, pieces: Array<string | Buffer>, waitMs = 300, pauseMs = 5): Promise<Talk> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed: true });
    });
    // A server that stops reading and closes may reset the connection: that is a close too.
    socket.on('error', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

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
    const port = await serve();
    const { text, closed } = await talk(port, [post('one'), post('two')]);
    expect(closed).toBe(false);
    expect(statuses(text)).toEqual([200, 200]);
    expect(text).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
    expect(bodies(text)).toEqual(['POST /ext/bc/X one', 'POST /ext/bc/X two']);
  });

  it('answers pipelined requests in order, a slow answer holding back the next', async () => {
    const port = await serve();
    const { text } = await talk(port, [post('slow') + post('fast')]);
    expect(bodies(text)).toEqual(['POST /ext/bc/X slow', 'POST /ext/bc/X fast']);
  });

  it('reads a head and body sent a byte at a time, and a chunked body with extensions and trailers', async () => {
    const port = await serve();
    const request = post('bytes');
    expect(bodies((await talk(port, [...request], 1500, 1)).text)).toEqual(['POST /ext/bc/X bytes']);
    const chunked =
      'POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ' +
      'chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n';
    expect(bodies((await talk(port, [chunked])).text)).toEqual(['POST /c abcde']);
  });
});

describe('connections', () => {
  it('closes after Connection: close and after HTTP/1.0 unless asked to keep it', async () => {
    const port = await serve();
    expect(await talk(port, [post('x', 'Connection: close\r\n')])).toMatchObject({ closed: true });
    expect(await talk(port, ['POST /a HTTP/1.0\r\nContent-Length: 1\r\n\r\nx'])).toMatchObject({ closed: true });
    expect(
      await talk(port, ['POST /a HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx']),
    ).toMatchObject({ closed: false });
  });

  it("sends 100 Continue to a client waiting for it, and 417 in Go's words for other expectations", async () => {
    const port = await serve();
    const waiting = await talk(port, [
      'POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n',
      'ok',
    ]);
    expect(statuses(waiting.text)).toEqual([100, 200]);
    expect(waiting.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    const other = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nExpect: something\r\nContent-Length: 2\r\n\r\nok']);
    expect(other).toEqual({ text: refusal('417 Expectation Failed', '417 Expectation Failed'), closed: true });
  });

  it('cuts a request not finished in time and a connection idle too long, without an answer', async () => {
    const port = await serve({ readTimeoutMs: 200, idleTimeoutMs: 300 });
    const unfinished = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc'], 1500);
    expect(unfinished).toEqual({ text: '', closed: true });
    const idle = await talk(port, [post('first')], 1500);
    expect([statuses(idle.text), idle.closed]).toEqual([[200], true]);
  });

  it('closes every connection on close()', async () => {
    const port = await serve();
    const open = talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc'], 3000);
    await new Promise((r) => setTimeout(r, 100));
    await running!.close();
    running = undefined;
    expect(await open).toEqual({ text: '', closed: true });
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
    const port = await serve();
    const answer = await talk(port, [Buffer.from(request, 'latin1')]);
    expect(answer).toEqual({ text: refusal(status, text), closed: true });
    expect(seen).toEqual([]);
  });

  it('answers 431 to a head over the limit, even one never finished, and serves the next connection', async () => {
    const port = await serve({ maxHeaderBytes: 1024 });
    const long = `POST /x HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(2000)}`;
    expect(await talk(port, [long])).toEqual({
      text: refusal('431 Request Header Fields Too Large', '431 Request Header Fields Too Large'),
      closed: true,
    });
    expect((await talk(port, [post('fine')])).text).toContain('fine');
  });
});
