/**
 * Fork mode against a local source (a second mock in this process, on 127.0.0.1): start-up of a forked node to its
 * first answer, with no disk cache and with a warm one (target ≤ 500 ms), and the first read of a forked address
 * that holds 1,000 UTXOs, over the source's own time for the same read (target ≤ 100 ms over it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PChainClient, XChainClient } from '../generated/client/dist/index.js';
import { startMockNode } from '../mock/package/index.ts';
import { median } from './median.ts';

const ROUNDS = 5;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

export default async function bench(): Promise<void> {
  const source = await startMockNode({ accounts: 1, utxosPerAccount: 1000, seed: 'fork bench' });
  // A P- and an X-Chain block above genesis, as a live source has: the fork then reads the blocks at its fork point
  // and the source's proposervm (mock/fork/proposer.ts), which a fork at height 0 skips.
  source.dev.mine({ chain: 'P' });
  source.dev.mine({ chain: 'X' });
  const cacheDir = mkdtempSync(join(tmpdir(), 'fork-bench-'));
  const address = source.keys[0]!.x;
  const page = { addresses: [address], limit: 1024, encoding: 'hex' as const };
  try {
    // The codec and the clients loaded once, as in a test suite's second fork.
    await (await startMockNode({ accounts: 0, fork: { url: source.url, cacheDir: false } })).close();
    for (const [label, dir] of [
      ['no disk cache', false],
      ['warm disk cache', cacheDir],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const start = process.hrtime.bigint();
        const fork = await startMockNode({ accounts: 0, fork: { url: source.url, cacheDir: dir } });
        await new PChainClient({ baseUrl: fork.url }).getHeight();
        times.push(ms(start));
        await fork.close();
      }
      console.log(
        `fork start-up to first answer (${label}): ${median(times).toFixed(1)} ms median of ${ROUNDS} (target ≤ 500 ms)`,
      );
    }

    const own: number[] = [];
    const forked: number[] = [];
    const sourceClient = new XChainClient({ baseUrl: source.url });
    for (let i = 0; i < ROUNDS; i++) {
      let start = process.hrtime.bigint();
      const direct = await sourceClient.getUTXOs(page);
      own.push(ms(start));
      const fork = await startMockNode({ accounts: 0, fork: { url: source.url, cacheDir: false } });
      start = process.hrtime.bigint();
      const first = await new XChainClient({ baseUrl: fork.url }).getUTXOs(page);
      forked.push(ms(start));
      await fork.close();
      if (first.utxos.length !== direct.utxos.length) throw new Error('the fork read another set of UTXOs');
    }
    console.log(
      `first read of a forked address with 1,000 UTXOs: ${median(forked).toFixed(1)} ms median, the source's own ${median(own).toFixed(1)} ms: ${(median(forked) - median(own)).toFixed(1)} ms over it (target ≤ 100 ms)`,
    );
  } finally {
    await source.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
