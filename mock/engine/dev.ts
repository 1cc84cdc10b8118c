/**
 * The development controls of the mock (`/ext/dev`, openrpc/dev.json), like anvil's and Hardhat's: snapshots, chain
 * time, mining, funds, fee states, reset, accounts. Never part of a generated server: they exist only on the mock.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { avalanche } from './avalanche.ts';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32Decode, bech32Encode, cb58Decode, cb58Encode } from '../../generators/formats.ts';
import { makeUtxo, sha256 } from '../world/codec.ts';
import { EWOQ_PRIVATE_KEY } from '../world/networks.ts';
import { rfc3339 } from '../world/reads.ts';
import type { UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Engine } from './engine.ts';
import { gasPrice } from './p.ts';
import { advanceTime } from './staking.ts';
import { txBytes } from './handlers.ts';
import { addressOf, uint } from './dev-params.ts';
import { StateEdits } from './dev-edits.ts';
import { type Simulation, simulateTx } from './simulate.ts';
import { replaceWorld, stateOf, worldOf } from './state-file.ts';

type Params = Record<string, unknown>;

export class DevControls extends StateEdits {
  /** Snapshot IDs to journal marks; IDs only grow, so an old ID never names a newer state. */
  private readonly snapshots = new Map<string, number>();
  private nextID = 1;
  private funded = 0;

  private readonly engine: Engine;

  constructor(world: World, engine: Engine) {
    super(world, () => engine.mine('P', 1));
    this.engine = engine;
  }

  snapshot(): { snapshotID: string } {
    const id = String(this.nextID++);
    this.snapshots.set(id, this.world.snapshot());
    return { snapshotID: id };
  }

  /** Back to a snapshot: later snapshots are discarded; this one stays, so reverting to it again does the same. */
  revert(p: Params): Record<string, never> {
    const id = String(uint(p.snapshotID, 'snapshotID'));
    const mark = this.snapshots.get(id);
    if (mark === undefined) throw new Error(`unknown snapshot: ${id}`);
    this.world.revert(mark);
    this.engine.clear();
    for (const other of this.snapshots.keys()) if (Number(other) > Number(id)) this.snapshots.delete(other);
    return {};
  }

  /** Moves the chain time (never back), ending the staking periods it passes; with `mine` (default) a P block at it. */
  setTime(p: Params): { timestamp: string } {
    const time = uint(p.timestamp, 'timestamp');
    const now = this.world.time.get();
    if (time < now) throw new Error(`time ${time} is before the chain time ${now}`);
    advanceTime(this.world, time);
    if (p.mine !== false) this.engine.mine('P', 1);
    return { timestamp: rfc3339(this.world.time.get()) };
  }

  increaseTime(p: Params): { timestamp: string } {
    return this.setTime({ ...p, timestamp: String(this.world.time.get() + uint(p.seconds, 'seconds')) });
  }

  /** Builds `blocks` blocks (default 1; empty ones too) on X or P, from the pool first. */
  mine(p: Params): { blockIDs: string[]; height: string } {
    const chain = p.chain;
    if (chain !== 'X' && chain !== 'P')
      throw new Error(`unknown chain '${String(chain)}': dev.mine builds X- and P-Chain blocks`);
    const count = p.blocks === undefined ? 1 : Number(uint(p.blocks, 'blocks'));
    if (count < 1 || count > 1000) throw new Error('blocks must be from 1 to 1000');
    const blockIDs = this.engine.mine(chain, count);
    return { blockIDs, height: String(this.world.tip(chain).height) };
  }

  /** Gives an `X-…`/`P-…` address `amount` of an asset (AVAX by default) in one new UTXO, maybe time-locked. */
  fund(p: Params): { utxoID: { txID: string; outputIndex: number }; balance: string } {
    const { chain, owner } = addressOf(this.world, p.address);
    const asked = typeof p.assetID === 'string' ? p.assetID : undefined;
    const assetID =
      asked === undefined ? this.world.network.avaxAssetID : (this.world.assetAliases.get(asked) ?? asked);
    if (!this.world.assets.has(assetID)) throw new Error(`asset '${asked}' not found`);
    // The ID of no real transaction, unique per funding.
    const txID = cb58Encode(
      sha256(Buffer.from(`dev.fund ${this.funded++} ${this.world.tip('P').id} ${this.world.tip('X').id} ${owner}`)),
    );
    const locktime = p.locktime === undefined ? 0n : uint(p.locktime, 'locktime');
    const utxo = makeUtxo({
      txID,
      outputIndex: 0,
      assetID,
      amount: uint(p.amount, 'amount'),
      owner: { locktime, threshold: 1, addresses: [owner] },
      stakeableLocktime: 0n,
    });
    this.world.utxos[chain].set(utxo.key, utxo);
    const balance = this.world
      .utxosOf(chain, owner)
      .filter((u) => u.assetID === assetID)
      .reduce((sum, u) => sum + u.amount, 0n);
    return { utxoID: { txID, outputIndex: 0 }, balance: String(balance) };
  }

  /**
   * Lets transactions spend the address's outputs and authorise for what it owns without its signatures (anvil's
   * `anvil_impersonateAccount`). The address is one key on both X and P: either prefix impersonates it on both.
   */
  impersonate(p: Params): Record<string, never> {
    this.world.impersonated.add(addressOf(this.world, p.address).owner);
    return {};
  }

  stopImpersonating(p: Params): Record<string, never> {
    this.world.impersonated.delete(addressOf(this.world, p.address).owner);
    return {};
  }

  /** What `issueTx` would answer, cost, consume and make, without changing anything. */
  simulateTx(p: Params): Simulation {
    const chain = p.chain;
    if (chain !== 'X' && chain !== 'P')
      throw new Error(`unknown chain '${String(chain)}': dev.simulateTx takes X or P`);
    return simulateTx(this.engine, this.world, chain, txBytes(p));
  }

  /** The whole chain state, as `--state` saves it, gzipped and hex-encoded like anvil's `anvil_dumpState`. */
  dumpState(): { state: string } {
    return { state: `0x${gzipSync(stateOf(this.world)).toString('hex')}` };
  }

  /**
   * Replaces the chain state with a dumped one (`dev.dumpState`, or a `--state` file's text) of the same network. The
   * state is checked whole before anything changes; a snapshot taken before can revert the load. The pools empty.
   */
  loadState(p: Params): Record<string, never> {
    const text = typeof p.state === 'string' ? p.state : '';
    let json: string;
    try {
      json = text.startsWith('0x') ? gunzipSync(Buffer.from(text.slice(2), 'hex')).toString('utf8') : text;
    } catch (error) {
      throw new Error(`the state is not a dumped state: ${(error as Error).message}`);
    }
    replaceWorld(this.world, worldOf(json, 'the state').world);
    this.engine.clear();
    return {};
  }

  /** Sets the P-Chain's dynamic fee state and the L1 validators' fee excess. */
  setFeeState(p: Params): {
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
    this.world.feeState.set(state);
    const validator = { ...this.world.validatorFeeState.get() };
    if (p.validatorExcess !== undefined)
      this.world.validatorFeeState.set({ ...validator, excess: uint(p.validatorExcess, 'validatorExcess') });
    const validatorExcess = this.world.validatorFeeState.get().excess;
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
    this.engine.clear();
    this.snapshots.clear();
    return {};
  }

  setAutomine(p: Params): Record<string, never> {
    if (typeof p.enabled !== 'boolean') throw new Error('enabled must be true or false');
    this.engine.automine = p.enabled;
    return {};
  }

  setIntervalMining(p: Params): Record<string, never> {
    this.engine.setInterval(Number(uint(p.interval, 'interval')));
    return {};
  }

  /** The funded keys: on a local network the ewoq key first, then the derived accounts. */
  listAccounts(): { accounts: Array<{ privateKey: string; xAddress: string; pAddress: string; cAddress: string }> } {
    const keys = [
      ...(this.world.network.name === 'local' ? [EWOQ_PRIVATE_KEY] : []),
      ...this.world.accounts.map((a) => a.privateKey),
    ];
    const hrp = this.world.network.hrp;
    return {
      accounts: keys.map((privateKey) => {
        const secret = cb58Decode(privateKey.slice('PrivateKey-'.length))!;
        const { secp256k1 } = avalanche();
        const publicKey = secp256k1.getPublicKey(secret);
        const address = bech32Encode(hrp, secp256k1.publicKeyBytesToAddress(publicKey));
        return {
          privateKey,
          xAddress: `X-${address}`,
          pAddress: `P-${address}`,
          cAddress: ethChecksum(Buffer.from(secp256k1.publicKeyToEthAddress(publicKey)).toString('hex')),
        };
      }),
    };
  }
}

/** EIP-55: a hex letter is upper case where the keccak-256 of the lower-case address has a nibble of 8 or more. */
function ethChecksum(hex: string): string {
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  return `0x${[...hex].map((c, i) => (Number.parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}
