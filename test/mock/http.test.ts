/**
 * The mock node's HTTP/1.1 server (mock/http.ts) byte for byte on raw sockets: framing, keep-alive, pipelining,
 * refusals in net/http's words, limits and timeouts. An answer function that echoes what it was given stands behind it.
 */
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpRequest, RpcReply } from '../../generated/server/dist/index.js';
import { type HttpAnswer, type HttpOptions, type HttpServer, serveHttp } from '../../mock/http.ts';

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const seen: Array<{ request: HttpRequest; body: string }> = [];

/** Echoes the method, path and body; a body of `slow` is answered 50 ms later, `throw` throws, `reject` rejects. */
const echo: HttpAnswer = (request, body) => {
  const text = Buffer.from(body).toString();
  seen.push({ request, body: text });
  const reply: RpcReply = { status: 200, headers: { 'Content-Type': 'text/plain', 'X-Bad': 'a\r\nInjected: yes' }, body: `${request.method} ${request.url} ${text}` };
  if (text === 'throw') throw new Error('handler bug');
  if (text === 'reject') return Promise.reject(new Error('handler bug'));
  if (text === 'slow') return new Promise((resolve) => setTimeout(() => resolve(reply), 50));
  return reply;
};

async function serve(options: HttpOptions = {}, answer: HttpAnswer = echo): Promise<number> {
  seen.length = 0;
  running = await serveHttp(answer, 0, '127.0.0.1', options);
  return (running.server.address() as { port: number }).port;
}

interface Talk {
  text: string;
  closed: boolean;
}

/** Sends each piece (a pause between pieces), then collects what comes back until the server closes or `waitMs` passes. */
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
        socket.write(piece);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

const post = (body: string, headers = '') => `POST /ext/bc/X HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe('framing', () => {
  it('answers with status line, the reply\'s headers, length and date, and keeps the connection', async () => {
    const port = await serve();
    const { text, closed } = await talk(port, [post('one'), post('two')]);
    expect(closed).toBe(false);
    const answers = text.split('HTTP/1.1 ').slice(1);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^200 OK\r\nContent-Type: text\/plain\r\nContent-Length: 18\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n\r\nPOST \/ext\/bc\/X one$/);
    // A header whose value would split the answer is left out.
    expect(text).not.toContain('Injected');
    expect(seen.map((s) => s.request.headers.host)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('answers pipelined requests in order, a slow answer holding back the next', async () => {
    const port = await serve();
    const { text } = await talk(port, [post('slow') + post('fast')]);
    expect(text.indexOf('POST /ext/bc/X slow')).toBeGreaterThan(0);
    expect(text.indexOf('POST /ext/bc/X slow')).toBeLessThan(text.indexOf('POST /ext/bc/X fast'));
  });

  it('asks for each answer once, however many bytes arrive while one is pending', async () => {
    const port = await serve();
    const { text } = await talk(port, [post('slow'), post('next'), 'POST /later HTTP/1.1\r\nHost: h\r\n', 'Content-Length: 1\r\n\r\nz'], 400, 10);
    expect(seen.map((s) => s.body)).toEqual(['slow', 'next', 'z']);
    expect(statuses(text)).toEqual([200, 200, 200]);
    expect(text.indexOf(' slow')).toBeLessThan(text.indexOf(' next'));
  });

  it('reads a head and body sent a byte at a time, and a chunked body with extensions and trailers', async () => {
    const port = await serve();
    const whole = post('{"jsonrpc":"2.0"}');
    const slow = await talk(port, [...whole].map((c) => c), 2000, 1);
    expect(slow.text).toContain('POST /ext/bc/X {"jsonrpc":"2.0"}');
    const bytes = 'x'.repeat(5000);
    const ones = await talk(port, [`POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n${[...bytes].map((c) => `1\r\n${c}\r\n`).join('')}0\r\n\r\n`]);
    expect(ones.text).toContain(`POST /p ${bytes}`);
    const chunked = 'POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\nX-Trailer: t\r\n\r\n';
    expect((await talk(port, [chunked.slice(0, 60), chunked.slice(60)])).text).toContain('POST /p abcdefg');
  });

  it('reads HTTP/1.0 bodies by their length, transfer codings aside, and skips empty lines ahead of a request', async () => {
    const port = await serve();
    await talk(port, ['POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc']);
    await talk(port, ['\r\n\r\n' + post('after blank lines')]);
    expect(seen.map((s) => s.body)).toEqual(['abc', 'after blank lines']);
  });

  it('tells HEAD the length without the body', async () => {
    const port = await serve();
    const { text } = await talk(port, ['HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n']);
    expect(text).toMatch(/Content-Length: 8\r\n/);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('answers 500 for a reply that is no answer, sync or async, and keeps serving', async () => {
    const broken = { status: 200, headers: {}, body: undefined } as unknown as RpcReply;
    const replies: Record<string, unknown> = { sync: broken, async: Promise.resolve(broken), undefined, null: null };
    const port = await serve({}, (_, body) => replies[Buffer.from(body).toString()] as RpcReply);
    const { text } = await talk(port, [post('sync'), post('async'), post('undefined'), post('null'), post('sync')]);
    expect(statuses(text)).toEqual([500, 500, 500, 500, 500]);
  });

  it('sends a reply\'s header bytes as they came in, whatever the body, and no transfer coding beside its length', async () => {
    const reply = (body: string | Buffer): RpcReply => ({ status: 200, headers: { 'X-N': '\u00e9', 'Transfer-Encoding': 'chunked' }, body });
    const port = await serve({}, (_, body) => reply(Buffer.from(body).toString() === 'buffer' ? Buffer.from('b') : 'b'));
    const { text } = await talk(port, [post('buffer'), post('string')]);
    const answers = text.split('HTTP/1.1 ').slice(1);
    for (const answer of answers) expect(answer).toMatch(/^200 OK\r\nX-N: \u00e9\r\nContent-Length: 1\r\nDate: [^\r]+\r\n\r\nb$/);
    expect(answers).toHaveLength(2);
  });

  it('answers 500 when the answer throws or rejects, and keeps serving', async () => {
    const port = await serve();
    const { text } = await talk(port, [post('throw'), post('reject'), post('ok')]);
    expect(statuses(text)).toEqual([500, 500, 200]);
    expect(text).toContain('internal server error');
    expect(text).not.toContain('handler bug');
  });

  it('reads a header named like an Object.prototype member as any other', async () => {
    const port = await serve();
    await talk(port, [post('x', 'constructor: c\r\n__proto__: p\r\ntoString: t\r\n')]);
    expect(seen[0]!.request.headers.constructor).toBe('c');
    expect(seen[0]!.request.headers.tostring).toBe('t');
    expect(Object.hasOwn(seen[0]!.request.headers, '__proto__') && seen[0]!.request.headers.__proto__).toBe('p');
    expect(Object.getPrototypeOf(seen[0]!.request.headers)).toBe(Object.prototype);
  });
});

describe('connections', () => {
  it('closes after Connection: close and after HTTP/1.0 unless asked to keep it', async () => {
    const port = await serve();
    const close = await talk(port, [post('a', 'Connection: close\r\n')]);
    expect(close.closed).toBe(true);
    expect(close.text).toContain('Connection: close\r\n');
    const old = await talk(port, ['POST /x HTTP/1.0\r\nContent-Length: 1\r\n\r\na']);
    expect([old.closed, old.text.includes('Connection: close')]).toEqual([true, true]);
    const kept = await talk(port, ['POST /x HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\na']);
    expect([kept.closed, kept.text.includes('Connection: keep-alive')]).toEqual([false, true]);
  });

  it('closes when any Connection line says close, and answers a client that half-closed after its request', async () => {
    const port = await serve();
    const two = await talk(port, [post('a', 'Connection: keep-alive\r\nConnection: close\r\n')]);
    expect(two.closed).toBe(true);
    const half = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => socket.end(post('slow')));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(half).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*POST \/ext\/bc\/X slow$/);
  });

  it('stops reading requests while the client takes no answers, and answers them all once it does', async () => {
    const big: RpcReply = { status: 200, headers: {}, body: 'x'.repeat(100_000) };
    let asked = 0;
    const port = await serve({}, () => (asked++, big));
    const count = 200;
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(Array.from({ length: count }, () => 'GET / HTTP/1.1\r\nHost: h\r\n\r\n').join(''));
    await new Promise((r) => setTimeout(r, 300));
    // Answers past the 1 MiB backlog and what the kernel buffers wait for the client.
    expect(asked).toBeLessThan(count / 2);
    let received = 0;
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= count * 100_000) resolve();
      });
      socket.resume();
    });
    socket.destroy();
    expect(asked).toBe(count);
  });

  it('sends 100 Continue to a client waiting for it, and 417 for other expectations', async () => {
    const port = await serve();
    const head = 'POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n';
    const waiting = await talk(port, [head, 'ok']);
    expect(waiting.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    const refused = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\nok']);
    expect(refused.text).toBe('HTTP/1.1 417 Expectation Failed\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n417 Expectation Failed');
  });

  it('cuts a request not finished in time and a connection idle too long, without an answer', async () => {
    const port = await serve({ readTimeoutMs: 100, idleTimeoutMs: 200 });
    expect(await talk(port, [], 2000)).toEqual({ text: '', closed: true });
    // Blank lines ahead of a request are part of its reading time, not a reason to wait longer.
    const sending = Date.now();
    const blank = await talk(port, Array.from({ length: 50 }, () => '\r\n'), 3000, 20);
    expect(blank).toEqual({ text: '', closed: true });
    expect(Date.now() - sending).toBeLessThan(700);
    const partial = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nab'], 2000);
    expect(partial).toEqual({ text: '', closed: true });
    const started = Date.now();
    const idle = await talk(port, [post('a')], 2000);
    expect(idle.closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(statuses(idle.text)).toEqual([200]);
  });

  it('closes every connection on close()', async () => {
    const port = await serve();
    const open = talk(port, [post('a')], 5000);
    await new Promise((r) => setTimeout(r, 50));
    await running!.close();
    running = undefined;
    const answered = await open;
    expect(answered.text).toContain('POST /ext/bc/X a');
    // Cut by close(), not by the 5 s wait running out.
    expect(answered.closed).toBe(true);
  });
});

describe('refusals', () => {
  const refusal = (status: string, text: string) => `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`;

  it.each([
    ['a missing Host', 'POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n', '400 Bad Request', '400 Bad Request: missing required Host header'],
    ['a malformed request line', 'POST  /x HTTP/1.1\r\nHost: h\r\n\r\n', '400 Bad Request', '400 Bad Request'],
    ['another HTTP version', 'POST /x HTTP/2.0\r\nHost: h\r\n\r\n', '505 HTTP Version Not Supported', '505 HTTP Version Not Supported: unsupported protocol version'],
    ['two Host headers', 'POST /x HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n', '400 Bad Request', '400 Bad Request: too many Host headers'],
    ['a vertical tab around a value', 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \x0bchunked\r\n\r\n', '400 Bad Request', '400 Bad Request: invalid header value'],
    ['a no-break space around a length', 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: \xa05\r\n\r\n', '400 Bad Request', '400 Bad Request: invalid Content-Length'],
    ['chunked followed by another coding line', 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n', '501 Not Implemented', 'Unsupported transfer encoding'],
    ['no request line at all', 'hello\r\n\r\n', '400 Bad Request', '400 Bad Request: malformed HTTP request'],
    ['a space before a header\'s colon', 'POST /x HTTP/1.1\r\nHost : h\r\n\r\n', '400 Bad Request', '400 Bad Request: malformed MIME header line'],
    ['a folded header line', 'POST /x HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n', '400 Bad Request', '400 Bad Request: malformed MIME header line'],
    ['a control character in a value', 'POST /x HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n', '400 Bad Request', '400 Bad Request: invalid header value'],
    ['two different lengths', 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', '400 Bad Request', '400 Bad Request: invalid Content-Length'],
    ['a signed length', 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\na', '400 Bad Request', '400 Bad Request: invalid Content-Length'],
    ['a length beside chunked', 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', '400 Bad Request', '400 Bad Request: both Transfer-Encoding and Content-Length'],
    ['a bad chunk size', 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', '400 Bad Request', '400 Bad Request: malformed chunked encoding'],
    ['a coding other than chunked', 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n', '501 Not Implemented', 'Unsupported transfer encoding'],
  ])('refuses %s in net/http\'s words and closes', async (_, request, status, text) => {
    const port = await serve();
    const answer = await talk(port, [Buffer.from(request, 'latin1')]);
    expect(answer).toEqual({ text: refusal(status, text), closed: true });
    expect(seen).toEqual([]);
  });

  it('answers 431 to a head over the limit, even one never finished', async () => {
    const port = await serve({ maxHeaderBytes: 1024 });
    const long = `POST /x HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(2000)}`;
    expect(await talk(port, [long])).toEqual({ text: refusal('431 Request Header Fields Too Large', '431 Request Header Fields Too Large'), closed: true });
    expect((await talk(port, [post('fine')])).text).toContain('fine');
  });

  it('answers 431 to trailers over the head limit', async () => {
    const port = await serve({ maxHeaderBytes: 1024 });
    const trailers = Array.from({ length: 40 }, (_, i) => `X-T${i}: ${'t'.repeat(40)}\r\n`).join('');
    const answer = await talk(port, [`POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n${trailers}\r\n`]);
    expect([statuses(answer.text), answer.closed]).toEqual([[431], true]);
  });

  it('closes after a 413 to a client waiting for 100 Continue, and after draining at most 256 KiB of any other', async () => {
    const port = await serve({ maxBodyBytes: 10 });
    const waiting = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 20\r\n\r\n'], 2000);
    expect([statuses(waiting.text), waiting.closed]).toEqual([[413], true]);
    const megabyte = 'a'.repeat(64 * 1024);
    const flood = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999\r\n\r\n', ...Array.from({ length: 16 }, () => megabyte)], 3000, 1);
    expect([statuses(flood.text), flood.closed]).toEqual([[413], true]);
  });

  it('answers 413 to a body over the limit at once, declared or chunked, and closes once the body is read', async () => {
    const port = await serve({ maxBodyBytes: 10 });
    const declared = await talk(port, [`POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\n`, 'a'.repeat(20)]);
    expect(statuses(declared.text)).toEqual([413]);
    expect(declared.text).toMatch(/Connection: close\r\n\r\nhttp: request body too large$/);
    expect(declared.closed).toBe(true);
    const chunked = await talk(port, ['POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\naaaaaaaa\r\n8\r\naaaaaaaa\r\n0\r\n\r\n']);
    expect([statuses(chunked.text), chunked.closed]).toEqual([[413], true]);
    expect(seen).toEqual([]);
  });
});
