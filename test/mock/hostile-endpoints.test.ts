/**
 * Hostile requests to the newer endpoints over HTTP (`/ext/bc/C/rpc`, `/ext/bc/C/avax`, `/ext/index/P/block`,
 * `/ext/bc/P/proposervm`, `/ext/dev`): nesting past Go's 10,000 levels, batches of 10,000, numbers and hex strings of
 * 100,000 digits, params of the wrong shape, invalid UTF-8. Each gets the node's error and the node serves on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, indexEnabled: true, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const raw = (method: string, params: string) => `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
const post = async (path: string, body: string | Buffer) =>
  JSON.parse((await send(`${node.url}${path}`, { body })).text) as Record<string, unknown>;

/** gorilla/rpc's json2 answer to a body its decoder refuses: the error's data is the empty request it decoded into. */
const json2ParseError = (message: string) => ({
  jsonrpc: '2.0',
  error: { code: -32700, message, data: { jsonrpc: '', method: '', params: null, id: null } },
  id: null,
});
const UNMARSHAL =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** Each endpoint answers a call of its own after the hostile ones. */
async function stillServes() {
  expect(await post('/ext/bc/C/rpc', rpc('eth_chainId', []))).toMatchObject({ result: '0xa868' });
  const txID = '2DEUwQx9iJ1ptMfXs8wkax1PAd5DByHF7EgY16w99FeyQLFigk';
  expect(await post('/ext/bc/C/avax', rpc('avax.getAtomicTxStatus', { txID }))).toHaveProperty('result.status');
  expect(await post('/ext/index/P/block', rpc('index.getLastAccepted', { encoding: 'hex' }))).toHaveProperty('result');
  expect(await post('/ext/bc/P/proposervm', rpc('proposervm.getProposedHeight', {}))).toHaveProperty('result');
  expect(await post('/ext/dev', rpc('dev.listAccounts', {}))).toHaveProperty('result.accounts');
}

const GORILLA = [
  ['/ext/bc/C/avax', 'avax.getUTXOs'],
  ['/ext/index/P/block', 'index.getContainerRange'],
  ['/ext/bc/P/proposervm', 'proposervm.getProposedHeight'],
  ['/ext/dev', 'dev.mine'],
] as const;

describe('hostile requests to the newer endpoints', () => {
  it("answers nesting past 10,000 levels and a batch of 10,000 with json2's decode errors", async () => {
    for (const [path, method] of GORILLA) {
      expect(await post(path, raw(method, deep(100_000)))).toEqual(
        json2ParseError("invalid character '[' exceeded max depth"),
      );
      expect(await post(path, `[${Array(10_000).fill(rpc(method, {})).join(',')}]`)).toEqual(
        json2ParseError('json: cannot unmarshal array into Go value of type json2.serverRequest'),
      );
    }
    await stillServes();
  });

  it('refuses params of the wrong shape and numbers of 10,000 digits as unmarshal errors', async () => {
    for (const params of [
      '"x"',
      '[1,2]',
      '{"startIndex":-1,"numToFetch":1}',
      `{"startIndex":${'9'.repeat(10_000)},"numToFetch":1}`,
    ])
      expect(await post('/ext/index/P/block', raw('index.getContainerRange', params))).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: UNMARSHAL, data: null },
        id: 1,
      });
    for (const [method, params] of [
      ['dev.mine', `{"chain":"P","blocks":${'9'.repeat(10_000)}}`],
      ['dev.mine', '"x"'],
      ['dev.increaseTime', `{"seconds":${'9'.repeat(30)},"mine":false}`],
    ])
      expect(await post('/ext/dev', raw(method!, params!))).toMatchObject({ error: { message: UNMARSHAL } });
    expect(await post('/ext/bc/P/proposervm', raw('proposervm.getProposedHeight', '"x"'))).toMatchObject({
      error: { message: UNMARSHAL },
    });
    await stillServes();
  });

  it('refuses 200,000 addresses and a 3 MB transaction on /ext/bc/C/avax in the node’s words', async () => {
    const addresses = Array(200_000).fill('C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    expect(await post('/ext/bc/C/avax', rpc('avax.getUTXOs', { addresses, sourceChain: 'X' }))).toMatchObject({
      error: { code: -32000, message: 'number of addresses given, 200000, exceeds maximum, 1024' },
    });
    const tx = `0x${'ab'.repeat(3_000_000)}`;
    expect(await post('/ext/bc/C/avax', rpc('avax.issueTx', { tx, encoding: 'hex' }))).toMatchObject({
      error: { code: -32000, message: 'problem decoding transaction: invalid input checksum' },
    });
    await stillServes();
  });

  it('answers /ext/bc/C/rpc’s hostile calls with geth’s errors', async () => {
    const error = async (body: string | Buffer) => (await post('/ext/bc/C/rpc', body)).error;
    expect(await error(raw('eth_getBalance', `["0x${'f'.repeat(1_000_000)}", "latest"]`))).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string has length 1000000, want 40 for common.Address',
    });
    expect(await error(raw('eth_getBlockByNumber', `[${'9'.repeat(100_000)}, false]`))).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string without 0x prefix',
    });
    for (const params of ['{"a":1}', '"x"', '5'])
      expect(await error(raw('eth_getBalance', params))).toEqual({ code: -32602, message: 'non-array args' });
    expect(await error('{"jsonrpc":"2.0","id":1,"method":5}')).toEqual({ code: -32600, message: 'invalid request' });
    expect(await error(raw('__proto__', '[]'))).toEqual({
      code: -32601,
      message: 'the method __proto__ does not exist/is not available',
    });
    const invalid = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"a'), Buffer.from([0xff]), Buffer.from('"')]);
    expect(await post('/ext/bc/C/rpc', Buffer.concat([invalid, Buffer.from(',"method":"eth_chainId"}')]))).toEqual({
      jsonrpc: '2.0',
      id: 'a\ufffd',
      result: '0xa868',
    });
    await stillServes();
  });
});
