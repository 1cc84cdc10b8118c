// The types of @avalanche-openrpc/mock (mock/package/index.ts), shipped as the package's index.d.ts.
export type NetworkName = 'local' | 'fuji' | 'mainnet';
export type Mining = { mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; blockTimeMs: number };

/** The CLI's options under their own names, with its defaults (but port 0); an unknown one is refused by name. */
export interface StartOptions {
  /** `local` (default), `fuji` or `mainnet`: that network's IDs, HRP and genesis (`--network`). */
  network?: NetworkName;
  /**
   * Funded keys beyond the network's own (default 10, at most 1,000,000), 2,500 AVAX each on X and P
   * (`--accounts`).
   */
  accounts?: number;
  /** Seeds the funded keys (default `avalanche-mock`): the same seed, the same keys and world (`--seed`). */
  seed?: string;
  /** UTXOs each account's funds are split into, per chain (default 1; `--utxos-per-account`). */
  utxosPerAccount?: number;
  /**
   * Answer as this release did, e.g. `v1.11.0`, or `all` (default: the newest the spec describes;
   * `--node-version`).
   */
  nodeVersion?: string;
  /** Build a block from the pool every `blockTime` ms (`--block-time`; default automine). */
  blockTime?: number;
  /** `false`: blocks only on `dev.mine` (`--no-mining`); or a Mining mode. Default automine. */
  mining?: boolean | Mining;
  /** Serve `/ext/dev` (default true; `--no-dev`). */
  devControls?: boolean;
  /** Serve `/ext/admin` (default true; `--api-admin-enabled`). */
  adminEnabled?: boolean;
  /** Serve `/ext/keystore` where the release has it (default true; `--api-keystore-enabled`). */
  keystoreEnabled?: boolean;
  /** Load the world saved in this file if it exists, and save it there on close() (`--state`). */
  state?: string;
  /**
   * Start from a live node's state (`--fork-url`): `url` its base URL, `height` the P-Chain height (default its tip),
   * `cacheDir` where answers are kept between runs (default ~/.cache/avalanche-mock/fork; false: none).
   */
  fork?: { url: string; height?: number; cacheDir?: string | false };
  /** 0 (default) picks a free port (the CLI's `--port` defaults to 9650). */
  port?: number;
  /** Address to listen on (default 127.0.0.1; `--host`). */
  host?: string;
  /** Host names accepted in the Host header (default localhost; `*` for any; `--http-allowed-hosts`). */
  allowedHosts?: string[];
  /** Largest request body in bytes (default 16 MiB; `--http-max-body-bytes`). */
  maxBodyBytes?: number;
  /** Receives one line per call (method and outcome, never params); none by default. */
  log?: (line: string) => void;
  /** Serve the indexes `/ext/index/...` (default false, as the node's `--index-enabled`). */
  indexEnabled?: boolean;
}

export interface FundedKey {
  /** `PrivateKey-<cb58>`. */
  privateKey: string;
  /** The key's X- and P-Chain addresses. */
  x: string;
  p: string;
  /** The same key's C-Chain address, `0x…` (EIP-55). */
  c: string;
}

/**
 * Development controls (the methods of `/ext/dev`, openrpc/dev.json). Amounts and times: decimal strings or safe
 * integers.
 */
export interface DevControls {
  snapshot(): { snapshotID: string };
  /** Later snapshots are discarded; this one stays, so reverting to it again does the same. */
  revert(params: { snapshotID: string | number }): Record<string, never>;
  setTime(params: { timestamp: string | number; mine?: boolean }): { timestamp: string };
  increaseTime(params: { seconds: string | number; mine?: boolean }): { timestamp: string };
  mine(params: { chain: 'X' | 'P'; blocks?: string | number }): { blockIDs: string[]; height: string };
  /** An EVM address (`0x…`) is funded on the C-Chain's engine, and `C-…` in shared memory: both answer a promise. */
  fund(params: { address: `0x${string}`; amount: string | number }): Promise<{ balance: string }>;
  fund(params: { address: `C-${string}`; amount: string | number }): Promise<{
    utxoID: { txID: string; outputIndex: number };
    balance: string;
  }>;
  fund(params: { address: string; amount: string | number; assetID?: string; locktime?: string | number }): {
    utxoID: { txID: string; outputIndex: number };
    balance: string;
  };
  setFeeState(params: { capacity?: string | number; excess?: string | number; validatorExcess?: string | number }): {
    capacity: number;
    excess: number;
    price: number;
    validatorExcess: number;
    validatorPrice: number;
  };
  reset(): Record<string, never>;
  setAutomine(params: { enabled: boolean }): Record<string, never>;
  setIntervalMining(params: { interval: string | number }): Record<string, never>;
  listAccounts(): { accounts: Array<{ privateKey: string; xAddress: string; pAddress: string; cAddress: string }> };
  /** `X-…`/`P-…`: spends need no signature. `0x…` (a promise): `eth_sendTransaction` from it is accepted unsigned. */
  impersonate(params: { address: `0x${string}` }): Promise<Record<string, never>>;
  impersonate(params: { address: string }): Record<string, never>;
  stopImpersonating(params: { address: `0x${string}` }): Promise<Record<string, never>>;
  stopImpersonating(params: { address: string }): Record<string, never>;
  /** C-Chain account edits (anvil's `anvil_setCode`, `anvil_setStorageAt`, `anvil_setNonce`); snapshots cover them. */
  setCode(params: { address: string; code: string }): Promise<Record<string, never>>;
  setStorageAt(params: { address: string; slot: string; value: string }): Promise<Record<string, never>>;
  setNonce(params: { address: string; nonce: string | number }): Promise<Record<string, never>>;
  /** What `issueTx` would answer, cost, consume and make; changes nothing. */
  simulateTx(params: { tx: string; chain: 'X' | 'P'; encoding?: string }): {
    accepted: boolean;
    txID?: string;
    error?: string;
    fee?: string;
    gas?: { bandwidth: string; dbRead: string; dbWrite: string; compute: string; gas: string; gasPrice: string };
    consumed: object[];
    produced: object[];
    imported: object[];
    exported: object[];
    balanceChanges: Array<{ address: string; assetID: string; change: string }>;
  };
  dumpState(): { state: string };
  loadState(params: { state: string }): Record<string, never>;
  /**
   * State edits, checked as genesis data; a refused one changes nothing. Addresses: `X-…`/`P-…` of this network.
   */
  addUtxo(params: {
    chain: 'X' | 'P';
    addresses: string[];
    amount: string | number;
    threshold?: number;
    locktime?: string | number;
    stakeableLocktime?: string | number;
    assetID?: string;
  }): { utxoID: string; txID: string; outputIndex: number };
  removeUtxo(params: { chain: 'X' | 'P'; utxoID: string }): Record<string, never>;
  addStaker(params: {
    nodeID: string;
    weight: string | number;
    endTime: string | number;
    rewardAddresses: string[];
    rewardThreshold?: number;
    delegate?: boolean;
    delegationFee?: string | number;
    connected?: boolean;
  }): { txID: string; potentialReward: string };
  setConnection(params: { nodeID: string; connected?: boolean; uptime?: number }): {
    connected: boolean;
    uptime: string;
  };
  addSubnet(params: { addresses: string[]; threshold?: number; locktime?: string | number }): { subnetID: string };
  setSubnetOwner(params: {
    subnetID: string;
    addresses: string[];
    threshold?: number;
    locktime?: string | number;
  }): Record<string, never>;
  /** Makes a subnet an L1 managed by `address` (0x hex) on `chainID`, without validators. */
  convertSubnet(params: { subnetID: string; chainID: string; address: string }): { conversionID: string };
  addL1Validator(params: {
    subnetID: string;
    nodeID: string;
    /** 48-byte compressed BLS public key, 0x hex. */
    publicKey: string;
    weight: string | number;
    balance?: string | number;
    remainingBalanceOwner?: string[];
    deactivationOwner?: string[];
  }): { validationID: string };
  setL1ValidatorBalance(params: { validationID: string; balance: string | number }): Record<string, never>;
}

/**
 * The controls on a fork: each first loads what it names from the source, as `/ext/dev` does, so it answers a promise.
 */
export type ForkedDevControls = {
  [K in keyof DevControls]: (...args: Parameters<DevControls[K]>) => Promise<ReturnType<DevControls[K]>>;
};

export interface MockNodeHandle<Dev = DevControls> {
  /** Base URL, e.g. `http://127.0.0.1:41234`; the node's paths (`/ext/bc/X`, `/ext/bc/P`, …) hang below it. */
  url: string;
  keys: FundedKey[];
  dev: Dev;
  /** The same controls over HTTP (`/ext/dev`), as the generated `DevClient` of @avalanche-openrpc/client calls them. */
  devClient: { [K in keyof DevControls]: (...args: Parameters<DevControls[K]>) => Promise<ReturnType<DevControls[K]>> };
  /** The simulated network's state (read-only use; its shape may change between versions). */
  world: unknown;
  /** A wallet of funded key `index` (`keys[index]`): builds, signs and issues transactions, waits for acceptance. */
  wallet(index: number): Wallet;
  close(): Promise<void>;
}

export function startMockNode(options?: StartOptions & { fork?: undefined }): Promise<MockNodeHandle>;
export function startMockNode(
  options: StartOptions & { fork: NonNullable<StartOptions['fork']> },
): Promise<MockNodeHandle<ForkedDevControls>>;
export function startMockNode(options: StartOptions): Promise<MockNodeHandle | MockNodeHandle<ForkedDevControls>>;

type Chain = 'X' | 'P' | 'C';
/** A validator of a subnet's conversion to an L1; its BLS key is `blsSecretKey`'s (default a new one). */
export interface L1ValidatorSpec {
  nodeID: string;
  weight: bigint;
  /** nAVAX for the continuous fee. */
  balance: bigint;
  blsSecretKey?: Uint8Array;
}
/**
 * One funded key's transactions over the node's HTTP API, each waited for; answers the transaction's ID (an EVM
 * transfer's hash). Amounts in nAVAX on X and P and between chains; on the C-Chain's EVM (`send('C', …)`,
 * `balance('C')`) in wei.
 */
export declare class Wallet {
  constructor(url: string, privateKey: string, hrp: string);
  /** `X-…`, `P-…` and the EVM address `0x…` (EIP-55). */
  readonly address: Record<Chain, string>;
  balance(chain: Chain, assetID?: string): Promise<bigint>;
  send(chain: Chain, to: string, amount: bigint, assetID?: string): Promise<string>;
  exportTo(from: Chain, to: Chain, amount: bigint): Promise<string>;
  importFrom(from: Chain, to: Chain): Promise<string>;
  delegate(nodeID: string, amount: bigint, end?: bigint): Promise<string>;
  addValidator(
    nodeID: string,
    amount: bigint,
    options?: { end?: bigint; shares?: number; blsSecretKey?: Uint8Array },
  ): Promise<string>;
  createSubnet(): Promise<string>;
  createChain(subnetID: string, name: string, vmID: string, genesis?: Record<string, unknown>): Promise<string>;
  /** Validation IDs in the order the validators are given; this key gets their balances back and may disable them. */
  convertSubnetToL1(
    subnetID: string,
    chainID: string,
    managerAddress: string,
    validators: readonly L1ValidatorSpec[],
  ): Promise<{ txID: string; validationIDs: string[] }>;
}

/**
 * Hardhat's loadFixture: runs `setUp` once and snapshots after it; later calls revert to that snapshot and return the
 * first call's result. Pass a named function (it is the key; an anonymous one is refused, as Hardhat's is); a
 * return to an earlier fixture discards the ones set up after it, which their next call sets up again.
 */
export function loadFixture<T>(dev: Pick<DevControls, 'snapshot' | 'revert'>, setUp: () => Promise<T>): Promise<T>;
