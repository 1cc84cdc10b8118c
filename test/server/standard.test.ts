/** The jsonrpc2 profile (plain JSON-RPC 2.0) and the fetch adapter of a generated stub. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createXChainEndpoint } from '../../generated/server/dist/index.js';
import { ADDRESS, TX_ID, type Recorder, startStub, stubHandlers } from './stub.ts';
import { rpc, send } from '../support/rpc.ts';

const PATH = '/ext/bc/X';

describe('jsonrpc2 profile', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  const post = async (body: string) => {
    const response = await send(stub.port, { path: PATH, body });
    return { status: response.status, json: response.text ? (JSON.parse(response.text) as unknown) : undefined };
  };
  beforeAll(async () => {
    stub = await startStub({ profile: 'jsonrpc2' });
  });
  afterAll(() => stub.close());

  it('answers a call', async () => {
    expect(await post(rpc('avm.getHeight'))).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', result: { height: '42' }, id: 1 },
    });
  });

  it('answers an unknown method with -32601', async () => {
    expect((await post(rpc('avm.fooBar'))).json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found', data: 'avm.fooBar' },
      id: 1,
    });
  });

  it('answers invalid params with -32602 and the violations', async () => {
    const { json } = (await post(rpc('avm.getBalance', { address: 5 }))) as {
      json: { error: { code: number; data: Array<{ path: string }> } };
    };
    expect(json.error.code).toBe(-32602);
    expect(json.error.data.map((v) => v.path)).toEqual(expect.arrayContaining(['/address']));
  });

  it('refuses a missing required param, which the node profile leaves to the handler', async () => {
    const { json } = (await post(rpc('avm.getBalance', { assetID: 'AVAX' }))) as {
      json: { error: { code: number; data: Array<{ message: string }> } };
    };
    expect(json.error.code).toBe(-32602);
    expect(json.error.data.map((v) => v.message)).toEqual(['missing required param "address"']);
  });

  it('refuses the uint64 numbers Go refuses (exponent, fraction, -0, above 2^64-1), alone or in a batch', async () => {
    const call = (literal: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"avm.getBlockByHeight","params":{"height":${literal},"encoding":"hex"}}`;
    const code = async (body: string) => ((await post(body)).json as { error?: { code: number } }).error?.code;
    for (const literal of [
      '1e2',
      '1.0',
      '-0',
      '18446744073709551616',
      '18446744073709552616',
      '"18446744073709551616"',
    ]) {
      expect(await code(call(literal)), literal).toBe(-32602);
      const batch = (await post(`[${call(literal)}]`)).json as Array<{ error?: { code: number } }>;
      expect(batch[0]!.error?.code, literal).toBe(-32602);
    }
    for (const literal of ['0', '100', '18446744073709551615', '"18446744073709551615"'])
      expect(await code(call(literal)), literal).not.toBe(-32602);
  });

  it('matches param names exactly', async () => {
    const { json } = (await post(rpc('avm.getBalance', { ADDRESS, assetID: 'AVAX' }))) as {
      json: { error: { code: number } };
    };
    expect(json.error.code).toBe(-32602);
  });

  it('refuses by-position params for a by-name method with -32602', async () => {
    const { json } = (await post(rpc('avm.getBalance', [ADDRESS, 'AVAX']))) as { json: { error: { code: number } } };
    expect(json.error.code).toBe(-32602);
  });

  it('answers a parse error with -32700 and an invalid request with -32600', async () => {
    expect(((await post('{"jsonrpc":')).json as { error: { code: number }; id: null }).error.code).toBe(-32700);
    expect(((await post('{"jsonrpc":"2.0","id":1}x')).json as { error: { code: number } }).error.code).toBe(-32700);
    expect((await post('{"jsonrpc":"1.0","id":1,"method":"avm.getHeight"}')).json).toMatchObject({
      error: { code: -32600 },
      id: 1,
    });
    expect((await post('{"jsonrpc":"2.0","id":{},"method":"avm.getHeight"}')).json).toMatchObject({
      error: { code: -32600 },
      id: null,
    });
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":"x"}')).json).toMatchObject({
      error: { code: -32600 },
    });
  });

  it('answers a null id (a request, not a notification)', async () => {
    expect((await post('{"jsonrpc":"2.0","id":null,"method":"avm.getHeight"}')).json).toMatchObject({
      result: { height: '42' },
      id: null,
    });
  });

  it('answers batches, leaving out notifications, and 204 when only notifications came', async () => {
    const batch =
      `[${rpc('avm.getHeight', undefined, 1)},{"jsonrpc":"2.0","method":"avm.getHeight"},` +
      `${rpc('avm.fooBar', undefined, 'b')},5]`;
    const { status, json } = await post(batch);
    expect(status).toBe(200);
    expect(json).toEqual([
      { jsonrpc: '2.0', result: { height: '42' }, id: 1 },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found', data: 'avm.fooBar' }, id: 'b' },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: 'a request is an object' }, id: null },
    ]);
    expect(await post('[{"jsonrpc":"2.0","method":"avm.getHeight"}]')).toEqual({ status: 204, json: undefined });
    expect((await post('[]')).json).toMatchObject({ error: { code: -32600 } });
  });

  it('keeps the code of an RpcError and hides the message of any other exception', async () => {
    expect((await post(rpc('avm.getTx', { txID: '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD' }))).json).toEqual(
      {
        jsonrpc: '2.0',
        error: { code: -32042, message: 'custom failure', data: { reason: 'chosen' } },
        id: 1,
      },
    );
    expect((await post(rpc('avm.getTx', { txID: TX_ID }))).json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
      id: 1,
    });
  });
});

describe('fetch adapter', () => {
  const recorder: Recorder = { calls: [] };
  const endpoint = createXChainEndpoint(stubHandlers(recorder) as never, { maxBodyBytes: 1000 });
  const request = (init: RequestInit & { body?: string }) =>
    endpoint.fetch(new Request('http://127.0.0.1/ext/bc/X', { method: 'POST', ...init }));

  it('answers like the node:http adapter', async () => {
    const ok = await request({ headers: { 'content-type': 'application/json' }, body: rpc('avm.getHeight') });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await ok.text()).toBe('{"jsonrpc":"2.0","result":{"height":"42"},"id":1}\n');
    const notification = await request({
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"avm.getHeight"}',
    });
    expect([notification.status, await notification.text()]).toEqual([200, '']);
  });

  it('refuses what the node refuses', async () => {
    const get = await endpoint.fetch(new Request('http://127.0.0.1/ext/bc/X'));
    expect([get.status, await get.text()]).toEqual([405, 'rpc: POST method required, received GET']);
    const form = await request({ headers: { 'content-type': 'text/plain' }, body: rpc('avm.getHeight') });
    expect([form.status, await form.text()]).toEqual([415, 'rpc: unrecognized Content-Type: text/plain']);
    const big = await request({ headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
  });
});
