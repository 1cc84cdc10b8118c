/**
 * Fork mode's way to its source: a bad URL refused with a message, 503s retried with backoff, a source that keeps
 * failing named in one clear error after a bounded number of tries, the disk cache serving a second run at the same
 * fork point, and a forked world never saved.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { TRIES } from '../../mock/fork/fetch.ts';
import { forkOf } from '../../mock/fork/lazy.ts';
import { forkWorld } from '../../mock/fork/start.ts';
import { type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { proxy } from '../support/rpc.ts';

const temp = mkdtempSync(join(tmpdir(), 'fork-source-'));
let source: MockNodeHandle;

/** A server in front of the source that answers 503 to the first `failures` requests (all of them with Infinity). */
async function flaky(target: string, failures: number) {
  const seen = { requests: 0 };
  const busy = { status: 503, contentType: 'text/plain', text: 'busy' };
  const front = await proxy(target, () => (seen.requests++ < failures ? busy : undefined));
  return { url: front.url, seen, close: front.close };
}

beforeAll(async () => {
  source = await startMockNode({ accounts: 1, seed: 'fork source errors' });
});
afterAll(async () => {
  await source?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe('the fork source', () => {
  it('refuses a URL that is no node URL, naming the option', async () => {
    await expect(startMockNode({ fork: { url: 'not a url' } })).rejects.toThrow(
      /startMockNode: fork\.url must be a node's http\(s\) URL .*"not a url"/,
    );
    await expect(startMockNode({ fork: { url: 'ftp://127.0.0.1/' } })).rejects.toThrow(/fork\.url must be/);
    await expect(startMockNode({ fork: { url: 'http://user:secret@127.0.0.1:1' } })).rejects.toThrow(
      /must not hold a user name or password/,
    );
    await expect(startMockNode({ fork: { url: source.url, height: -1 } })).rejects.toThrow(/fork\.height must be/);
    await expect(startMockNode({ fork: { url: source.url, speed: 1 } as never })).rejects.toThrow(
      /unknown option speed/,
    );
  });

  it('refuses a height above the tip, and a fork with a state file', async () => {
    await expect(startMockNode({ fork: { url: source.url, height: 1_000_000, cacheDir: false } })).rejects.toThrow(
      /fork height 1000000 is above .* P-Chain tip \(\d+\)/,
    );
    await expect(startMockNode({ fork: { url: source.url }, state: join(temp, 's.json') })).rejects.toThrow(
      /fork and .*state exclude each other/,
    );
  });

  it('retries 503s with backoff and starts', async () => {
    const front = await flaky(source.url, 3);
    try {
      const world = await forkWorld({ url: front.url, cacheDir: undefined }, {}, 1);
      expect(world.tip('P').id).toBe(source.world.tip('P').id);
      expect(front.seen.requests).toBeGreaterThan(3);
    } finally {
      await front.close();
    }
  });

  it('gives up after a bounded number of tries with one clear error', async () => {
    const front = await flaky(source.url, Number.POSITIVE_INFINITY);
    try {
      // Its first three reads go out together; the first to give up names itself.
      await expect(forkWorld({ url: front.url, cacheDir: undefined }, {}, 1)).rejects.toThrow(
        new RegExp(
          `the fork source ${front.url} failed ${TRIES} tries of (info.getNetworkID|platform.getHeight|avm.getHeight) ` +
            '\\(last: HTTP 503 Service Unavailable\\)$',
        ),
      );
      expect(front.seen.requests).toBeGreaterThanOrEqual(TRIES);
      expect(front.seen.requests).toBeLessThanOrEqual(3 * TRIES);
    } finally {
      await front.close();
    }
  });

  it('names a source that does not answer at all', async () => {
    const closed = await flaky(source.url, 0);
    await closed.close();
    await expect(forkWorld({ url: closed.url, cacheDir: undefined }, {}, 1)).rejects.toThrow(
      new RegExp(`the fork source ${closed.url} failed ${TRIES} tries of [a-zA-Z.]+ \\(last: fetch failed`),
    );
  });

  it('reads the start state from its disk cache on a second run at the same fork point', async () => {
    const cacheDir = join(temp, 'cache');
    const first = await forkWorld({ url: source.url, cacheDir }, {});
    const sentFirst = forkOf(first)!.source.stats.sent;
    expect(readdirSync(cacheDir)).toEqual([String(source.world.network.networkID)]);
    const second = await forkWorld({ url: source.url, cacheDir }, {});
    expect(forkOf(second)!.source.stats.cached).toBeGreaterThan(0);
    expect(forkOf(second)!.source.stats.sent).toBeLessThan(sentFirst);
    expect(second.tip('P').id).toBe(first.tip('P').id);
  });

  it('reads a subnet beyond the first 64 in full on the first call that names it', async () => {
    const many = await startMockNode({ accounts: 0, seed: 'many subnets' });
    const front = await flaky(many.url, 0);
    const methods: string[] = [];
    const original = globalThis.fetch;
    const counting = (async (url: string, init: RequestInit) => {
      methods.push(String(JSON.parse(String(init.body)).method));
      return original(url, init);
    }) as typeof fetch;
    try {
      const owner = { locktime: 0n, threshold: 1, addresses: ['ab'.repeat(20)] };
      const ids = Array.from({ length: 65 }, (_, i) => cb58Encode(Buffer.alloc(32, i + 1)));
      for (const id of ids) many.world.subnets.set(id, { id, owner });
      const last = ids.at(-1)!;
      const conversion = { chainID: many.world.chainIDs.X, address: '0x01', conversionID: ids[0]! };
      many.world.subnets.set(last, { id: last, owner, conversion });
      globalThis.fetch = counting;
      const world = await forkWorld({ url: front.url, cacheDir: undefined }, {});
      const node = await startMockNode({ accounts: 0, fork: { url: front.url, cacheDir: false } });
      globalThis.fetch = original;
      try {
        expect(methods.filter((m) => m === 'platform.getSubnet')).toEqual([]);
        expect(world.subnets.get(last)?.conversion).toBeUndefined();
        const p = new PChainClient({ baseUrl: node.url });
        const s = new PChainClient({ baseUrl: many.url });
        expect(await p.getSubnet({ subnetID: last })).toEqual(await s.getSubnet({ subnetID: last }));
        expect((await p.getSubnet({ subnetID: last })).isPermissioned).toBe(false);
      } finally {
        await node.close();
      }
    } finally {
      globalThis.fetch = original;
      await front.close();
      await many.close();
    }
  });

  it('never saves a forked world, nor dumps it', async () => {
    const fork = await startMockNode({ accounts: 1, fork: { url: source.url, cacheDir: false } });
    try {
      await expect(fork.dev.dumpState()).rejects.toThrow(`a world forked from ${source.url} cannot be saved`);
      await expect(fork.devClient.dumpState()).rejects.toThrow(/cannot be saved/);
    } finally {
      await fork.close();
    }
  });
});
