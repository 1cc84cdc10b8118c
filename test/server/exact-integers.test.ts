/**
 * Integers beyond 2^53 in params: Go's decoder reads them exactly (avajson.Uint64 through strconv.ParseUint), a
 * JavaScript number rounds them. The Go reader keeps their digits where the schema takes a string; a field typed as a
 * plain number keeps the nearest double.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFirstValue } from '../../generated/server/dist/runtime/json.js';
import { preferExact } from '../../generated/server/dist/runtime/params.js';
import { send } from '../support/rpc.ts';
import { startStub } from './stub.ts';

const MAX = '18446744073709551615';
/** The double JSON.parse reads for MAX: 2^64. */
const ROUNDED = Number(MAX);
const PAST_2_53 = Number('9007199254740993');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('the Go reader', () => {
  it('reads an integer in params beyond 2^53 as its digits only when asked, at any depth', () => {
    const body = bytes(`{"params":{"a":${MAX},"b":[1,{"c":-9007199254740993}],"d":9007199254740991},"id":${MAX}}`);
    const rounded = parseFirstValue(body);
    expect(rounded.unsafeIntegers).toBe(true);
    expect(rounded.value).toEqual({
      params: { a: ROUNDED, b: [1, { c: -PAST_2_53 }], d: 9007199254740991 },
      id: ROUNDED,
    });
    // Outside params (the id, echoed as written) a number stays a number.
    expect(parseFirstValue(body, true).value).toEqual({
      params: { a: MAX, b: [1, { c: '-9007199254740993' }], d: 9007199254740991 },
      id: ROUNDED,
    });
  });

  it('finds none where every integer is safe, or where the number is one Go refuses (NaN either way)', () => {
    for (const params of ['{"a":9007199254740991}', '{"a":1e30}', '{"a":18446744073709551616}', '[1.5]']) {
      const parsed = parseFirstValue(bytes(`{"params":${params}}`));
      expect(parsed.unsafeIntegers, params).toBe(false);
      expect(parseFirstValue(bytes(`{"params":${params}}`), true).value).toEqual(parsed.value);
    }
    expect(parseFirstValue(bytes(`{"other":${MAX}}`)).unsafeIntegers).toBe(false);
  });

  it('does so for each request of a batch', () => {
    const body = bytes(`[{"params":[${MAX}]},{"params":{"h":9007199254740993}}]`);
    expect(parseFirstValue(body, true).value).toEqual([{ params: [MAX] }, { params: { h: '9007199254740993' } }]);
  });
});

describe('preferExact', () => {
  const ajv = new Ajv();
  const uint64Param = ajv.compile({
    type: 'object',
    properties: {
      height: {
        anyOf: [
          { type: 'string', pattern: '^[0-9]+$' },
          { type: 'integer', minimum: 0 },
        ],
      },
    },
  });
  const bareUint64 = ajv.compile({ type: 'object', properties: { gas: { type: 'integer', minimum: 0 } } });
  const required = ajv.compile({
    type: 'object',
    required: ['address'],
    properties: { height: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, address: { type: 'string' } },
  });

  it('hands the digits to a param that takes a string, and the double to one typed as a number', () => {
    const rounded: { height: string | number } = { height: ROUNDED };
    const exact = { height: MAX };
    expect(preferExact(uint64Param, rounded, exact)).toBe(exact);
    expect(preferExact(bareUint64, { gas: ROUNDED }, { gas: MAX })).toEqual({
      gas: ROUNDED,
    });
    expect(preferExact(uint64Param, rounded, undefined)).toBe(rounded);
    // A missing param the handler answers for (the node profile) does not keep the digits out.
    expect(preferExact(required, rounded, exact)).toBe(exact);
  });
});

describe('a jsonrpc2 server', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  beforeAll(async () => {
    stub = await startStub({ profile: 'jsonrpc2' });
  });
  afterAll(() => stub.close());
  const call = (id: number, height: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"avm.getBlockByHeight","params":{"height":${height},"encoding":"hex"}}`;

  it('hands a uint64 param its digits, alone and in a batch', async () => {
    stub.recorder.calls.length = 0;
    await send(stub.port, { path: '/ext/bc/X', body: call(1, MAX) });
    await send(stub.port, { path: '/ext/bc/X', body: `[${call(2, '9007199254740993')},${call(3, '12')}]` });
    expect(stub.recorder.calls.map((c) => (c.params as { height: unknown }).height).sort()).toEqual(
      [12, MAX, '9007199254740993'].sort(),
    );
  });
});

describe('a node-profile server', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  beforeAll(async () => {
    stub = await startStub({ profile: 'node' });
  });
  afterAll(() => stub.close());

  it('hands a uint64 param its digits, its key matched in any case', async () => {
    stub.recorder.calls.length = 0;
    const body = `{"jsonrpc":"2.0","id":1,"method":"avm.getBlockByHeight","params":[{"HEIGHT":${MAX}}]}`;
    await send(stub.port, { path: '/ext/bc/X', body });
    await send(stub.port, { path: '/ext/bc/X', body: body.replace(MAX, '9007199254740993') });
    expect(stub.recorder.calls.map((c) => c.params)).toEqual([{ height: MAX }, { height: '9007199254740993' }]);
  });
});
