// The types of @avalanche-openrpc/mock (mock/package/index.ts), shipped as the package's index.d.ts.
export type NetworkName = 'local' | 'fuji' | 'mainnet';
export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

export interface StartOptions {
  /** `local` (default), `fuji` or `mainnet`: that network's IDs, HRP and genesis. */
  network?: NetworkName;
  /** Funded keys beyond the network's own (default 10), 2,500 AVAX each on X and P. */
  accounts?: number;
  /** Seeds the funded keys (default `avalanche-mock`): the same seed, the same keys and world. */
  seed?: string;
  /** 0 (default) picks a free port of 127.0.0.1. */
  port?: number;
  /** Automine (default), on an interval, or only on `dev.mine`. */
  mining?: Mining;
}

export interface FundedKey {
  /** `PrivateKey-<cb58>`. */
  privateKey: string;
  /** The key's X- and P-Chain addresses. */
  x: string;
  p: string;
}

/** Development controls. Amounts and times are strings of digits (or safe integers); times are Unix seconds. */
export interface DevControls {
  snapshot(): { id: string };
  /** Later snapshots are discarded; `id` stays, so reverting to it again does the same. */
  revert(params: { id: string }): { reverted: boolean };
  setTime(params: { timestamp: string | number }): { timestamp: string };
  increaseTime(params: { seconds: string | number }): { timestamp: string };
  mine(params: { chain?: 'X' | 'P'; blocks?: string | number }): { blockIDs: string[] };
  fund(params: { address: string; amount: string | number; assetID?: string }): { utxoID: string };
  setFeeState(params: { excess?: string | number; capacity?: string | number }): { excess: string; capacity: string };
  reset(): { reset: boolean };
}

export interface MockNodeHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`; the node's paths (`/ext/bc/X`, `/ext/bc/P`, …) hang below it. */
  url: string;
  keys: FundedKey[];
  dev: DevControls;
  /** The simulated network's state (read-only use; its shape may change between versions). */
  world: unknown;
  close(): Promise<void>;
}

export function startMockNode(options?: StartOptions): Promise<MockNodeHandle>;
