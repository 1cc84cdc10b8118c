/**
 * The mock node as a library for test suites: `const node = await startMockNode({ network, accounts, seed })` runs an
 * isolated simulated network on a free port of 127.0.0.1 (one per vitest worker is fine), with its funded keys, its
 * development controls and close().
 */
import { DevClient } from '../../generated/client/dist/index.js';
import { bech32Encode } from '../../generators/formats.ts';
import type { DevControls } from '../engine/dev.ts';
import type { Mining } from '../engine/engine.ts';
import { startMockNode as serve } from '../node.ts';
import type { NetworkName } from '../world/networks.ts';
import type { World } from '../world/world.ts';
import { Wallet } from './wallet.ts';

export { loadFixture } from './fixture.ts';
export { Wallet } from './wallet.ts';

export interface StartOptions {
  /** `local` (default), `fuji` or `mainnet`: that network's IDs, HRP and genesis. */
  network?: NetworkName;
  /** Funded keys beyond the network's own (default 10), 2,500 AVAX each on X and P. */
  accounts?: number;
  /** Seeds the funded keys (default `avalanche-mock`): the same seed, the same keys and world. */
  seed?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Automine (default), `{ mode: 'interval', blockTimeMs }` or `{ mode: 'manual' }`. */
  mining?: Mining;
}

export interface FundedKey {
  /** `PrivateKey-<cb58>`. */
  privateKey: string;
  /** The key's address on the X-Chain (`X-local1…`) and on the P-Chain (`P-local1…`). */
  x: string;
  p: string;
}

export interface MockNodeHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`: the node's paths (`/ext/bc/X`, `/ext/bc/P`, …) hang below it. */
  url: string;
  keys: FundedKey[];
  /** Development controls in process (synchronous): snapshot/revert, time, mining, funding, fee state, reset. */
  dev: DevControls;
  /** The same controls over HTTP (`/ext/dev`), as the generated client any other process would use. */
  devClient: DevClient;
  world: World;
  /** A wallet of funded key `index` (`keys[index]`) that builds, signs and issues transactions and waits for them. */
  wallet(index: number): Wallet;
  close(): Promise<void>;
}

export async function startMockNode(options: StartOptions = {}): Promise<MockNodeHandle> {
  const node = await serve({
    port: options.port ?? 0,
    host: '127.0.0.1',
    world: {
      network: options.network ?? 'local',
      accounts: options.accounts ?? 10,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    ...(options.mining ? { mining: options.mining } : {}),
  });
  const { world } = node;
  const address = (chain: string, hex: string) => `${chain}-${bech32(world.network.hrp, hex)}`;
  return {
    url: node.url,
    keys: world.accounts.map((a) => ({
      privateKey: a.privateKey,
      x: address('X', a.address),
      p: address('P', a.address),
    })),
    dev: node.state.dev,
    devClient: new DevClient({ baseUrl: node.url }),
    world,
    wallet: (index) => {
      const key = world.accounts[index];
      if (!key) throw new Error(`no funded key ${index}: the node has ${world.accounts.length} (option accounts)`);
      return new Wallet(node.url, key.privateKey, world.network.hrp);
    },
    close: () => node.close(),
  };
}

const bech32 = (hrp: string, hex: string) => bech32Encode(hrp, Buffer.from(hex, 'hex'));
