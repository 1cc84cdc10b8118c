/**
 * Malformed input against the mock node (and so the generated stubs under it): random and mutated requests, each
 * answered in one of the documented forms, never a crash or a stack trace; cut and slow connections; and the node
 * still answers afterwards.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

const LIMIT = 64 * 1024;
const PATHS = ['/ext/bc/X', '/ext/P', '/ext/bc/X/wallet', '/ext/admin', '/ext/keystore', '/ext/vm/avm'];
const TEXT_ANSWERS: Record<number, RegExp> = {
  404: /^404 page not found\n$/,
  405: /^rpc: POST method required, received [A-Z]+$/,
  413: /^http: request body too large$/,
  415: /^rpc: unrecognized Content-Type: /,
};

const model = loadModel('openrpc');
const examples = model.endpoints.flatMap((endpoint) =>
  endpoint.methods.flatMap((method) =>
    method.examples.map((example) => ({ method: method.name, params: example.params })),
  ),
);

/** Checks that an answer is one of the forms the node gives; returns a description of what is wrong, if anything. */
function problemWith(status: number, headers: Record<string, unknown>, body: Buffer): string | undefined {
  const text = body.toString('utf8');
  if (/\n\s+at |node_modules|\.ts:\d/.test(text)) return `stack trace in ${text.slice(0, 200)}`;
  if (TEXT_ANSWERS[status])
    return TEXT_ANSWERS[status]!.test(text) ? undefined : `status ${status} with ${text.slice(0, 100)}`;
  if (status !== 200) return `status ${status}`;
  if (body.length === 0) return headers['content-type'] === undefined ? undefined : 'empty answer with a content type';
  if (!text.endsWith('\n') || headers['content-type'] !== 'application/json; charset=utf-8')
    return `malformed answer ${text.slice(0, 100)}`;
  const answer = JSON.parse(text) as Record<string, unknown>;
  const keys = Object.keys(answer).join(',');
  if (keys !== 'jsonrpc,result,id' && keys !== 'jsonrpc,error,id') return `keys ${keys}`;
  if (answer.jsonrpc !== '2.0') return 'jsonrpc';
  if (answer.error) {
    const error = answer.error as Record<string, unknown>;
    if (Object.keys(error).join(',') !== 'code,message,data') return `error keys ${Object.keys(error).join(',')}`;
    if (![-32000, -32600, -32700].includes(error.code as number))
      return `error code ${String(error.code)}: ${String(error.message)}`;
    if (typeof error.message !== 'string') return 'error message';
  }
  return undefined;
}

const jsonText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
const envelope = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
      method: fc.oneof(fc.constantFrom(...examples.map((e) => e.method), 'rpc.discover'), fc.string()),
      params: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.dictionary(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'address', 'ADDRESSES', 'limit'),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      ),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));
const exampleBody = fc.constantFrom(...examples).chain((example) =>
  fc.oneof(
    fc.constant(rpc(example.method, example.params)),
    fc
      .jsonValue({ maxDepth: 2 })
      .map((value) => rpc(example.method, Object.fromEntries(Object.keys(example.params).map((key) => [key, value])))),
  ),
);
const mutated = fc
  .tuple(
    exampleBody,
    fc.nat(),
    fc.uint8Array({ minLength: 1, maxLength: 8 }),
    fc.constantFrom('cut', 'insert', 'replace'),
  )
  .map(([body, at, bytes, how]) => {
    const raw = Buffer.from(body);
    const position = at % (raw.length + 1);
    if (how === 'cut') return raw.subarray(0, position);
    if (how === 'insert') return Buffer.concat([raw.subarray(0, position), bytes, raw.subarray(position)]);
    return Buffer.concat([raw.subarray(0, position), bytes, raw.subarray(position + bytes.length)]);
  });
const nested = fc
  .tuple(fc.integer({ min: 1, max: 12000 }), fc.boolean(), fc.constantFrom('[', '{"a":'))
  .map(([depth, closed, open]) => {
    const inner = open.repeat(depth) + (open === '[' ? '' : '1');
    return (
      `{"jsonrpc":"2.0","id":1,"method":"avm.getHeight",` +
      `"params":${closed ? inner + (open === '[' ? ']' : '}').repeat(depth) : inner}}`
    );
  });
const invalidUtf8 = fc
  .tuple(exampleBody, fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]))
  .map(([body, bytes]) => {
    const at = body.indexOf('"', body.indexOf('method') + 9);
    return Buffer.concat([Buffer.from(body.slice(0, at)), Buffer.from(bytes), Buffer.from(body.slice(at))]);
  });
// Hostile shapes (issue 14): long arrays of invalid items, ids nested deep, long runs of bytes that are not UTF-8.
const invalidItems = fc
  .tuple(fc.integer({ min: 100, max: 6000 }), fc.constantFrom('"x"', '1', 'null', '{}', '[]', '"P-avax1"'))
  .map(
    ([count, item]) =>
      `{"jsonrpc":"2.0","id":1,"method":"platform.getBalance",` +
      `"params":{"addresses":[${Array(count).fill(item).join(',')}]}}`,
  );
const deepId = fc.tuple(fc.integer({ min: 1, max: 12000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
  const id = open === '[' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${open.repeat(depth)}1${'}'.repeat(depth)}`;
  return `{"jsonrpc":"2.0","id":${id},"method":"avm.getHeight"}`;
});
const invalidUtf8Run = fc.tuple(exampleBody, fc.uint8Array({ minLength: 1, maxLength: 20000 })).map(([body, bytes]) => {
  const at = body.indexOf('"', body.indexOf('method') + 9);
  return Buffer.concat([
    Buffer.from(body.slice(0, at)),
    Buffer.from(bytes.map((b) => b | 0x80)),
    Buffer.from(body.slice(at)),
  ]);
});
const huge = fc
  .integer({ min: LIMIT + 1, max: LIMIT * 4 })
  .map((size) => `{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{"x":"${'a'.repeat(size)}"}}`);

const request = fc.record({
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...PATHS) },
    { weight: 1, arbitrary: fc.string().map((s) => `/ext/${encodeURIComponent(s)}`) },
  ),
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant('POST') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH') },
  ),
  contentType: fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(null, 'text/plain', 'application/JSON; charset=latin1', ' application/json'),
    },
  ),
  body: fc.oneof(
    { weight: 3, arbitrary: exampleBody },
    { weight: 3, arbitrary: envelope },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: jsonText },
    { weight: 1, arbitrary: nested },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: invalidItems },
    { weight: 1, arbitrary: deepId },
    { weight: 1, arbitrary: invalidUtf8Run },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  ),
});

describe('robustness of the mock node', () => {
  let node: RunningMockNode;
  let port: number;
  beforeAll(async () => {
    // A simulated Mainnet: the spec's avm.getTxFee example (Mainnet's fees) is then its answer.
    node = await startMockNode({
      port: 0,
      nodeVersion: 'all',
      validateResults: true,
      maxBodyBytes: LIMIT,
      world: { network: 'mainnet' },
    });
    port = Number(new URL(node.url).port);
  });
  afterAll(() => node.close());

  const stillAnswers = async () => {
    const txFee = model.endpoints
      .flatMap((endpoint) => endpoint.methods)
      .find((method) => method.name === 'avm.getTxFee')!.examples[0]!;
    const response = await send(port, { path: '/ext/bc/X', body: rpc('avm.getTxFee', txFee.params) });
    expect(response.text).toBe(`{"jsonrpc":"2.0","result":${JSON.stringify(txFee.result)},"id":1}\n`);
  };

  it('answers 2000 random and mutated requests in a documented form', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const response = await send(port, req);
        const problem = problemWith(response.status, response.headers, response.body);
        if (problem) throw new Error(problem);
      }),
      { numRuns: 2000, seed: 20260101 },
    );
    await stillAnswers();
  });

  it('survives cut and slow connections', async () => {
    const body = rpc('avm.getHeight');
    const head =
      `POST /ext/bc/X HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${body.length}\r\n\r\n`;
    const cuts = [
      head.slice(0, 20),
      head,
      head + body.slice(0, 10),
      `POST /ext/bc/X HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n{`,
    ];
    await Promise.all(
      cuts.map(
        (bytes) =>
          new Promise<void>((resolve) => {
            // Cut once the bytes are out.
            const socket = connect(port, '127.0.0.1', () => socket.write(bytes, () => socket.destroy()));
            socket.on('close', () => resolve());
            socket.on('error', () => resolve());
          }),
      ),
    );
    const slow = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        if (answer.includes('"id":1}\n')) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
      socket.setNoDelay(true);
      // Seven bytes at a time, each piece once the last is out.
      const whole = head + body;
      const next = (sent: number) => {
        if (sent < whole.length) socket.write(whole.slice(sent, sent + 7), () => next(sent + 7));
      };
      next(0);
    });
    expect(slow).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(slow).toContain('{"jsonrpc":"2.0","result":{"height":');
    await stillAnswers();
  });
});
