/**
 * The mock node as a library for test suites: `const node = await startMockNode({ network, accounts, seed })` runs an
 * isolated simulated network on a free port of 127.0.0.1 (one per vitest worker is fine), with its funded keys, its
 * development controls and close().
 */
import { DevClient } from '../../generated/client/dist/index.js';
import { bech32Encode } from '../../generators/formats.ts';
import { type DevControls, fundedAccount } from '../engine/dev.ts';
import { type ForkedDevControls, forkedDev } from '../fork/dev.ts';
import type { ForkOptions } from '../fork/options.ts';
import { type StartOptions, resolveOptions, startWithOptions } from '../start-options.ts';
import type { World } from '../world/world.ts';
import { Wallet } from './wallet.ts';

export { loadFixture } from './fixture.ts';
export { type L1ValidatorSpec, Wallet } from './wallet.ts';

export type { ForkedDevControls, StartOptions };

export interface FundedKey {
  /** `PrivateKey-<cb58>`. */
  privateKey: string;
  /** The key's address on the X-Chain (`X-local1…`) and on the P-Chain (`P-local1…`). */
  x: string;
  p: string;
  /** The same key's C-Chain address, `0x…` (EIP-55). */
  c: string;
}

export interface MockNodeHandle<Dev = DevControls> {
  /** Base URL, e.g. `http://127.0.0.1:41234`: the node's paths (`/ext/bc/X`, `/ext/bc/P`, …) hang below it. */
  url: string;
  keys: FundedKey[];
  /**
   * Development controls in process: snapshot/revert, time, mining, funding, fee state, reset. Synchronous, but on a
   * fork, where each first loads what it names from the source as its HTTP twin does: there each answers a promise.
   */
  dev: Dev;
  /** The same controls over HTTP (`/ext/dev`), as the generated client any other process would use. */
  devClient: DevClient;
  world: World;
  /** A wallet of funded key `index` (`keys[index]`) that builds, signs and issues transactions and waits for them. */
  wallet(index: number): Wallet;
  close(): Promise<void>;
}

/**
 * Takes the CLI's options under their own names (mock/start-options.ts), with its defaults but for the port: 0, a
 * free one. An option it does not know is refused by name.
 */
export function startMockNode(options?: StartOptions & { fork?: undefined }): Promise<MockNodeHandle>;
export function startMockNode(
  options: StartOptions & { fork: ForkOptions },
): Promise<MockNodeHandle<ForkedDevControls>>;
export function startMockNode(options: StartOptions): Promise<MockNodeHandle | MockNodeHandle<ForkedDevControls>>;
export async function startMockNode(
  options: StartOptions = {},
): Promise<MockNodeHandle | MockNodeHandle<ForkedDevControls>> {
  const node = await startWithOptions(resolveOptions(options, (key) => `startMockNode: ${key}`, 0));
  const { world } = node;
  const address = (chain: string, hex: string) =>
    `${chain}-${bech32Encode(world.network.hrp, Buffer.from(hex, 'hex'))}`;
  return {
    url: node.url,
    keys: world.accounts.map((a) => ({
      privateKey: a.privateKey,
      x: address('X', a.address),
      p: address('P', a.address),
      // Derived when read: a secp256k1 multiplication per key is more than a start-up should pay for unread keys.
      get c() {
        return fundedAccount(world, a.privateKey).cAddress;
      },
    })),
    // The overloads above tie the type of `dev` to `fork` in the options.
    dev: (world.fork ? forkedDev(node.state.dev, world.fork) : node.state.dev) as DevControls,
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
