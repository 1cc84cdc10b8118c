/**
 * The development controls of the mock (`/ext/dev`, openrpc/dev.json), like anvil's and Hardhat's: snapshots, chain
 * time, mining, funds, fee states, reset, accounts. Never part of a generated server: they exist only on the mock.
 */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32Encode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { makeUtxo, sha256 } from '../world/codec.ts';
import { EWOQ_PRIVATE_KEY } from '../world/networks.ts';
import { LAST_RFC3339_SECOND, type Params, rfc3339 } from '../world/reads.ts';
import type { World } from '../world/world.ts';
import type { Engine, SavedPools } from './engine.ts';
import { gasPrice } from '../world/fees.ts';
import { advanceTime } from './staking.ts';
import type { CChainParts, LazyCChain } from '../lazy-cchain.ts';
import { StateEdits } from './dev-edits.ts';
import { MAX_UINT64, addressOf, assetOf, uint } from './dev-params.ts';
import { txBytes } from './handlers.ts';
import { type Simulation, simulateTx } from './simulate.ts';
import { replaceWorld, stateOf, worldOf } from './state-file.ts';

/** The longest interval node:timers takes (a longer one fires after 1 ms). */
const MAX_INTERVAL_MS = 0x7fff_ffffn;
/** The largest state dev.loadState inflates: twice the default request body, room for ~100,000 C-Chain txs. */
const MAX_STATE_BYTES = 32 * 1024 * 1024;

const optionalFlag = (value: unknown, name: string): boolean | undefined => {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new Error(`${name} must be true or false`);
};

/**
 * A chain time the node could have: one its JSON answers can write (getTimestamp, getFeeState), at most
 * 9999-12-31T23:59:59Z, and not before the chain time.
 */
function checkChainTime(time: bigint, now: bigint): void {
  if (time > LAST_RFC3339_SECOND)
    throw new Error(`time ${time} is after ${rfc3339(LAST_RFC3339_SECOND)}, the last time the node's JSON can write`);
  if (time < now) throw new Error(`time ${time} is before the chain time ${now}`);
}

type MineResult = { blockIDs: string[]; height: string };
type FundResult = { utxoID?: { txID: string; outputIndex: number }; balance: string };

export class DevControls extends StateEdits {
  /** Snapshot IDs to journal marks and the pools then; IDs only grow, so an old ID never names a newer state. */
  private readonly snapshots = new Map<string, { mark: number; pools: SavedPools }>();
  private nextID = 1;
  private funded = 0;

  private readonly engine: Engine;
  /** The C-Chain, moved with the world by every control. */
  private readonly cchain?: LazyCChain;
  constructor(world: World, engine: Engine, cchain?: LazyCChain) {
    super(world, () => engine.mine('P', 1));
    this.engine = engine;
    this.cchain = cchain;
  }

  /** anvil's and Hardhat's instance ID (`*_metadata`): 32 random bytes, new after each reset, as EDR's. */
  instanceId = `0x${randomBytes(32).toString('hex')}`;

  /** The snapshots a revert can still use, oldest first. */
  heldSnapshots(): string[] {
    return [...this.snapshots.keys()];
  }

  snapshot(): { snapshotID: string } {
    const id = String(this.nextID++);
    this.snapshots.set(id, { mark: this.world.snapshot(), pools: this.engine.savePools() });
    this.cchain?.snapshot(id);
    return { snapshotID: id };
  }

  /** Back to a snapshot: later snapshots are discarded; this one stays, so reverting to it again does the same. */
  revert(p: Params<'snapshotID'>): Record<string, never> {
    const id = String(uint(p.snapshotID, 'snapshotID'));
    const saved = this.snapshots.get(id);
    if (saved === undefined) throw new Error(`unknown snapshot: ${id}`);
    this.world.revert(saved.mark);
    this.engine.restorePools(saved.pools);
    this.cchain?.revert(id);
    for (const other of this.snapshots.keys()) if (Number(other) > Number(id)) this.snapshots.delete(other);
    return {};
  }

  /** anvil's and Hardhat's evm_revert: a revert, after which the snapshot is gone (it serves them one revert). */
  revertOnce(p: Params<'snapshotID'>): Record<string, never> {
    this.revert(p);
    this.snapshots.delete(String(uint(p.snapshotID, 'snapshotID')));
    return {};
  }

  /** Moves the chain time (never back), ending the staking periods it passes; with `mine` (default) a P block at it. */
  setTime(p: Params<'timestamp' | 'mine'>): { timestamp: string } {
    return this.moveTime(uint(p.timestamp, 'timestamp'), p.mine);
  }

  increaseTime(p: Params<'seconds' | 'mine'>): { timestamp: string } {
    return this.moveTime(this.world.time.get() + uint(p.seconds, 'seconds'), p.mine);
  }

  private moveTime(time: bigint, mine: unknown): { timestamp: string } {
    const build = optionalFlag(mine, 'mine') ?? true;
    checkChainTime(time, this.world.time.get());
    // Each reward proposal block carries the pool's txs, as the node's builder packs them, `mine` or not.
    advanceTime(this.world, time, () => this.engine.packProposal());
    if (build) this.engine.mine('P', 1);
    this.cchain?.moveTime(build);
    return { timestamp: rfc3339(this.world.time.get()) };
  }

  /** Builds `blocks` blocks (default 1; empty ones too) on X or P, from the pool first. */
  mine(p: Params<'chain' | 'blocks'> & { chain: 'X' | 'P' }): MineResult;
  mine(p: Params<'chain' | 'blocks'>): MineResult | Promise<MineResult>;
  mine(p: Params<'chain' | 'blocks'>): MineResult | Promise<MineResult> {
    const asked = String(p.chain);
    const chain = (['X', 'P', 'C'] as const).find((c) => c === asked || this.world.chainIDs[c] === asked);
    if (!chain || (chain === 'C' && !this.cchain))
      throw new Error(`unknown chain '${asked}': dev.mine builds X-, P- and C-Chain blocks`);
    const count = p.blocks === undefined ? 1 : Number(uint(p.blocks, 'blocks'));
    if (count < 1 || count > 1000) throw new Error('blocks must be from 1 to 1000');
    if (chain === 'C') return this.cchain!.load().then((c) => c.dev.cBlockIDs(c.chain, count));
    const blockIDs = this.engine.mine(chain, count);
    return { blockIDs, height: String(this.world.tip(chain).height) };
  }

  /** Gives an `X-…`/`P-…` address `amount` of an asset (AVAX by default) in one new UTXO, maybe time-locked. */
  fund(p: Params<'address' | 'amount' | 'assetID' | 'locktime'>): FundResult | Promise<FundResult> {
    const address = String(p.address ?? '');
    if (this.cchain && (address.startsWith('0x') || address.startsWith('C-'))) {
      const amount = uint(p.amount, 'amount');
      const serial = this.funded++;
      return this.cchain.load().then((c) => c.dev.fundC(this.world, c.chain, address, amount, serial));
    }
    const { chain, owner } = addressOf(this.world, address);
    const assetID = assetOf(this.world, p.assetID);
    const amount = uint(p.amount, 'amount');
    // secp256k1fx's output verification: the node never makes an output of no value.
    if (amount === 0n) throw new Error('amount must be more than 0: an output has a value');
    const locktime = p.locktime === undefined ? 0n : uint(p.locktime, 'locktime');
    const balance =
      this.world
        .utxosOf(chain, owner)
        .filter((u) => u.assetID === assetID)
        .reduce((sum, u) => sum + u.amount, 0n) + amount;
    // The node's balances are uint64 sums (safemath.Add): past that, getBalance answers math's ErrOverflow.
    if (balance > MAX_UINT64) throw new Error(`overflow: ${address} would hold ${balance} of ${assetID}`);
    // The ID of no real transaction, unique per funding; a fork starts from its source's tips, and its source's own
    // fundings, which it may have loaded, are named from them too: its source's URL keeps the two apart.
    const origin = this.world.fork ? ` fork of ${this.world.fork.source.url}` : '';
    const txID = cb58Encode(
      sha256(
        Buffer.from(`dev.fund ${this.funded++} ${this.world.tip('P').id} ${this.world.tip('X').id} ${owner}${origin}`),
      ),
    );
    const utxo = makeUtxo({
      txID,
      outputIndex: 0,
      assetID,
      amount,
      owner: { locktime, threshold: 1, addresses: [owner] },
      stakeableLocktime: 0n,
    });
    this.world.utxos[chain].set(utxo.key, utxo);
    return { utxoID: { txID, outputIndex: 0 }, balance: String(balance) };
  }

  /** Sets the P-Chain's dynamic fee state and the L1 validators' fee excess. */
  setFeeState(p: Params<'capacity' | 'excess' | 'validatorExcess'>): {
    capacity: number;
    excess: number;
    price: number;
    validatorExcess: number;
    validatorPrice: number;
  } {
    const { fee, validatorFee } = this.world.config;
    const state = { ...this.world.feeState.get() };
    if (p.capacity !== undefined) {
      state.capacity = uint(p.capacity, 'capacity');
      if (state.capacity > fee.maxCapacity)
        throw new Error(`capacity ${state.capacity} is above the maximum capacity ${fee.maxCapacity}`);
    }
    if (p.excess !== undefined) state.excess = uint(p.excess, 'excess');
    const validator = { ...this.world.validatorFeeState.get() };
    if (p.validatorExcess !== undefined) validator.excess = uint(p.validatorExcess, 'validatorExcess');
    this.world.feeState.set(state);
    this.world.validatorFeeState.set(validator);
    const validatorExcess = validator.excess;
    return {
      capacity: Number(state.capacity),
      excess: Number(state.excess),
      price: Number(gasPrice(fee.minPrice, state.excess, fee.excessConversionConstant)),
      validatorExcess: Number(validatorExcess),
      validatorPrice: Number(gasPrice(validatorFee.minPrice, validatorExcess, validatorFee.excessConversionConstant)),
    };
  }

  /** Back to the world as it started (or as `--state` loaded it); every snapshot is discarded. */
  reset(): Record<string, never> {
    this.world.revert(0);
    this.engine.restorePools();
    this.snapshots.clear();
    this.cchain?.reset();
    this.instanceId = `0x${randomBytes(32).toString('hex')}`;
    return {};
  }

  setAutomine(p: Params<'enabled'>): Record<string, never> {
    if (typeof p.enabled !== 'boolean') throw new Error('enabled must be true or false');
    this.engine.automine = p.enabled;
    this.cchain?.setAutomine(p.enabled);
    return {};
  }

  setIntervalMining(p: Params<'interval'>): Record<string, never> {
    const interval = uint(p.interval, 'interval');
    if (interval > MAX_INTERVAL_MS) throw new Error(`interval must be at most ${MAX_INTERVAL_MS} ms`);
    this.engine.setInterval(Number(interval));
    return {};
  }

  /**
   * Lets transactions spend the address's outputs and authorise for what it owns without its signatures (anvil's
   * `anvil_impersonateAccount`). The address is one key on both X and P: either prefix impersonates it on both.
   */
  impersonate(p: Params<'address'>): Record<string, never> | Promise<Record<string, never>> {
    return this.impersonation(p.address, true);
  }

  stopImpersonating(p: Params<'address'>): Record<string, never> | Promise<Record<string, never>> {
    return this.impersonation(p.address, false);
  }

  /** An EVM address (`0x…`) is the C-Chain engine's to act as (`eth_sendTransaction` unsigned), as anvil's accounts. */
  private impersonation(address: unknown, on: boolean): Record<string, never> | Promise<Record<string, never>> {
    if (this.cchain && typeof address === 'string' && address.startsWith('0x')) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`${JSON.stringify(address)} is not an EVM address`);
      const evm = address.slice(2).toLowerCase();
      return this.cchain
        .load()
        .then((c) => c.chain.impersonate(evm, on))
        .then(() => ({}));
    }
    const { owner } = addressOf(this.world, address);
    if (on) this.world.impersonated.add(owner);
    else this.world.impersonated.delete(owner);
    return {};
  }

  /** anvil's `anvil_setCode` on the C-Chain. */
  setCode(p: Params<'address' | 'code'>): Promise<Record<string, never>> {
    return this.editC('setCode', { address: p.address, code: p.code });
  }

  setStorageAt(p: Params<'address' | 'slot' | 'value'>): Promise<Record<string, never>> {
    return this.editC('setStorageAt', { address: p.address, slot: p.slot, value: p.value });
  }

  setNonce(p: Params<'address' | 'nonce'>): Promise<Record<string, never>> {
    return this.editC('setNonce', { address: p.address, nonce: uint(p.nonce, 'nonce') });
  }

  private editC(method: string, edit: Parameters<CChainParts['dev']['editC']>[1]): Promise<Record<string, never>> {
    if (!this.cchain) throw new Error(`the node serves no C-Chain: dev.${method} edits C-Chain accounts`);
    return this.cchain.load().then((c) => c.dev.editC(c.chain, edit));
  }

  /** What `issueTx` would answer, cost, consume and make, without changing anything. */
  simulateTx(p: Params<'tx' | 'encoding' | 'chain'>): Simulation {
    const chain = p.chain;
    if (chain !== 'X' && chain !== 'P')
      throw new Error(`unknown chain '${String(chain)}': dev.simulateTx takes X or P`);
    return simulateTx(this.engine, this.world, chain, txBytes(p));
  }

  /**
   * The whole chain state, as `--state` saves it, gzipped and hex-encoded like anvil's `anvil_dumpState`. The C-Chain's
   * part is its blocks and edits, which a load replays into a fresh EVM (mock/cchain/replay.ts). No mempool is part of
   * it, as none is of anvil's (./state-file.ts withoutMempools).
   */
  dumpState(): { state: string } {
    return { state: `0x${gzipSync(stateOf(this.world)).toString('hex')}` };
  }

  /**
   * Replaces the chain state with a dumped one (`dev.dumpState`, or a `--state` file's text) of the same network. The
   * state is checked whole before anything changes; a snapshot taken before can revert the load. The pools empty and
   * the C-Chain's EVM is rebuilt from the state's blocks on its next call.
   */
  loadState(p: Params<'state'>): Record<string, never> {
    const text = typeof p.state === 'string' ? p.state : '';
    let json: string;
    try {
      const gzipped = text.startsWith('0x') ? Buffer.from(text.slice(2), 'hex') : undefined;
      // A gzip stream of some kilobytes can inflate to gigabytes: it is stopped at the bound, not inflated whole.
      json = gzipped ? gunzipSync(gzipped, { maxOutputLength: MAX_STATE_BYTES }).toString('utf8') : text;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(`the state is too large: dev.loadState inflates at most ${MAX_STATE_BYTES} bytes`);
      throw new Error(`the state is not a dumped state: ${(error as Error).message}`);
    }
    replaceWorld(this.world, worldOf(json, 'the state').world);
    this.engine.restorePools();
    this.cchain?.reset();
    return {};
  }

  listAccounts(): { accounts: Account[] } {
    return { accounts: fundedKeys(this.world).map((privateKey) => fundedAccount(this.world, privateKey)) };
  }
}

/** The funded keys: on a local network the ewoq key first, then the derived accounts. */
export const fundedKeys = (world: World): string[] => [
  ...(world.network.name === 'local' ? [EWOQ_PRIVATE_KEY] : []),
  ...world.accounts.map((a) => a.privateKey),
];

interface Account {
  privateKey: string;
  xAddress: string;
  pAddress: string;
  cAddress: string;
}

/**
 * Each key's addresses once per network prefix: an elliptic-curve multiplication and two hashes a key, which made
 * `dev.listAccounts` of eleven keys cost milliseconds on each call. Keys are the funded accounts' (bounded by the world).
 */
const accountsByKey = new Map<string, Account>();

/**
 * A key's addresses on this network: X- and P-Chain (bech32 of the compressed public key's hash) and C-Chain (0x, EIP-55,
 * of the uncompressed one's keccak-256), by OpenSSL's secp256k1, so that no codec loads for them.
 */
export function fundedAccount(world: World, privateKey: string): Account {
  const key = `${world.network.hrp} ${privateKey}`;
  let account = accountsByKey.get(key);
  if (!account) {
    if (accountsByKey.size >= 10_000) accountsByKey.clear();
    accountsByKey.set(key, (account = accountOf(world.network.hrp, privateKey)));
  }
  return { ...account };
}

function accountOf(hrp: string, privateKey: string): Account {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(cb58Decode(privateKey.slice('PrivateKey-'.length))!);
  const short = createHash('ripemd160')
    .update(sha256(ecdh.getPublicKey(null, 'compressed')))
    .digest();
  const address = bech32Encode(hrp, short);
  const eth = keccak_256(ecdh.getPublicKey().subarray(1)).subarray(12);
  return {
    privateKey,
    xAddress: `X-${address}`,
    pAddress: `P-${address}`,
    cAddress: ethChecksum(Buffer.from(eth).toString('hex')),
  };
}

/**
 * EIP-55, of an address's 40 hex digits (any case, no 0x): a hex letter is upper case where the keccak-256 of the
 * lower-case address has a nibble of 8 or more. The mock's one writer of C-Chain addresses as geth's Address.Hex does.
 */
export function ethChecksum(digits: string): string {
  const hex = digits.toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  return `0x${[...hex].map((c, i) => (Number.parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}
