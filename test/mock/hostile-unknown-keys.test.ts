/**
 * Params padded with what the args struct does not declare, answered as the same call without the padding: encoding/json
 * skips unknown fields (and the elements after a params array's first), so the node answers both alike. The reader
 * builds none of it (test/server/raw-params.test.ts counts what it builds); here every json2 endpoint is shown to
 * answer as it would without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
let port: number;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all' });
  port = Number(new URL(node.url).port);
});
afterAll(() => node?.close());

const COUNT = 100_000;
const keys = Array.from({ length: COUNT }, (_, i) => `"k${i}":${i % 3 ? '{"a":[1,"b"]}' : i}`).join(',');
const items = Array(COUNT).fill('{"x":1}').join(',');

const call = (method: string, params: string) => `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
const post = async (path: string, body: string) => (await send(port, { path, body })).text;

/** The declared members of `params` (an object's text) after the padding, nested under an unknown key and before. */
function padded(params: string): string[] {
  const inner = params.slice(1, -1);
  const comma = inner ? ',' : '';
  return [
    `{${keys}${comma}${inner}}`,
    `{"pad":{${keys}},"more":[${items}]${comma}${inner}}`,
    `[${params},${items}]`,
    `{${inner}${comma}${keys.replaceAll('"k', '"K')}}`,
  ];
}

describe('params padded with 100,000 unknown keys', () => {
  it.each([
    ['/ext/info', 'info.getBlockchainID', '{"alias":"X"}'],
    ['/ext/info', 'info.getNodeID', '{}'],
    ['/ext/info', 'info.isBootstrapped', '{"chain":"nope"}'],
    ['/ext/bc/P', 'platform.getHeight', '{}'],
    ['/ext/bc/P', 'platform.getBalance', '{"addresses":["P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"]}'],
    ['/ext/bc/P', 'platform.getBalance', '{"addresses":["x"]}'],
    ['/ext/bc/X', 'avm.getAssetDescription', '{"assetID":"AVAX"}'],
    ['/ext/bc/X', 'avm.getBalance', '{"address":"X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u","assetID":5}'],
    ['/ext/keystore', 'keystore.listUsers', '{}'],
    ['/ext/admin', 'admin.getChainAliases', '{"chain":"X"}'],
  ])(
    '%s %s %s answers as without them',
    async (path, method, params) => {
      const plain = await post(path, call(method, params));
      expect(plain).toMatch(/^\{"jsonrpc":"2\.0",/);
      for (const body of padded(params)) expect(await post(path, call(method, body))).toBe(plain);
    },
    60_000,
  );

  it('still answers the decode error of an ignored member that is not JSON, and of nesting past the limit', async () => {
    const broken = await post('/ext/info', call('info.getBlockchainID', `{${keys},"x":[1,}`));
    expect(JSON.parse(broken).error).toMatchObject({
      code: -32700,
      message: "invalid character '}' looking for beginning of value",
    });
    const deep = `{${keys},"x":${'['.repeat(10_001)}${']'.repeat(10_001)},"alias":"X"}`;
    expect(JSON.parse(await post('/ext/info', call('info.getBlockchainID', deep))).error).toMatchObject({
      code: -32700,
      message: "invalid character '[' exceeded max depth",
    });
  }, 60_000);

  it('echoes the params as written in the error of a request that is not 2.0', async () => {
    const params = `{${keys},"alias":"X"}`;
    const text = await post('/ext/info', `{"jsonrpc":"1.0","id":1,"method":"info.getBlockchainID","params":${params}}`);
    expect(JSON.parse(text).error).toMatchObject({ code: -32600, message: 'jsonrpc must be 2.0' });
    expect(text).toContain(`"params":${params},"id":1}`);
  }, 60_000);
});
