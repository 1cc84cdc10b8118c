/**
 * The size of a C-Chain batch's answer. coreth caps it (its `batch-response-max-size`, 25,000,000 bytes by default;
 * libevm's rpc handler answers each call past the cap with -32003 "response too large"), so a 100 kB batch cannot ask
 * for gigabytes: 200 eth_getCode of a 1 MB contract would be 400 MB, 1,000 more than the longest string V8 can make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const ADDRESS = `0x${'2'.repeat(40)}`;
let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, maxBodyBytes: 8 * 1024 * 1024 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'dev.setCode',
    params: { address: ADDRESS, code: `0x${'60'.repeat(1_000_000)}` },
  });
  expect(JSON.parse((await send(`${node.url}/ext/dev`, { body })).text)).toHaveProperty('result');
});
afterAll(() => node?.close());

describe('a batch whose answers add up to more than 25 MB', () => {
  // The first calls are answered until their results pass 25,000,000 bytes (the 13th of 2,000,004), each later one
  // {"code":-32003,"message":"response too large"}.
  it('has the calls past the cap answered with "response too large"', async () => {
    const batch = Array.from({ length: 16 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_getCode',
      params: [ADDRESS, 'latest'],
    }));
    const answer = await send(`${node.url}/ext/bc/C/rpc`, { body: JSON.stringify(batch) });
    const entries = JSON.parse(answer.text) as Array<{ result?: string; error?: { code: number; message: string } }>;
    expect(entries).toHaveLength(16);
    expect(entries[0]!.result).toHaveLength(2 + 2_000_000);
    expect(entries[12]!.result).toHaveLength(2 + 2_000_000);
    expect(entries[13]!.error).toEqual({ code: -32003, message: 'response too large' });
    expect(entries[13]).toHaveProperty('id', 13);
    expect(entries.at(-1)!.error).toEqual({ code: -32003, message: 'response too large' });
    expect(answer.body.length).toBeLessThan(30_000_000);
  }, 120_000);
});
