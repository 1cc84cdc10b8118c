/** The node profile on a generated stub, case by case, with raw HTTP: what the node's RPC layer answers. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  INVALID_ARGUMENT,
  RawJson,
  createRouter,
  createXChainEndpoint,
  rawJson,
} from '../../generated/server/dist/index.js';
import { ADDRESS, TX_ID, startStub, stubHandlers } from './stub.ts';
import { listen, rpc, send } from '../support/rpc.ts';

const PATH = '/ext/bc/X';
/** The spec's own text for params that fail to decode: the package's INVALID_ARGUMENT must be it. */
const SPEC_INVALID_ARGUMENT = (
  JSON.parse(readFileSync(new URL('../../openrpc/components/common.json', import.meta.url), 'utf8')) as {
    errors: { InvalidArgument: { message: string } };
  }
).errors.InvalidArgument.message;
const errorBody = (code: number, message: string, id = '1', data = 'null') =>
  `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)},"data":${data}},"id":${id}}\n`;

describe('node profile of a generated stub', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  const post = (body: string | Buffer, contentType?: string | null) =>
    send(stub.port, { path: PATH, body, ...(contentType === undefined ? {} : { contentType }) });
  beforeAll(async () => {
    stub = await startStub();
  });
  beforeEach(() => {
    stub.recorder.calls.length = 0;
  });
  afterAll(() => stub.close());

  it('answers a call with the result, the JSON type, nosniff and a newline', async () => {
    const response = await post(rpc('avm.getHeight'));
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"jsonrpc":"2.0","result":{"height":"42"},"id":1}\n');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['0', '0'],
    ['-3', '-3'],
    [' 7 ', '7'],
    ['2.5', '2.5'],
    ['1.0', '1.0'],
    ['-0', '-0'],
    ['-1.5e3', '-1.5e3'],
    ['12345678901234567890', '12345678901234567890'],
    ['"abc"', '"abc"'],
    ['{ "a" : [1, {"b": null}] }', '{"a":[1,{"b":null}]}'],
    ['[1, 2]', '[1,2]'],
    ['true', 'true'],
    ['"<&>"', '"\\u003c\\u0026\\u003e"'],
    ['"\\u00e9"', '"\\u00e9"'],
  ])('echoes the id %s byte for byte (compacted, HTML-escaped as Go does)', async (id, echoed) => {
    const response = await post(`{"jsonrpc":"2.0","id":${id},"method":"avm.getHeight"}`);
    expect(response.text).toBe(`{"jsonrpc":"2.0","result":{"height":"42"},"id":${echoed}}\n`);
  });

  it.each([
    ['{"jsonrpc":"2.0","id":2,"method":"avm.getHeight","id":2.0}', '2.0'],
    ['{"jsonrpc":"2.0","id":2.0,"method":"avm.getHeight","id":2}', '2'],
    ['{"jsonrpc":"2.0","method":"avm.getHeight","params":{"id":1},"id":1.0}', '1.0'],
    ['{"jsonrpc":"2.0","method":"avm.getHeight","params":{"x":"id","xid":"aid"},"id":1e0}', '1e0'],
  ])('echoes the id the decoder kept, whatever else is called "id": %s', async (body, echoed) => {
    const response = await post(body);
    expect(response.text.endsWith(`,"id":${echoed}}\n`)).toBe(true);
  });

  it.each([
    ['no id', '{"jsonrpc":"2.0","method":"avm.getHeight"}'],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"avm.getHeight"}'],
  ])('runs a notification with %s and answers with an empty body', async (_name, body) => {
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(0);
    expect(response.headers['content-type']).toBeUndefined();
    expect(stub.recorder.calls).toEqual([{ method: 'avm.getHeight', params: {}, notification: true }]);
  });

  it('sends nothing for a failing notification either', async () => {
    const response = await post(`{"jsonrpc":"2.0","method":"avm.getTx","params":{"txID":"${TX_ID}"}}`);
    expect(response.text).toBe('');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('matches param names case-insensitively, lets the last duplicate win and drops unknown ones', async () => {
    const body =
      `{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":{"ADDRESS":"X-wrong",` +
      `"address":"${ADDRESS}","assetid":"AVAX","assetId":"asset","bogus":true,"__proto__":{"x":1},"constructor":5}}`;
    const response = await post(body);
    expect(response.text).toBe('{"jsonrpc":"2.0","result":{"balance":"7","utxoIDs":[]},"id":1}\n');
    expect(stub.recorder.calls[0]!.params).toEqual({ address: ADDRESS, assetID: 'asset' });
    expect(Object.getPrototypeOf(stub.recorder.calls[0]!.params)).toBe(Object.prototype);
  });

  it('takes [{...}] as the params object and ignores further elements; null values as absent', async () => {
    const response = await post(
      `{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":[{"address":"${ADDRESS}","assetID":"AVAX",` +
        `"includePartial":null},{"x":1}]}`,
    );
    expect(response.status).toBe(200);
    expect(stub.recorder.calls[0]!.params).toEqual({ address: ADDRESS, assetID: 'AVAX' });
  });

  it("exports the spec's decode-error text as INVALID_ARGUMENT, the text every test compares with", () => {
    expect(INVALID_ARGUMENT).toBe(SPEC_INVALID_ARGUMENT);
  });

  it.each([
    ['a string', '"x"'],
    ['a number', '5'],
    ['an array of a string', '["x"]'],
    ['a wrong type', `{"address":5,"assetID":"AVAX"}`],
  ])(
    'answers -32000 "couldn\'t unmarshal" for params that are %s, without running the handler',
    async (_name, params) => {
      const response = await post(`{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":${params}}`);
      expect(response.text).toBe(errorBody(-32000, INVALID_ARGUMENT));
      expect(response.headers['x-content-type-options']).toBeUndefined();
      expect(stub.recorder.calls).toHaveLength(0);
    },
  );

  // GetBalanceArgs.Address is a Go string (vms/avm/service.go): any string decodes; the handler parses it.
  it('hands a malformed address to the handler, as the node decodes any string into it', async () => {
    const response = await post(
      '{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":{"address":"X-avax1bad","assetID":"AVAX"}}',
    );
    expect(response.status).toBe(200);
    expect(stub.recorder.calls[0]!.params).toEqual({ address: 'X-avax1bad', assetID: 'AVAX' });
  });

  it('leaves a missing required param to the handler, as Go decodes it to its zero value', async () => {
    const response = await post(rpc('avm.getBalance', { assetID: 'AVAX' }));
    expect(response.text).toBe('{"jsonrpc":"2.0","result":{"balance":"7","utxoIDs":[]},"id":1}\n');
    expect(stub.recorder.calls).toEqual([
      { method: 'avm.getBalance', params: { assetID: 'AVAX' }, notification: false },
    ]);
    // A missing param beside one that fails to decode is still the decode error.
    expect((await post(rpc('avm.getBalance', { assetID: 42 }))).text).toBe(errorBody(-32000, INVALID_ARGUMENT));
  });

  it.each([
    ['avm.GetHeight', 'method must start with a non-uppercase letter'],
    ['avm.fooBar', 'rpc: can\'t find method "avm.FooBar"'],
    ['avm.getheight', 'rpc: can\'t find method "avm.Getheight"'],
    ['AVM.getHeight', 'rpc: can\'t find service "AVM.GetHeight"'],
    ['wallet.issueTx', 'rpc: can\'t find service "wallet.IssueTx"'],
    ['getHeight', 'rpc: service/method request ill-formed: "getHeight"'],
    ['avm.get.height', 'rpc: service/method request ill-formed: "avm.Get.height"'],
    ['', 'rpc: service/method request ill-formed: ""'],
    ['avm.', 'rpc: can\'t find method "avm."'],
    ['avm.\u00e9t\u00e9', 'rpc: can\'t find method "avm.\u00c9t\u00e9"'],
    ['avm.get\nHeight', 'rpc: can\'t find method "avm.Get\\nHeight"'],
  ])('names the method %j the way the node does', async (method, message) => {
    const response = await post(rpc(method));
    expect(response.text).toBe(
      errorBody(-32000, message).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
    );
  });

  it('answers handler errors with -32000 and the error message; an RpcError keeps its code and data', async () => {
    expect((await post(rpc('avm.getTx', { txID: TX_ID }))).text).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"tx not found \\u003c\\u0026\\u003e","data":null},"id":1}\n',
    );
    const custom = await post(rpc('avm.getTx', { txID: '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD' }));
    expect(custom.text).toBe(errorBody(-32042, 'custom failure', '1', '{"reason":"chosen"}'));
    expect(custom.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a wrong jsonrpc with -32600 and the decoded request as data', async () => {
    const response = await post('{"jsonrpc":"1.0","id":7,"method":"avm.getHeight","params":{ "a" : 1 }}');
    expect(response.text).toBe(
      errorBody(
        -32600,
        'jsonrpc must be 2.0',
        '7',
        '{"jsonrpc":"1.0","method":"avm.getHeight","params":{"a":1},"id":7}',
      ),
    );
  });

  it.each([
    ['', 'EOF'],
    ['   ', 'EOF'],
    ['{"jsonrpc":', 'unexpected EOF'],
    ['{"jsonrpc":"2.0",}', "invalid character '}' looking for beginning of object key string"],
    ['nul', 'unexpected EOF'],
    ['nulx', "invalid character 'x' in literal null (expecting 'l')"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['[1 2]', "invalid character '2' after array element"],
    ['"a\u0001"', "invalid character '\\x01' in string literal"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['\u00ff', "invalid character 'ÿ' looking for beginning of value"],
    // A byte-order mark is no whitespace to Go: its first byte, 0xEF, is refused.
    ['\ufeff{"jsonrpc":"2.0","id":1,"method":"avm.getHeight"}', "invalid character 'ï' looking for beginning of value"],
    [
      '[{"jsonrpc":"2.0","id":1,"method":"avm.getHeight"}]',
      'json: cannot unmarshal array into Go value of type json2.serverRequest',
    ],
    ['"text"', 'json: cannot unmarshal string into Go value of type json2.serverRequest'],
    ['5', 'json: cannot unmarshal number into Go value of type json2.serverRequest'],
  ])("answers the body %j with -32700 and Go's message", async (body, message) => {
    const response = await post(Buffer.from(body, body === '\u00ff' ? 'latin1' : 'utf8'));
    expect(response.text).toBe(
      errorBody(-32700, message, 'null', '{"jsonrpc":"","method":"","params":null,"id":null}'),
    );
  });

  it('answers a field of the wrong type with -32700 and still echoes the id it decoded', async () => {
    const response = await post('{"jsonrpc":"2.0","id":3,"method":5}');
    expect(response.text).toBe(
      errorBody(
        -32700,
        'json: cannot unmarshal number into Go struct field serverRequest.method of type string',
        '3',
        '{"jsonrpc":"2.0","method":"","params":null,"id":3}',
      ),
    );
  });

  it("refuses deep nesting beyond Go's limit and accepts it up to the limit", async () => {
    const deep = await post(`{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":[${'['.repeat(10000)}`);
    expect(deep.text).toBe(
      errorBody(
        -32700,
        "invalid character '[' exceeded max depth",
        'null',
        '{"jsonrpc":"","method":"","params":null,"id":null}',
      ),
    );
    const ok = await post(
      `{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{"x":${'['.repeat(9998)}${']'.repeat(9998)}}}`,
    );
    expect(ok.text).toBe('{"jsonrpc":"2.0","result":{"height":"42"},"id":1}\n');
  });

  it('keeps invalid UTF-8 of the id as it came and decodes it as U+FFFD inside strings, as Go does', async () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"1.0","id":"'),
      Buffer.from([0xff]),
      Buffer.from('","method":"a'),
      Buffer.from([0xc3]),
      Buffer.from('"}'),
    ]);
    const response = await post(body);
    const expected = Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be ' +
          '2.0","data":{"jsonrpc":"1.0","method":"a\ufffd","params":null,"id":"',
      ),
      Buffer.from([0xff]),
      Buffer.from('"}},"id":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n'),
    ]);
    expect(response.body.toString('latin1')).toBe(expected.toString('latin1'));
  });

  it.each([
    ['GET', 'rpc: POST method required, received GET'],
    ['PUT', 'rpc: POST method required, received PUT'],
    ['DELETE', 'rpc: POST method required, received DELETE'],
  ])('refuses %s with 405 in plain text', async (method, text) => {
    const response = await send(stub.port, { path: PATH, method, body: rpc('avm.getHeight') });
    expect(response.status).toBe(405);
    expect(response.text).toBe(text);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it.each([
    [null, 'rpc: unrecognized Content-Type: '],
    ['text/plain', 'rpc: unrecognized Content-Type: text/plain'],
    ['application/json-rpc', 'rpc: unrecognized Content-Type: application/json-rpc'],
    ['Text/JSON; charset=utf-8', 'rpc: unrecognized Content-Type: Text/JSON'],
  ])('refuses the content type %j with 415', async (contentType, text) => {
    const response = await post(rpc('avm.getHeight'), contentType);
    expect(response.status).toBe(415);
    expect(response.text).toBe(text);
  });

  it.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json;',
    'application/json; charset=utf-8',
    'Application/Json;charset=UTF-8;x=y',
  ])('accepts the content type %j', async (contentType) => {
    expect((await post(rpc('avm.getHeight'), contentType)).status).toBe(200);
  });

  it('answers 404 for a path no endpoint has', async () => {
    const response = await send(stub.port, { path: '/ext/bc/Y', body: rpc('avm.getHeight') });
    expect(response.status).toBe(404);
    expect(response.text).toBe('404 page not found\n');
    expect((await send(stub.port, { path: '/ext/bc/X?x=1', body: rpc('avm.getHeight') })).status).toBe(200);
  });

  it('answers rpc.discover with the endpoint document', async () => {
    const response = JSON.parse((await post(rpc('rpc.discover'))).text) as { result: { info: { title: string } } };
    expect(response.result.info.title).toMatch(/X-Chain/);
  });
});

describe('body size limit', () => {
  it('answers 413 for a declared or streamed body above maxBodyBytes, and keeps serving', async () => {
    const stub = await startStub({ maxBodyBytes: 1000 });
    try {
      const big = rpc('avm.getBalance', { address: ADDRESS, assetID: 'x'.repeat(2000) });
      const declared = await send(stub.port, { path: PATH, body: big });
      expect(declared.status).toBe(413);
      expect(declared.text).toBe('http: request body too large');
      // No length declared: the limit is found while reading.
      const streamed = await send(stub.port, {
        path: PATH,
        headers: { 'transfer-encoding': 'chunked' },
        body: 'x'.repeat(2000),
      });
      expect(streamed.status).toBe(413);
      expect((await send(stub.port, { path: PATH, body: rpc('avm.getHeight') })).status).toBe(200);
    } finally {
      await stub.close();
    }
  });
});

describe('result validation (strict mode)', () => {
  it('answers -32603 naming the mismatch when a handler returns a result off the spec', async () => {
    const stub = await startStub({ validateResults: true }, 42);
    try {
      const response = JSON.parse((await send(stub.port, { path: PATH, body: rpc('avm.getHeight') })).text) as {
        error: { code: number; message: string };
      };
      expect(response.error.code).toBe(-32603);
      expect(response.error.message).toMatch(/^result of avm\.getHeight does not match its schema: .*height/);
    } finally {
      await stub.close();
    }
  });
});

describe('results written ahead (rawJson)', () => {
  const serve = async (height: unknown, validateResults: boolean) => {
    const handlers = { ...stubHandlers({ calls: [] }), getHeight: () => rawJson({ height }) };
    return listen(createRouter({ [PATH]: createXChainEndpoint(handlers as never, { validateResults }) }).node as never);
  };

  it("sends the written JSON as it is, with Go's escaping, and checks it in strict mode", async () => {
    const loose = await serve('<4&2>', false);
    const strict = await serve('<4&2>', true);
    try {
      expect((await send(loose.port, { path: PATH, body: rpc('avm.getHeight') })).text).toBe(
        '{"jsonrpc":"2.0","result":{"height":"\\u003c4\\u00262\\u003e"},"id":1}\n',
      );
      const refused = JSON.parse((await send(strict.port, { path: PATH, body: rpc('avm.getHeight') })).text) as {
        error: { code: number; message: string };
      };
      expect(refused.error.code).toBe(-32603);
      expect(refused.error.message).toMatch(/^result of avm\.getHeight does not match its schema: .*height/);
    } finally {
      await Promise.all([loose.close(), strict.close()]);
    }
  });

  it('passes strict mode when the written result matches the spec', async () => {
    const strict = await serve('42', true);
    try {
      expect((await send(strict.port, { path: PATH, body: rpc('avm.getHeight') })).text).toBe(
        '{"jsonrpc":"2.0","result":{"height":"42"},"id":1}\n',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('results written ahead as bytes (RawJson.bytes)', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  // "é" split across two pieces: the pieces are one text, not each a text of its own.
  const pieces = () => [utf8('{"height":"4'), utf8('2\u00e9').subarray(0, 2), new Uint8Array([0xa9]), utf8('\u00a9"}')];
  const serve = (validateResults: boolean, profile?: 'jsonrpc2') => {
    const handlers = { ...stubHandlers({ calls: [] }), getHeight: () => RawJson.bytes(pieces()) };
    const endpoint = createXChainEndpoint(handlers as never, { validateResults, ...(profile ? { profile } : {}) });
    return listen(createRouter({ [PATH]: endpoint }).node as never);
  };

  it('sends the pieces one after the other, in both profiles, with the length of their bytes', async () => {
    const node = await serve(false);
    const standard = await serve(false, 'jsonrpc2');
    try {
      const answer = await send(node.port, { path: PATH, body: rpc('avm.getHeight') });
      expect(answer.text).toBe('{"jsonrpc":"2.0","result":{"height":"42\u00e9\u00a9"},"id":1}\n');
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse((await send(standard.port, { path: PATH, body: rpc('avm.getHeight') })).text)).toEqual({
        jsonrpc: '2.0',
        result: { height: '42\u00e9\u00a9' },
        id: 1,
      });
    } finally {
      await Promise.all([node.close(), standard.close()]);
    }
  });

  it('lends a large reply a buffer that no other reply gets until it is sent, then reuses it', async () => {
    let calls = 0;
    // 300 KB each, every one of its own content.
    const height = (n: number) => `${n}-${String(n % 10).repeat(300_000)}-${n}`;
    const handlers = {
      ...stubHandlers({ calls: [] }),
      getHeight: () => RawJson.bytes([new TextEncoder().encode(`{"height":"${height(++calls)}"}`)]),
    };
    const listener = createXChainEndpoint(handlers as never).node;
    const body = new TextEncoder().encode(rpc('avm.getHeight'));
    // node:http's objects as far as the adapter uses them; `finish` (the reply handed to the socket whole) comes when
    // the test says.
    const call = () => {
      const on: Record<string, Array<() => void>> = {};
      let sent: Uint8Array | undefined;
      const req = {
        method: 'POST',
        url: PATH,
        headers: { 'content-type': 'application/json' },
        on: (event: string, listener: () => void) => {
          (on[event] ??= []).push(listener);
          return req;
        },
        resume: () => req,
      };
      const res = {
        headersSent: false,
        writableEnded: false,
        writeHead: () => res,
        setHeader: () => res,
        on: (event: string, listener: () => void) => {
          (on[`res:${event}`] ??= []).push(listener);
          return res;
        },
        end: (data: Uint8Array) => void (sent = data),
      };
      listener(req as never, res as never);
      for (const f of on.data ?? []) (f as (chunk: Uint8Array) => void)(body);
      for (const f of on.end ?? []) f();
      const text = () => Buffer.from(sent!).toString();
      return { sent: sent!, text, finish: () => (on['res:finish'] ?? []).forEach((f) => f()) };
    };
    const first = call();
    const firstText = first.text();
    const second = call();
    expect(second.sent.buffer).not.toBe(first.sent.buffer);
    expect(first.text()).toBe(firstText);
    expect(firstText).toContain(height(1));
    expect(second.text()).toContain(height(2));
    first.finish();
    const third = call();
    expect(third.sent.buffer).toBe(first.sent.buffer);
    expect(third.text()).toContain(height(3));
    expect(second.text()).toContain(height(2));
  });

  it('is checked against the spec in strict mode as its text', async () => {
    const strict = await serve(true);
    try {
      const refused = JSON.parse((await send(strict.port, { path: PATH, body: rpc('avm.getHeight') })).text) as {
        error: { code: number; message: string };
      };
      expect(refused.error.code).toBe(-32603);
      expect(refused.error.message).toMatch(/height/);
    } finally {
      await strict.close();
    }
  });
});

describe('router headers', () => {
  it('go with every reply: answers, refusals, 404 and CORS preflights', async () => {
    const endpoint = createXChainEndpoint(stubHandlers({ calls: [] }) as never);
    const router = await listen(
      createRouter({ [PATH]: endpoint }, { headers: { 'node-id': 'NodeID-test' }, cors: true }).node as never,
    );
    try {
      const replies = await Promise.all([
        send(router.port, { path: PATH, body: rpc('avm.getHeight') }),
        send(router.port, { path: PATH, body: rpc('avm.getHeight'), contentType: 'text/plain' }),
        send(router.port, { path: PATH, method: 'GET' }),
        send(router.port, { path: '/nowhere', body: rpc('avm.getHeight') }),
        send(router.port, {
          path: PATH,
          method: 'OPTIONS',
          headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' },
        }),
      ]);
      expect(replies.map((reply) => reply.status)).toEqual([200, 415, 405, 404, 204]);
      for (const reply of replies) expect(reply.headers['node-id']).toBe('NodeID-test');
      expect(replies[0]!.headers['access-control-allow-origin']).toBeUndefined();
      expect(replies[4]!.headers['access-control-allow-origin']).toBe('*');
      const withOrigin = await send(router.port, {
        path: PATH,
        body: rpc('avm.getHeight'),
        headers: { origin: 'http://127.0.0.1:1' },
      });
      expect(withOrigin.headers).toMatchObject({
        'node-id': 'NodeID-test',
        'access-control-allow-origin': '*',
        vary: 'Origin',
      });
    } finally {
      await router.close();
    }
  });

  it("give way to the reply's own header of the same name, whatever its case, over node:http and fetch", async () => {
    const endpoint = createXChainEndpoint(stubHandlers({ calls: [] }) as never);
    const routes = createRouter(
      { [PATH]: endpoint },
      { headers: { 'x-content-type-options': 'router', 'content-type': 'text/router' }, cors: true },
    );
    const router = await listen(routes.node as never);
    const preflight = { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' };
    const preflightVary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
    try {
      const answer = await send(router.port, { path: PATH, body: rpc('avm.getHeight') });
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((await send(router.port, { path: PATH, method: 'OPTIONS', headers: preflight })).headers.vary).toBe(
        preflightVary,
      );
      const viaFetch = await routes.fetch(
        new Request(`http://127.0.0.1${PATH}`, { method: 'OPTIONS', headers: preflight }),
      );
      expect(viaFetch.headers.get('vary')).toBe(preflightVary);
      const fetched = await routes.fetch(
        new Request(`http://127.0.0.1${PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: rpc('avm.getHeight'),
        }),
      );
      expect([fetched.headers.get('x-content-type-options'), fetched.headers.get('content-type')]).toEqual([
        'nosniff',
        'application/json; charset=utf-8',
      ]);
    } finally {
      await router.close();
    }
  });

  it('reach an endpoint listener that takes no headers argument, set on the response', async () => {
    const endpoint = createXChainEndpoint(stubHandlers({ calls: [] }) as never);
    const wrapped: typeof endpoint = { ...endpoint, node: (req, res) => endpoint.node(req, res) };
    const router = await listen(
      createRouter({ [PATH]: wrapped }, { headers: { 'node-id': 'NodeID-test' } }).node as never,
    );
    try {
      const answer = await send(router.port, { path: PATH, body: rpc('avm.getHeight') });
      expect([answer.status, answer.headers['node-id'], answer.text]).toEqual([
        200,
        'NodeID-test',
        '{"jsonrpc":"2.0","result":{"height":"42"},"id":1}\n',
      ]);
    } finally {
      await router.close();
    }
  });
});

describe('onRefused', () => {
  it('sees each call refused before a handler ran, in both profiles, and no call a handler answered', async () => {
    const seen: Array<[string, string]> = [];
    const onRefused = (method: string, message: string) => seen.push([method, message]);
    const node = createXChainEndpoint(stubHandlers({ calls: [] }) as never, { onRefused });
    const standard = createXChainEndpoint(stubHandlers({ calls: [] }) as never, { onRefused, profile: 'jsonrpc2' });
    const body = (text: string) => new TextEncoder().encode(text);
    for (const endpoint of [node, standard]) {
      await endpoint.answer(body(rpc('avm.getHeight')), { headers: {} });
      await endpoint.answer(body(rpc('avm.getTx', { txID: TX_ID })), { headers: {} });
      await endpoint.answer(body(rpc('avm.noSuchMethod')), { headers: {} });
      await endpoint.answer(body(rpc('avm.getBalance', { address: 5 })), { headers: {} });
      await endpoint.answer(body('{"jsonrpc":"2.0",'), { headers: {} });
    }
    expect(seen).toEqual([
      ['avm.noSuchMethod', 'rpc: can\'t find method "avm.NoSuchMethod"'],
      ['avm.getBalance', INVALID_ARGUMENT],
      ['', 'unexpected EOF'],
      ['avm.noSuchMethod', 'Method not found'],
      ['avm.getBalance', 'Invalid params'],
      ['', 'Parse error'],
    ]);
  });

  it('answers as usual when the hook throws', async () => {
    const onRefused = () => {
      throw new Error('log is down');
    };
    const body = new TextEncoder().encode(rpc('avm.noSuchMethod'));
    const node = await createXChainEndpoint(stubHandlers({ calls: [] }) as never, { onRefused }).answer(body, {
      headers: {},
    });
    expect([node.status, node.body]).toEqual([200, errorBody(-32000, 'rpc: can\'t find method "avm.NoSuchMethod"')]);
    const standard = await createXChainEndpoint(stubHandlers({ calls: [] }) as never, {
      onRefused,
      profile: 'jsonrpc2',
    }).answer(body, { headers: {} });
    expect(standard.status).toBe(200);
    expect(JSON.parse(String(standard.body))).toMatchObject({ error: { code: -32601 } });
  });
});
