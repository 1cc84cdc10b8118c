/**
 * The generated client package (its emitted dist/ JavaScript, as consumers load it) against a real HTTP server on
 * 127.0.0.1: every method of every endpoint with the spec's own examples, then each way a call can fail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as client from '../../generated/client/dist/index.js';
import {
  AvalancheRpcError,
  HttpStatusError,
  InvalidResponseError,
  JsonRpcError,
  KeystoreClient,
  NetworkError,
  NotServedError,
  PChainClient,
  TimeoutError,
  XChainClient,
  XWalletClient,
} from '../../generated/client/dist/index.js';
import { clientClassName } from '../../generators/model/names.ts';
import { loadModel } from '../../generators/pipeline.ts';
import { type NodeStub, answer, startNodeStub } from './node-stub.ts';

let node: NodeStub;
beforeAll(async () => {
  node = await startNodeStub();
});
afterAll(() => node.close());
beforeEach(() => {
  node.requests.length = 0;
  node.respond(answer({}));
});

type AnyMethod = (...args: unknown[]) => Promise<unknown>;
const model = loadModel('openrpc');

describe('every method of every endpoint, with the examples of the spec', () => {
  const cases = model.endpoints.flatMap((endpoint) =>
    endpoint.methods.map((method) => ({
      label: `${clientClassName(endpoint.typeName)}.${method.shortName}`,
      endpoint,
      method,
    })),
  );

  it.each(cases)('$label', async ({ endpoint, method }) => {
    const Client = (client as unknown as Record<string, new (options: object) => Record<string, AnyMethod>>)[
      clientClassName(endpoint.typeName)
    ]!;
    const instance = new Client({ baseUrl: node.url });
    for (const example of method.examples) {
      node.requests.length = 0;
      node.respond(answer(example.result));
      const call = instance[method.shortName]!.bind(instance);
      const result = method.params.length > 0 ? await call(example.params) : await call();
      expect(result).toEqual(example.result);
      const [request] = node.requests;
      expect(request!.method).toBe('POST');
      expect(request!.path).toBe(endpoint.defaultPath);
      expect(request!.headers['content-type']).toBe('application/json');
      const id = (JSON.parse(request!.body) as { id: number }).id;
      expect(request!.body).toBe(JSON.stringify({ jsonrpc: '2.0', id, method: method.name, params: example.params }));
    }
  });
});

describe('requests', () => {
  it('send params by name, {} for a method without params, with a new id each call', async () => {
    const pchain = new PChainClient({ baseUrl: node.url });
    await pchain.getHeight();
    await pchain.getBlock({ blockID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm', encoding: 'json' });
    // The untyped call of a by-name spec sends what the typed method does, and so for a method it does not describe.
    await pchain.call('platform.getHeight');
    await pchain.call('platform.notInTheSpec');
    expect(node.requests.map((r) => r.body)).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight","params":{}}',
      '{"jsonrpc":"2.0","id":2,"method":"platform.getBlock",' +
        '"params":{"blockID":"2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm","encoding":"json"}}',
      '{"jsonrpc":"2.0","id":3,"method":"platform.getHeight","params":{}}',
      '{"jsonrpc":"2.0","id":4,"method":"platform.notInTheSpec","params":{}}',
    ]);
  });

  it("that the client's nodeVersion does not serve fail before sending, naming the release", async () => {
    const old = new PChainClient({ baseUrl: node.url, nodeVersion: 'v1.11.12' });
    const added = await old
      .getL1Validator({ validationID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm' })
      .catch((e: unknown) => e);
    expect(added).toBeInstanceOf(NotServedError);
    expect(added).toBeInstanceOf(AvalancheRpcError);
    expect(added).toMatchObject({
      method: 'platform.getL1Validator',
      nodeVersion: 'v1.11.12',
      since: 'v1.11.13',
      removedIn: undefined,
    });
    expect((added as Error).message).toBe(
      'platform.getL1Validator: not served by v1.11.12 (added in v1.11.13); nothing was sent',
    );
    const removed = await new KeystoreClient({ baseUrl: node.url, nodeVersion: 'v1.12.2' })
      .listUsers()
      .catch((e: unknown) => e);
    expect(removed).toMatchObject({ name: 'NotServedError', removedIn: 'v1.12.2' });
    expect(node.requests).toEqual([]);
    // What the release serves is sent as always.
    await old.getHeight();
    await new KeystoreClient({ baseUrl: node.url, nodeVersion: 'v1.12.1' }).listUsers();
    expect(node.requests.map((r) => JSON.parse(r.body).method)).toEqual(['platform.getHeight', 'keystore.listUsers']);
    expect(() => new PChainClient({ nodeVersion: '1.12' })).toThrow(/nodeVersion must look like v1.12.1/);
  });

  it('reach any AVM chain by blockchain ID or alias, and its wallet', async () => {
    await new XChainClient({
      baseUrl: `${node.url}/`,
      blockchainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    }).getHeight();
    await new XChainClient({ baseUrl: node.url }).getHeight();
    await new XWalletClient({ baseUrl: node.url, blockchainID: 'my chain' }).issueTx({ tx: '0x00' });
    expect(node.requests.map((r) => r.path)).toEqual([
      '/ext/bc/2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
      '/ext/bc/X',
      '/ext/bc/my%20chain/wallet',
    ]);
  });

  it('carry extra headers, through a custom fetch', async () => {
    const seen: string[] = [];
    const pchain = new PChainClient({
      baseUrl: node.url,
      headers: { Authorization: 'Bearer t0ken' },
      fetch: (url, init) => {
        seen.push(url);
        return fetch(url, init);
      },
    });
    await pchain.getHeight();
    expect(seen).toEqual([`${node.url}/ext/bc/P`]);
    expect(node.requests[0]!.headers.authorization).toBe('Bearer t0ken');
    expect(node.requests[0]!.headers['content-type']).toBe('application/json');
  });
});

describe('errors', () => {
  const pchain = () => new PChainClient({ baseUrl: node.url, timeoutMs: 5000 });

  it('a JSON-RPC error becomes a JsonRpcError with code, message, data and method', async () => {
    node.respond((request, response) => {
      const { id } = JSON.parse(request.body) as { id: number };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: "couldn't get block: not found", data: { height: 7 } },
          id,
        }),
      );
    });
    const error = await pchain()
      .getBlock({ blockID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toBeInstanceOf(AvalancheRpcError);
    expect(error).toMatchObject({
      name: 'JsonRpcError',
      code: -32000,
      message: expect.stringContaining("couldn't get block: not found"),
      data: { height: 7 },
      method: 'platform.getBlock',
      url: `${node.url}/ext/bc/P`,
    });
  });

  it('an error the server could not tie to a request (id null) is still a JsonRpcError', async () => {
    node.respond((_request, response) =>
      response.end('{"jsonrpc":"2.0","error":{"code":-32700,"message":"unexpected EOF","data":null},"id":null}'),
    );
    await expect(pchain().getHeight()).rejects.toMatchObject({ name: 'JsonRpcError', code: -32700, data: null });
  });

  it.each([
    [415, 'rpc: unrecognized Content-Type: text/plain'],
    [500, 'internal error'],
    [503, 'API call rejected because chain is not done bootstrapping'],
  ])('HTTP %i becomes an HttpStatusError with the status and the body', async (status, body) => {
    node.respond((_request, response) => response.writeHead(status, { 'content-type': 'text/plain' }).end(body));
    const error = await pchain()
      .getHeight()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ status, body, method: 'platform.getHeight' });
    expect((error as Error).message).toBe(`platform.getHeight: ${node.url}/ext/bc/P answered HTTP ${status}: ${body}`);
  });

  it('keeps only a short excerpt of a long body', async () => {
    node.respond((_request, response) => response.writeHead(500).end(`<html>\n${'x'.repeat(5000)}</html>`));
    const error = (await pchain()
      .getHeight()
      .catch((e: unknown) => e)) as HttpStatusError;
    expect(error.body.length).toBeLessThanOrEqual(203);
    expect(error.body).toMatch(/^<html> x+\.\.\.$/);
  });

  it('never echoes a secret (x-sensitive) in an error: JSON, cut short, other key case, or HTTP status', async () => {
    const keystore = new KeystoreClient({ baseUrl: node.url });
    const secret = 'Hunter2-Secret-\\"-Pass';
    const bodies = [
      `{"jsonrpc":"2.0","result":{"user":"0xdeadbeef${'ab'.repeat(300)}","encoding":"hex"},"id":999}`,
      `{"jsonrpc":"2.0","id":999,"result":{"PassWord" : "${secret}"}}`,
      `<html>echo: {"password":"${secret}"}</html>`,
      `{"password":"${secret}`,
    ];
    for (const [i, body] of bodies.entries()) {
      for (const status of [200, 500]) {
        node.respond((_request, response) => response.writeHead(status).end(body));
        const error = (await keystore
          .exportUser({ username: 'alice', password: secret })
          .catch((e: unknown) => e)) as InvalidResponseError;
        expect(error.name, `${i} ${status}`).toBe(status === 200 ? 'InvalidResponseError' : 'HttpStatusError');
        for (const text of [error.message, error.body, error.stack ?? '', error.url]) {
          expect(text).not.toContain('Hunter2');
          expect(text).not.toContain('deadbeef');
        }
        expect(error.body).toContain('"<redacted>"');
      }
    }
    // Other endpoints have no secrets to hide and show bodies as they are.
    node.respond((_request, response) => response.writeHead(500).end('{"password":"shown"}'));
    expect(
      (
        (await pchain()
          .getHeight()
          .catch((e: unknown) => e)) as HttpStatusError
      ).body,
    ).toBe('{"password":"shown"}');
  });

  it('a body that is not JSON becomes an InvalidResponseError', async () => {
    node.respond((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>'),
    );
    await expect(pchain().getHeight()).rejects.toThrow(InvalidResponseError);
    await expect(pchain().getHeight()).rejects.toThrow(
      /platform\.getHeight: invalid response from .*: the body is not JSON; body: <html>proxy login<\/html>/,
    );
  });

  it('an answer to another request id becomes an InvalidResponseError naming both ids', async () => {
    node.respond((_request, response) => response.end('{"jsonrpc":"2.0","result":{"height":"1"},"id":999}'));
    await expect(pchain().getHeight()).rejects.toThrow(
      new InvalidResponseError(
        'platform.getHeight',
        `${node.url}/ext/bc/P`,
        'the response id 999 does not match the request id 1',
        '{"jsonrpc":"2.0","result":{"height":"1"},"id":999}',
      ),
    );
  });

  it('a response without result or error, or without jsonrpc 2.0, is an InvalidResponseError', async () => {
    node.respond(answer(undefined));
    await expect(pchain().getHeight()).rejects.toThrow(/neither result nor error/);
    node.respond((_request, response) => response.end('{"result":{},"id":1}'));
    await expect(pchain().getHeight()).rejects.toThrow(/not a JSON-RPC 2.0 response object/);
  });

  // Undici's own limit on a silent server is 300 s: past the test's time limit, so an ignored timeoutMs fails here.
  it('no answer within the timeout becomes a TimeoutError', async () => {
    node.respond(() => undefined);
    await expect(new PChainClient({ baseUrl: node.url, timeoutMs: 150 }).getHeight()).rejects.toMatchObject({
      name: 'TimeoutError',
      timeoutMs: 150,
    });
    await expect(pchain().getHeight({ timeoutMs: 100 })).rejects.toThrow(
      new TimeoutError('platform.getHeight', `${node.url}/ext/bc/P`, 100),
    );
  });

  it('a body that stops half way is a timeout too', async () => {
    node.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"jsonrpc":"2.0",');
    });
    await expect(pchain().getHeight({ timeoutMs: 150 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('an aborted call rejects with the signal reason, sent or not', async () => {
    node.respond(() => undefined);
    const controller = new AbortController();
    const call = pchain().getHeight({ signal: controller.signal });
    await expect.poll(() => node.requests.length).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });

    const reason = new Error('user left the page');
    await expect(pchain().getHeight({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(node.requests.length).toBe(1);
  });

  it('a refused connection becomes a NetworkError with its cause', async () => {
    const closed = await startNodeStub();
    await closed.close();
    const error = await new PChainClient({ baseUrl: closed.url }).getHeight().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^platform\.getHeight: request to http:\/\/127\.0\.0\.1:\d+\/ext\/bc\/P failed: fetch failed/,
    );
  });
});
