/**
 * The C-Chain of a forked world forks through the EVM engine's own fork support: EDR reads the source's
 * `/ext/bc/C/rpc` at the fork's C-Chain block (the source's tip when first needed: `Fork.cHeight`), and keeps what it
 * reads in the fork's cache folder.
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
  const blockNumber = await fork.cHeight();
  // Without a cache folder EDR would write ./edr-cache wherever the node runs: with the fork's cache off, a
  // temporary folder of the process instead.
  const cacheDir = fork.source.cacheDir
    ? join(fork.source.cacheDir, 'c-chain')
    : join(tmpdir(), `avalanche-mock-edr-${process.pid}`);
  return { url, blockNumber, cacheDir };
}
