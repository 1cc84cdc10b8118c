/**
 * Request shapes the other hostile tests leave out, each answered with the node's
 * error (or its answer) while a small call on another connection is served: 200,000 duplicate keys (Go keeps the
 * last), ids of every JSON type and of 100,000 digits (echoed verbatim), 100,000 levels of nesting inside the id,
 * a BOM, lone surrogates, and 2,000 requests pipelined on one connection. Deadlines are generous bounds, not timings.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
let port: number;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all' });
  port = Number(new URL(node.url).port);
});
afterAll(() => node?.close());

const post = async (path: string, body: string | Buffer) => (await send(port, { path, body })).text;
/** `body` answered, and a small call on its own connection answered meanwhile. */
async function withNeighbour(path: string, body: string | Buffer): Promise<string> {
  const big = post(path, body);
  const small = JSON.parse(await post('/ext/info', rpc('info.getNetworkID'))) as { result: { networkID: string } };
  expect(small.result.networkID).toBe('12345');
  return big;
}

describe('hostile shapes', () => {
  it('takes the last of 200,000 duplicate keys, as encoding/json does', async () => {
    const many = (key: string, value: string) => Array.from({ length: 200_000 }, () => `"${key}":${value}`).join(',');
    const methods = `{"jsonrpc":"2.0","id":1,${many('method', '"platform.nope"')},"method":"platform.getHeight","params":{}}`;
    expect(JSON.parse(await withNeighbour('/ext/bc/P', methods))).toHaveProperty('result.height');
    const params = `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{${many('alias', '"nope"')},"alias":"X"}}`;
    expect(JSON.parse(await withNeighbour('/ext/info', params))).toHaveProperty('result.blockchainID');
    const ids = `{"jsonrpc":"2.0",${many('id', '7')},"id":8,"method":"eth_chainId","params":[]}`;
    expect(JSON.parse(await withNeighbour('/ext/bc/C/rpc', ids))).toMatchObject({ id: 8, result: '0xa868' });
  }, 60_000);

  it('echoes ids of every type and of 100,000 digits verbatim on the json2 endpoints', async () => {
    for (const id of ['9'.repeat(100_000), '1e400', '{"a":[1,{"b":null}]}', '"\\u2028x"', 'true']) {
      const text = await withNeighbour(
        '/ext/bc/P',
        `{"jsonrpc":"2.0","id":${id},"method":"platform.getHeight","params":{}}`,
      );
      expect(text).toContain(`"id":${id}`);
    }
  }, 60_000);

  it('refuses 100,000 levels of nesting inside the id, as each codec does', async () => {
    const id = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const json2 = JSON.parse(
      await withNeighbour('/ext/bc/P', `{"jsonrpc":"2.0","id":${id},"method":"platform.getHeight"}`),
    );
    expect(json2.error).toMatchObject({ code: -32700, message: "invalid character '[' exceeded max depth" });
    const geth = JSON.parse(
      await withNeighbour('/ext/bc/C/rpc', `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`),
    );
    expect(geth.error).toMatchObject({ code: -32700 });
  }, 60_000);

  it('refuses a BOM as encoding/json does, and writes a lone surrogate as U+FFFD', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rpc('platform.getHeight'))]);
    expect(JSON.parse(await post('/ext/bc/P', bom)).error).toMatchObject({
      code: -32700,
      message: "invalid character 'ï' looking for beginning of value",
    });
    const lone = '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"\\ud800x"}}';
    expect(JSON.parse(await post('/ext/info', lone)).error.message).toBe('there is no ID with alias: \ufffdx');
  });

  it('answers 2,000 requests pipelined on one connection, each once and in order', async () => {
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const request = (id: number) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'platform.getHeight', params: {} });
        return `POST /ext/bc/P HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      };
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if ((text.match(/"id":\d+\}/g) ?? []).length === 2000) socket.end();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(Array.from({ length: 2000 }, (_, id) => request(id)).join(''));
    });
    const ids = [...answers.matchAll(/"id":(\d+)\}/g)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: 2000 }, (_, id) => id));
    expect(answers.match(/^HTTP\/1\.1 200 OK/gm)).toHaveLength(2000);
  }, 60_000);
});
