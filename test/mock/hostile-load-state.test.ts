/**
 * dev.loadState takes a gzipped state (`0x` + hex). A request of some hundred kilobytes can hold a gzip stream that
 * inflates a thousandfold (by hand: 400 MB of zeros in an 815 kB request once stalled every endpoint for 38 s and grew
 * the process by 800 MB): the mock stops inflating at its bound and refuses the state before parsing any of it.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0 });
});
afterAll(() => node?.close());

const loadState = async (state: string) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'dev.loadState', params: { state } });
  return JSON.parse((await send(`${node.url}/ext/dev`, { body })).text) as {
    result?: unknown;
    error?: { message: string };
  };
};

describe('a gzip bomb as dev.loadState’s state', () => {
  it('a dumped state loads back (the path the bomb takes works)', async () => {
    const dumped = JSON.parse(
      (
        await send(`${node.url}/ext/dev`, {
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'dev.dumpState', params: {} }),
        })
      ).text,
    ) as { result: { state: string } };
    expect((await loadState(dumped.result.state)).result).toEqual({});
  });

  it('is refused for its inflated size, not parsed', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const height = async () =>
      JSON.parse(
        (
          await send(`${node.url}/ext/bc/P`, {
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getHeight', params: {} }),
          })
        ).text,
      ) as { result: { height: string } };
    const before = await height();
    const answer = await loadState(`0x${bomb.toString('hex')}`);
    expect(answer.error?.message).toBeDefined();
    expect(await height()).toEqual(before);
    expect(answer.error!.message).not.toMatch(/Unexpected token|not valid JSON/);
    expect(answer.error!.message).toMatch(/too large|exceeds|larger than|at most/);
  }, 120_000);
});
