/**
 * The C-Chain of a forked world forks through the EVM engine's own fork support: EDR reads the source's
 * `/ext/bc/C/rpc` at the block that was its tip when the engine started, and keeps what it reads in the fork's
 * cache folder. The X- and P-Chain's fork point does not fix a C-Chain block, so the engine's first call does.
 */
import type { ForkConfig } from '@nomicfoundation/edr';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { World } from '../world/world.ts';
import { forkOf } from './lazy.ts';

export async function cChainFork(world: World): Promise<ForkConfig | undefined> {
  const fork = forkOf(world);
  if (!fork) return undefined;
  const url = `${fork.source.url}/ext/bc/C/rpc`;
  const response = await fork.source.live(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    signal: AbortSignal.timeout(60_000),
  });
  const answer = JSON.parse(await response.text()) as { result?: string };
  if (typeof answer.result !== 'string') throw new Error(`${url} answered no block number`);
  // Without a cache folder EDR would write ./edr-cache wherever the node runs: with the fork's cache off, a
  // temporary folder of the process instead.
  const cacheDir = fork.source.cacheDir
    ? join(fork.source.cacheDir, 'c-chain')
    : join(tmpdir(), `avalanche-mock-edr-${process.pid}`);
  return { url, blockNumber: BigInt(answer.result), cacheDir };
}
