/**
 * What a consumer writes compiles under `strict`, with and without `exactOptionalPropertyTypes`
 * (test/fixtures/consumer/strict.ts), and handlers may be partial: a method without one answers as the node answers
 * a method it does not have, and the others still work.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPChainEndpoint, createRouter } from '../../generated/server/dist/index.js';
import { listen, rpc, send } from '../support/rpc.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const STRICT = [
  '--noEmit',
  '--strict',
  '--noUncheckedIndexedAccess',
  '--target',
  'ES2022',
  '--module',
  'NodeNext',
  '--moduleResolution',
  'NodeNext',
  '--types',
  'node',
  '--skipLibCheck',
];

describe('a consumer of the generated packages', () => {
  it.each([[[]], [['--exactOptionalPropertyTypes']]])('compiles under strict %j', (extra) => {
    const result = spawnSync(
      process.execPath,
      [TSC, ...STRICT, ...extra, join(ROOT, 'test/fixtures/consumer/strict.ts')],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('partial handlers', () => {
  it('answer a method without a handler as the node does, and serve the others', async () => {
    const endpoint = createPChainEndpoint({ getHeight: () => ({ height: '42' }) });
    const server = await listen(createRouter({ '/ext/bc/P': endpoint }).node);
    const post = async (method: string, params: object) =>
      JSON.parse((await send(`${server.url}/ext/bc/P`, { body: rpc(method, params) })).text);
    try {
      expect(await post('platform.getHeight', {})).toEqual({ jsonrpc: '2.0', result: { height: '42' }, id: 1 });
      expect(await post('platform.getBalance', { addresses: [] })).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'rpc: can\'t find method "platform.GetBalance"', data: null },
        id: 1,
      });
    } finally {
      await server.close();
    }
  });
});
