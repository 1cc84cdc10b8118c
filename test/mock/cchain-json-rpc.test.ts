/**
 * The JSON-RPC envelope of /ext/bc/C/rpc as libevm's rpc package (geth v1.13.14) reads it: ids kept as
 * json.RawMessage and echoed as written, object and array ids refused (hasValidID), `"jsonrpc":"2.0"` required
 * (hasValidVersion), notifications run unanswered, responses dropped, keys matched case-insensitively; over HTTP and
 * WebSocket alike. The heavy ones are answered while a small call on another connection is served.
 */
import { keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
let port: number;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all' });
  port = Number(new URL(node.url).port);
});
afterAll(() => node?.close());

const post = async (path: string, body: string | Buffer) => (await send(port, { path, body })).text;
const cPost = (body: unknown) => post('/ext/bc/C/rpc', typeof body === 'string' ? body : JSON.stringify(body));
/** `body` answered, and a small call on its own connection answered meanwhile. */
async function withNeighbour(path: string, body: string | Buffer): Promise<string> {
  const big = post(path, body);
  const small = JSON.parse(await post('/ext/info', rpc('info.getNetworkID'))) as { result: { networkID: string } };
  expect(small.result.networkID).toBe('12345');
  return big;
}
const TO = `0x${'c'.repeat(40)}` as const;
const invalid = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } });

describe('the C-Chain JSON-RPC envelope', () => {
  it('takes the last of 200,000 duplicate ids, as encoding/json does', async () => {
    const ids = Array.from({ length: 200_000 }, () => '"id":7').join(',');
    const body = `{"jsonrpc":"2.0",${ids},"id":8,"method":"eth_chainId","params":[]}`;
    expect(JSON.parse(await withNeighbour('/ext/bc/C/rpc', body))).toMatchObject({ id: 8, result: '0xa868' });
  }, 60_000);

  // geth keeps a call's id as json.RawMessage and writes it back byte for byte; an id that is an object or an array
  // is no valid id (jsonrpcMessage.hasValidID), so the call is "invalid request" with a null id.
  it('echoes ids verbatim on /ext/bc/C/rpc, and refuses object and array ids, as geth does', async () => {
    const call = async (id: string) =>
      withNeighbour('/ext/bc/C/rpc', `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId","params":[]}`);
    for (const id of ['9'.repeat(30), '9'.repeat(100_000), '1e400', '-0', '1.50'])
      expect((await call(id)).trimEnd()).toBe(`{"jsonrpc":"2.0","id":${id},"result":"0xa868"}`);
    for (const id of ['{"a":1}', '[1]']) expect(JSON.parse(await call(id))).toEqual(invalid(null));
  }, 60_000);

  it('writes an id back compacted, with <, > and & escaped, as encoding/json writes a RawMessage', async () => {
    const answer = await cPost('{"jsonrpc":"2.0","id":  "<a&b>" ,"method":"eth_chainId"}');
    expect(answer).toBe('{"jsonrpc":"2.0","id":"\\u003ca\\u0026b\\u003e","result":"0xa868"}');
    const batch = await cPost(
      '[ {"jsonrpc":"2.0","id":1.0e2,"method":"eth_chainId"} , {"jsonrpc":"2.0","id":null,"method":"eth_chainId"}]',
    );
    expect(batch).toBe(
      '[{"jsonrpc":"2.0","id":1.0e2,"result":"0xa868"},{"jsonrpc":"2.0","id":null,"result":"0xa868"}]',
    );
  });

  // geth's jsonrpcMessage.isCall needs `"jsonrpc":"2.0"` (hasValidVersion, rpc/json.go); a call with another or no
  // version and a valid id is answered {"code":-32600,"message":"invalid request"} with its id.
  it('refuses a C-Chain call whose jsonrpc is not "2.0", as geth does', async () => {
    for (const version of ['"jsonrpc":"1.0",', '', '"jsonrpc":2,'])
      expect(JSON.parse(await post('/ext/bc/C/rpc', `{${version}"id":1,"method":"eth_chainId","params":[]}`))).toEqual(
        invalid(1),
      );
    // No method, or one that is not a string: no call either.
    expect(JSON.parse(await cPost({ jsonrpc: '2.0', id: 'a', method: '' }))).toEqual(invalid('a'));
    expect(JSON.parse(await cPost({ jsonrpc: '2.0', id: 'a', method: 5 }))).toEqual(invalid('a'));
    expect(JSON.parse(await cPost([null, 5, { jsonrpc: '1.0' }]))).toEqual([
      invalid(null),
      invalid(null),
      invalid(null),
    ]);
  });

  it('matches the envelope’s keys case-insensitively, the last of a duplicate winning', async () => {
    const answer = await cPost(
      '{"JSONRPC":"2.0","Id":3,"METHOD":"eth_chainId","method":"eth_nope","Method":"eth_chainId"}',
    );
    expect(JSON.parse(answer)).toEqual({ jsonrpc: '2.0', id: 3, result: '0xa868' });
  });

  it('runs a notification without answering it, and drops responses', async () => {
    const { pub, account } = cClients(node.url);
    const gasPrice = (await pub.getBlock()).baseFeePerGas! * 2n;
    const nonce = await pub.getTransactionCount({ address: account.address });
    const signed = await account.signTransaction({ chainId: 43112, to: TO, value: 1n, gas: 21_000n, gasPrice, nonce });
    const sent = await send(port, {
      path: '/ext/bc/C/rpc',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'eth_sendRawTransaction', params: [signed] }),
    });
    expect([sent.status, sent.text]).toEqual([200, '']);
    expect((await pub.waitForTransactionReceipt({ hash: keccak256(signed) })).status).toBe('success');

    expect(await cPost({ jsonrpc: '2.0', id: 1, result: '0x1' })).toBe('');
    expect(
      await cPost([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, error: {} },
      ]),
    ).toBe('');
    const batch = JSON.parse(
      await cPost([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, result: null },
        { jsonrpc: '2.0', id: 3, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 4, error: null },
      ]),
    );
    expect(batch).toEqual([{ jsonrpc: '2.0', id: 3, result: '0xa868' }, invalid(4)]);
  });

  it('reads a WebSocket message in the same envelope, subscriptions included', async () => {
    const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(data.toString()));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // A notification is not answered: the batch after it is the first message back.
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }));
    ws.send(
      '[{"jsonrpc":"2.0","id":1.50,"method":"eth_subscribe","params":["newHeads"]},' +
        '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_subscribe","params":["newHeads"]},' +
        '{"jsonrpc":"1.0","id":3,"method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId"}]',
    );
    while (messages.length === 0) await new Promise((resolve) => ws.once('message', resolve));
    ws.close();
    expect(messages[0]).toMatch(/^\[\{"jsonrpc":"2\.0","id":1\.50,"result":"0x[0-9a-f]{32}"\},/);
    expect(JSON.parse(messages[0]!).slice(1)).toEqual([invalid(null), invalid(3)]);
  });
});
