/**
 * /ext/bc/C/rpc's HTTP rules as geth's ServeHTTP and validateRequest apply them (rpc/http.go of libevm, which coreth
 * serves): an empty GET without a query is a health check; PUT and DELETE are refused with 405, before the length;
 * OPTIONS passes whatever its type; any other method is served by its media type, one of application/json,
 * application/json-rpc and application/jsonrequest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const url = () => `${node.url}/ext/bc/C/rpc`;
const CHAIN_ID = rpc('eth_chainId', []);
// node:http's client declares no length for a GET's or an OPTIONS' body unless told.
const LENGTH = { 'content-length': String(CHAIN_ID.length) };

describe('/ext/bc/C/rpc over HTTP', () => {
  it('takes the three media types geth accepts, with parameters and in any case', async () => {
    for (const contentType of [
      'application/json',
      'application/json-rpc',
      'application/jsonrequest',
      'Application/JSON-RPC; charset=utf-8',
    ]) {
      const answer = await send(url(), { contentType, body: CHAIN_ID });
      expect([contentType, answer.status, JSON.parse(answer.text).result]).toEqual([contentType, 200, '0xa868']);
    }
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const answer = await send(url(), { contentType, body: CHAIN_ID });
      expect([answer.status, answer.text]).toEqual([415, 'invalid content type, only application/json is supported\n']);
    }
  });

  it('answers an empty GET without a query as a health check; a GET with a query or a body is validated', async () => {
    expect((await send(url(), { method: 'GET', contentType: null })).status).toBe(200);
    const query = await send(`${url()}?check=1`, { method: 'GET', contentType: null });
    expect([query.status, query.text]).toEqual([415, 'invalid content type, only application/json is supported\n']);
    const withBody = await send(url(), { method: 'GET', headers: LENGTH, body: CHAIN_ID });
    expect([withBody.status, JSON.parse(withBody.text).result]).toEqual([200, '0xa868']);
  });

  it('refuses PUT and DELETE with 405 whatever their length; serves OPTIONS and PATCH', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const answer = await send(url(), { method, headers: LENGTH, body: CHAIN_ID });
      expect([answer.status, answer.text]).toEqual([405, 'method not allowed\n']);
      // Refused on its head: a body declared over 5 MiB and never sent is not waited for.
      const huge = await send(url(), { method, headers: { 'content-length': String(6 * 1024 * 1024) } });
      expect([huge.status, huge.text]).toEqual([405, 'method not allowed\n']);
    }
    const options = await send(url(), {
      method: 'OPTIONS',
      contentType: 'text/plain',
      headers: LENGTH,
      body: CHAIN_ID,
    });
    expect([options.status, JSON.parse(options.text).result]).toEqual([200, '0xa868']);
    const patch = await send(url(), { method: 'PATCH', body: CHAIN_ID });
    expect([patch.status, JSON.parse(patch.text).result]).toEqual([200, '0xa868']);
  });
});
