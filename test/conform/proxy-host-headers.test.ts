/**
 * The proxy passes the node's answer through whatever a caller says about its connection: a Connection header that
 * names Host or Content-Type (headers the node's answer turns on) does not take them off the request, and an HTTP/1.0
 * caller without a Host, which the node serves, is served through the proxy too (the proxy speaks HTTP/1.1 upstream,
 * where a request without Host is refused). Raw sockets: fetch sends neither HTTP/1.0 nor a Connection header.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ValidatingProxy, startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const BODY = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';

let node: RunningMockNode;
let proxy: ValidatingProxy;
beforeAll(async () => {
  node = await startMockNode({ port: 0 });
  proxy = await startProxy({ upstream: node.url, validator: new SpecValidator(loadSpecModel()) });
});
afterAll(async () => {
  await proxy?.close();
  await node?.close();
});

/** The status line and body of the answer to `head` (without its blank line) and BODY, sent to `url`. */
function exchange(url: string, head: string): Promise<{ status: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    // The request asks to close the connection, so the answer ends with it, however it is framed.
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      const body = text.slice(end + 4);
      const chunked = /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end));
      resolve({ status: text.slice(0, text.indexOf('\r\n')), body: chunked ? unchunk(body) : body });
    });
    socket.on('error', reject);
    socket.write(
      `${head}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`,
    );
  });
}

/** A chunked body's content (a refusal the node ends by closing reaches the caller chunked through the proxy). */
function unchunk(body: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const line = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, line), 16);
    if (!(size > 0)) return out;
    out += body.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

describe('headers a Connection header names, through the proxy', () => {
  it('keeps Host: a foreign Host still gets the node’s 403, as it does sent to the node', async () => {
    const head = 'POST /ext/info HTTP/1.1\r\nHost: evil.example\r\nConnection: keep-alive, Host';
    const direct = await exchange(node.url, head);
    expect(direct).toEqual({ status: 'HTTP/1.1 403 Forbidden', body: 'invalid host specified\n' });
    expect(await exchange(proxy.url, head)).toEqual(direct);
  });

  it('keeps Content-Type: the call is answered, not refused 415', async () => {
    const head = 'POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: content-type';
    const direct = await exchange(node.url, head);
    expect(direct.status).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(direct.body)).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 });
    expect(await exchange(proxy.url, head)).toEqual(direct);
  });
});

describe('an HTTP/1.0 caller without a Host header', () => {
  it('gets through the proxy the answer the node gives it', async () => {
    const head = 'POST /ext/info HTTP/1.0';
    const direct = await exchange(node.url, head);
    expect(direct.status).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(direct.body)).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 });
    expect(await exchange(proxy.url, head)).toEqual(direct);
  });
});

describe('an expectation the proxy does not know', () => {
  it('reaches the node, whose refusal the caller gets', async () => {
    const head = 'POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 101-nonsense';
    const direct = await exchange(node.url, head);
    expect(direct).toEqual({ status: 'HTTP/1.1 417 Expectation Failed', body: '417 Expectation Failed' });
    expect(await exchange(proxy.url, head)).toEqual(direct);
  });
});
