/**
 * The C-Chain of a forked world forks through the EVM engine's own fork support: EDR reads the source's
 * `/ext/bc/C/rpc` at the fork's C-Chain block (the source's tip when first needed: `Fork.cHeight`), and keeps what it
 * reads in the fork's cache folder.
 */
import type { ChainOverride, ForkConfig, HardforkActivation } from '@nomicfoundation/edr';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainConfig } from '../cchain/chain-config.ts';
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
  // The source's own schedule; the network's as this mock knows it where the source serves no eth_getChainConfig.
  const config = (await fork.source.cChainConfig()) ?? ((await chainConfig(world)) as Record<string, unknown>);
  return { url, blockNumber, cacheDir, chainOverrides: [chainOverride(config)] };
}

/**
 * The source's Ethereum forks by block and time, from its chain config (coreth sets the forks to Muir Glacier at block
 * 0, Berlin and London at their blocks, Shanghai and Cancun at Durango's and Etna's times): EDR runs a call at the
 * fork block or below, which it does not build itself, under the fork its chain had then, and refuses it without
 * this history.
 */
export function chainOverride(config: Record<string, unknown>): ChainOverride {
  const activations: HardforkActivation[] = [{ condition: { blockNumber: 0n }, hardfork: 'muirGlacier' }];
  for (const [field, hardfork] of [
    ['berlinBlock', 'berlin'],
    ['londonBlock', 'london'],
  ] as const) {
    const at = config[field];
    if (typeof at === 'number' && Number.isSafeInteger(at) && at >= 0)
      activations.push({ condition: { blockNumber: BigInt(at) }, hardfork });
  }
  for (const [field, hardfork] of [
    ['shanghaiTime', 'shanghai'],
    ['cancunTime', 'cancun'],
  ] as const) {
    const at = config[field];
    if (typeof at === 'number' && Number.isSafeInteger(at) && at >= 0)
      activations.push({ condition: { timestamp: BigInt(at) }, hardfork });
  }
  const chainId = BigInt(typeof config.chainId === 'number' ? config.chainId : 0);
  return { chainId, name: `Avalanche C-Chain ${chainId}`, hardforkActivationOverrides: activations };
}
