/**
 * The secrets of methods a node may serve that no spec of this project describes: coreth's `personal_*` namespace
 * (PersonalAccountAPI, graft/coreth/internal/ethapi/api.go of v1.14.2), served when a node enables
 * `internal-personal`. Its methods take secrets by position; InitializeWallet answers a new wallet's mnemonic.
 * Any other method the spec does not describe loses all its params in a transcript (./redact.ts).
 */

export interface PositionalSecrets {
  /** The positions of the params that are secrets. */
  params: number[];
  /** Whether the result is one. */
  result: boolean;
}

export const CORETH_PERSONAL_SECRETS: ReadonlyMap<string, PositionalSecrets> = new Map([
  ['personal_openWallet', { params: [1], result: false }], // (url, passphrase) :330
  ['personal_newAccount', { params: [0], result: false }], // (password) :360
  ['personal_importRawKey', { params: [0, 1], result: false }], // (privkey, password) :386
  ['personal_unlockAccount', { params: [1], result: false }], // (addr, password, duration) :402
  ['personal_sendTransaction', { params: [1], result: false }], // (args, passwd) :461
  ['personal_signTransaction', { params: [1], result: false }], // (args, passwd) :483
  ['personal_sign', { params: [2], result: false }], // (data, addr, passwd) :527
  ['personal_initializeWallet', { params: [], result: true }], // (url) -> the mnemonic :572
  ['personal_unpair', { params: [1], result: false }], // (url, pin) :599
]);
