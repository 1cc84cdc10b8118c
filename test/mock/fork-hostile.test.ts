/**
 * A fork on a source that answers garbage: a node:http server on 127.0.0.1 in front of a second mock that answers some
 * methods with what no node would. Each gives a clear error naming the source's answer, never a crash, a hang or a
 * refusal in the node's words of a transaction the user sent; the fork serves on. And a fork reads no more than it
 * needs: calls at once share their reads of the source's later blocks; a corrupt cache file is read anew.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { clientsOf } from '../../mock/fork/clients.ts';
import { ForkSource, MAX_ANSWER_BYTES } from '../../mock/fork/fetch.ts';
import { type ForkedDevControls, type MockNodeHandle, startMockNode } from '../../mock/package/index.ts';
import { listen, proxy } from '../support/rpc.ts';
import { Signer } from './fork-wallet.ts';

const AVAX = 1_000_000_000n;
type Request = { method: string; params: Record<string, unknown>; id: unknown };
/** A body to answer (with HTTP 200) instead of the source's, or undefined to pass the request on. */
type Override = (request: Request) => string | undefined;

/** A 127.0.0.1 proxy to `target` that answers what `override` gives; `log` holds every request. */
async function hostile(target: string, override: Override) {
  const log: Request[] = [];
  const front = await proxy(target, (body) => {
    const parsed = JSON.parse(body.toString('utf8')) as Request;
    const request = { method: parsed.method, params: parsed.params ?? {}, id: parsed.id };
    log.push(request);
    const text = override(request);
    return text === undefined ? undefined : { status: 200, contentType: 'application/json', text };
  });
  return { url: front.url, log, close: front.close };
}

const result = (id: unknown, value: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: value });

let source: MockNodeHandle;
beforeAll(async () => {
  source = await startMockNode({ accounts: 3, seed: 'hostile source' });
});
afterAll(async () => {
  await source?.close();
});

describe('a fork whose source answers garbage at start-up', () => {
  const starts = async (override: Override) => {
    const proxy = await hostile(source.url, override);
    try {
      return await startMockNode({ accounts: 1, fork: { url: proxy.url, cacheDir: false } }).then(
        async (fork) => {
          await fork.close();
          return 'started';
        },
        (error: Error) => error.message,
      );
    } finally {
      await proxy.close();
    }
  };

  it('refuses a body that is not JSON, naming the method', async () => {
    expect(await starts(() => 'not json')).toMatch(
      /^(info\.getNetworkID|platform\.getHeight|avm\.getHeight): invalid response from http:\/\/127\.0\.0\.1:\d+\/\S+: the body is not JSON/,
    );
  });

  it('refuses a height that is none, or one no chain is near, before placing a record per height', async () => {
    for (const height of ['99999999999999', '-3', null]) {
      const message = await starts((r) => (r.method === 'platform.getHeight' ? result(r.id, { height }) : undefined));
      expect(message).toMatch(/answered platform\.getHeight that the mock cannot read: .* is not a height/);
    }
  });

  it("refuses a block that is not the node's hex, naming the call", async () => {
    const message = await starts((r) =>
      r.method === 'platform.getBlockByHeight' && r.params.encoding === 'hex'
        ? result(r.id, { block: '0x00000000deadbeef', encoding: 'hex' })
        : undefined,
    );
    expect(message).toMatch(/answered platform\.getBlockByHeight \d+ that the mock cannot read: not the node's hex/);
  });

  it('follows no redirect: the request goes to the fork URL only', async () => {
    const elsewhere = await hostile(source.url, () => undefined);
    const redirecting = await listen((_, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/ext/info` }).end();
    });
    try {
      const message = await startMockNode({ accounts: 1, fork: { url: redirecting.url, cacheDir: false } }).then(
        () => 'started',
        (error: Error) => error.message,
      );
      expect(message).toMatch(/answered HTTP 307/);
      expect(elsewhere.log).toEqual([]);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('names a list of the wrong shape as the source answering what the mock cannot read', async () => {
    const message = await starts((r) =>
      r.method === 'platform.getCurrentValidators' ? result(r.id, { validators: 'garbage' }) : undefined,
    );
    expect(message).toMatch(/^the fork source http:\/\/127\.0\.0\.1:\d+ answered what the mock cannot read: /);
  });
});

describe('a fork whose source answers garbage after start-up', () => {
  let override: Override = () => undefined;
  let proxy: Awaited<ReturnType<typeof hostile>>;
  let fork: MockNodeHandle<ForkedDevControls>;
  const p = () => new PChainClient({ baseUrl: fork.url });

  beforeAll(async () => {
    proxy = await hostile(source.url, (r) => override(r));
    fork = await startMockNode({ accounts: 1, fork: { url: proxy.url, cacheDir: false } });
  });
  afterAll(async () => {
    await fork?.close();
    await proxy?.close();
  });

  it('refuses UTXO pages that never end, and serves on', async () => {
    const utxo = (
      await new PChainClient({ baseUrl: source.url }).getUTXOs({
        addresses: [source.keys[0]!.p],
        encoding: 'hex',
      })
    ).utxos[0]!;
    override = (r) =>
      r.method === 'platform.getUTXOs'
        ? result(r.id, {
            numFetched: '1024',
            utxos: Array(1024).fill(utxo),
            endIndex: { address: source.keys[0]!.p, utxo: cb58Encode(Buffer.alloc(32, 1)) },
            encoding: 'hex',
          })
        : undefined;
    await expect(p().getUTXOs({ addresses: [source.keys[0]!.p] })).rejects.toThrow(
      /answered getUTXOs of P-\w+ with a full page that does not move on/,
    );
    override = () => undefined;
    expect(await p().getUTXOs({ addresses: [source.keys[0]!.p] })).toMatchObject({ numFetched: '1' });
  });

  it('refuses an answer larger than the bound once, without asking again', async () => {
    const sent = () => proxy.log.filter((r) => r.method === 'platform.getUTXOs').length;
    const before = sent();
    const huge = `"${'a'.repeat(MAX_ANSWER_BYTES)}"`;
    override = (r) => (r.method === 'platform.getUTXOs' ? result(r.id, null).replace('null', huge) : undefined);
    await expect(p().getUTXOs({ addresses: [source.keys[1]!.p] })).rejects.toThrow(
      `answered more than ${MAX_ANSWER_BYTES} bytes`,
    );
    expect(sent() - before).toBe(1);
    override = () => undefined;
    expect(await p().getHeight()).toEqual(await new PChainClient({ baseUrl: source.url }).getHeight());
  });

  it("names a transaction that is not the node's hex as the source's, not as the user's transaction", async () => {
    // A spend of a UTXO whose owner the fork never read: the fork reads the transaction that made it.
    const key = source.keys[2]!;
    const signer = new Signer(source.url, key.privateKey, source.world.network.hrp);
    await signer.send('P', key.p, AVAX);
    override = (r) =>
      r.method === 'platform.getTx' ? result(r.id, { tx: '0x0000deadbeef00', encoding: 'hex' }) : undefined;
    await expect(p().issueTx({ tx: signer.signed, encoding: 'hex' })).rejects.toThrow(
      /answered getTx \w+ that the mock cannot read: not the node's hex/,
    );
    override = () => undefined;
    expect(await p().issueTx({ tx: signer.signed, encoding: 'hex' })).toHaveProperty('txID');
  });
});

describe("a fork's reads of the source", () => {
  it("shares one read of the source's later blocks, and of what they spent, among loads at once", async () => {
    const proxy = await hostile(source.url, () => undefined);
    const fork = await startMockNode({ accounts: 1, fork: { url: proxy.url, cacheDir: false } });
    try {
      // Two blocks the source accepts after the fork point.
      await source.wallet(0).send('P', source.keys[1]!.p, AVAX);
      await source.wallet(0).send('P', source.keys[1]!.p, AVAX);
      const forkHeight = fork.world.tip('P').height;
      const from = proxy.log.length;
      // One call naming three addresses: three loads at once, each needing the later blocks.
      const owners = source.keys.map((k) => k.p);
      await new PChainClient({ baseUrl: fork.url }).getBalance({ addresses: owners });
      const sent = proxy.log.slice(from);
      const later = sent.filter((r) => r.method === 'platform.getBlockByHeight').map((r) => Number(r.params.height));
      expect(later.sort()).toEqual([forkHeight + 1, forkHeight + 2]);
      expect(sent.filter((r) => r.method === 'platform.getHeight')).toHaveLength(1);
      expect(sent.filter((r) => r.method === 'platform.getUTXOs')).toHaveLength(owners.length);
      // The UTXO the source's later blocks spent, put back for its owner: its transaction read once, not per owner.
      expect(sent.filter((r) => r.method === 'platform.getTx')).toHaveLength(1);
    } finally {
      await fork.close();
      await proxy.close();
    }
  });

  it("caches the C-Chain's shared memory only under the fork's C-Chain block, once it is known", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'fork-hostile-'));
    try {
      const at = new ForkSource(source.url, cacheDir);
      at.scope = 'net/point';
      const c = clientsOf(source.url, at.cached);
      const exported = () =>
        c.cAvax.getUTXOs({ addresses: [source.keys[0]!.p.replace(/^P/, 'C')], sourceChain: 'X', encoding: 'hex' });
      await exported();
      await c.p.getHeight();
      expect(readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith('.json'))).toHaveLength(1);
      at.cHeight = 7n;
      await exported();
      expect(readdirSync(join(cacheDir, 'net')).sort()).toEqual(['point', 'point-C7']);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('reads a cache file that is not JSON from the source again, and writes it anew', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'fork-hostile-'));
    try {
      const first = await startMockNode({ accounts: 1, fork: { url: source.url, cacheDir } });
      await first.close();
      const files = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
        );
      const cached = files(cacheDir).filter((f) => f.endsWith('.json'));
      expect(cached.length).toBeGreaterThan(5);
      for (const file of cached) writeFileSync(file, '{"cut short');
      const second = await startMockNode({ accounts: 1, fork: { url: source.url, cacheDir } });
      await second.close();
      for (const file of cached) expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('a fork whose source has a staker without a transaction and serves no getStake', () => {
  it("refuses what needs the staker's stake, naming it, and serves on", async () => {
    const own = await startMockNode({ accounts: 1, seed: 'untraced source' });
    const end = own.world.time.get() + 20n * 86_400n;
    const { txID } = own.dev.addStaker({
      nodeID: `NodeID-${cb58Encode(Buffer.alloc(20, 5))}`,
      weight: String(2_000n * AVAX),
      endTime: String(end),
      rewardAddresses: [own.keys[0]!.p],
    });
    const proxy = await hostile(own.url, (r) =>
      r.method === 'platform.getStake'
        ? JSON.stringify({ jsonrpc: '2.0', id: r.id, error: { code: -32601, message: 'method not found' } })
        : undefined,
    );
    const fork = await startMockNode({ accounts: 1, fork: { url: proxy.url, cacheDir: false } });
    try {
      const refusal = `the fork source has no transaction for staker ${txID}, and its stake cannot be read from its platform.getStake`;
      await expect(
        new PChainClient({ baseUrl: fork.url }).getStake({ addresses: [own.keys[0]!.p] } as never),
      ).rejects.toThrow(refusal);
      await expect(fork.dev.setTime({ timestamp: String(end) })).rejects.toThrow(refusal);
      expect(fork.world.time.get()).toBeLessThan(end);
      expect(await new PChainClient({ baseUrl: fork.url }).getHeight()).toEqual(
        await new PChainClient({ baseUrl: own.url }).getHeight(),
      );
    } finally {
      await fork.close();
      await proxy.close();
      await own.close();
    }
  });
});
