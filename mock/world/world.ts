/**
 * One simulated network's state, from which every answer is read. All of it lives in journaled tables (./journal.ts),
 * so that snapshot() and revert() work for any change made through them; that is the one way to change a world:
 *
 * - `utxos.X` / `utxos.P`: set(utxo.key, utxo) to produce, delete(key) to consume (keys: codec.ts utxoKeyOf, hex of
 *   the ID's bytes); the owner indexes follow.
 * - `atomic`: shared memory, keyed by atomicKey(destinationChain, utxo.key); set to export, delete to import.
 * - `txs`: by ID with status; `blocks.X` / `blocks.P`: push(block) (see acceptBlock), `blockIDs` by ID.
 * - `assets` (+ `assetAliases`), `subnets` (not the Primary Network), `chains` (+ addChainAlias), `stakers`
 *   (validators and delegators of every subnet, current and pending, by txID), `rewardUtxos` by staker txID,
 *   `l1Validators` by validation ID, `l1Expiries` (replay protection of their registrations).
 * - `time`, `feeState`, `validatorFeeState`, `supply`: cells.
 * - `indexes`, `indexPositions`, `preForkGenesis`: through acceptIntoIndexes (./indexer.ts), which acceptBlock calls.
 *
 * Reads (./reads.ts) never change anything. Derived indexes (UTXOs by owner) are rebuilt from table changes only.
 */
import { Cell, Journal, Log, Table } from './journal.ts';
import {
  type Genesis,
  type IndexName,
  type IndexedChain,
  type SourceIndex,
  acceptIntoIndexes,
  indexLogs,
} from './indexer.ts';
import type { ProposerBlock } from './proposer-blocks.ts';
import { type SetEntry, type ValidatorDiff, recordValidatorSets } from './validator-history.ts';
import { isProposalBlock } from './codec.ts';
import type { NetworkIdentity } from './networks.ts';
import type { UptimeRecord } from './uptime.ts';
import type {
  Asset,
  AtomicUtxo,
  Block,
  Blockchain,
  FeeState,
  L1Validator,
  Staker,
  Subnet,
  Tx,
  Utxo,
  UtxoChain,
  ValidatorFeeState,
  WorldConfig,
} from './types.ts';

/** A key the world's `--accounts` funded: printed at start-up, usable by tests. */
export interface FundedKey {
  /** `PrivateKey-<cb58>`, the form avalanchejs' and the node's tools take. */
  privateKey: string;
  /** 40-hex short ID. */
  address: string;
}

/** The order UTXOs were first put in, across every index: what a revert or a reload keeps (the object is the same). */
const putOrder = new WeakMap<object, number>();
let puts = 0;
let loads = 0;
const putIndex = (utxo: object): number => {
  let at = putOrder.get(utxo);
  if (at === undefined) putOrder.set(utxo, (at = puts++));
  return at;
};

/**
 * A UTXO a fork read from its source, in the order the source listed it (newest first): older than every UTXO the
 * fork puts itself, and than the ones read before it.
 */
export function putBeforeLocal(utxo: object): void {
  if (!putOrder.has(utxo)) putOrder.set(utxo, --loads);
}

/**
 * UTXOs by owner (40-hex), each owner's listed newest first on demand and cached until changed: the node keeps each
 * address's UTXO IDs in a linked list whose head is the last put (vms/components/avax/utxo_state.go:257 getIndexDB,
 * database/linkeddb/linkeddb.go:111), for a chain's own UTXOs as for shared memory (chains/atomic/state.go SetValue).
 * The UTXOs one block puts go in the order of a Go map's iteration (avm/state/state.go:438, platformvm/state/
 * state.go:3050), which no client can rely on; here, the order they were produced in.
 */
export class OwnerIndex<U extends Utxo = Utxo> {
  private readonly byOwner = new Map<string, Map<string, U>>();
  private readonly sorted = new Map<string, U[]>();

  change(before: U | undefined, after: U | undefined): void {
    if (before) {
      for (const owner of before.owner.addresses) {
        const set = this.byOwner.get(owner);
        set?.delete(before.key);
        if (set?.size === 0) this.byOwner.delete(owner);
        this.sorted.delete(owner);
      }
    }
    if (after) {
      putIndex(after);
      for (const owner of after.owner.addresses) {
        let set = this.byOwner.get(owner);
        if (!set) this.byOwner.set(owner, (set = new Map()));
        set.set(after.key, after);
        this.sorted.delete(owner);
      }
    }
  }

  /** The owner's UTXOs, newest first. */
  of(owner: string): readonly U[] {
    let list = this.sorted.get(owner);
    if (!list) {
      const set = this.byOwner.get(owner);
      if (!set) return [];
      list = [...set.values()].sort((a, b) => putIndex(b) - putIndex(a));
      this.sorted.set(owner, list);
    }
    return list;
  }
}

export const atomicKey = (destinationChain: string, utxoKey: string) => `${destinationChain}:${utxoKey}`;

/** What the world keeps of the live node it was forked from; the reading and loading are ../fork/'s. */
export interface ForkOrigin {
  readonly source: { readonly url: string };
  readonly heights: Readonly<Record<'P' | 'X', number>>;
  /** A method's answer with the source's data loaded first (the mock's handlers are wrapped in it). */
  answerFor(
    name: string,
    local: (p: Record<string, unknown>) => unknown,
  ): (p: Record<string, unknown>) => Promise<unknown>;
  /**
   * The source's index up to the fork point, where it indexes, once the fork point of the index's chain is known
   * (./indexer.ts); its proposervm blocks there, which the fork's first blocks build on.
   */
  sourceIndex?(name: IndexName): Promise<SourceIndex | undefined>;
  readonly proposerTips?: Partial<Record<IndexedChain, ProposerBlock>>;
  /** Whether `id` is a P-Chain transaction the source accepted by the fork point (asked of it when named as a subnet). */
  holdsPTx?(id: string): boolean;
}

/** A C-Chain account edit outside any transaction (atomic txs, `dev.fund`, `dev.setCode`...), after block `height`. */
export interface CChainEdit {
  height: number;
  address: string;
  balance?: bigint;
  nonce?: bigint;
  /** Hex. */
  code?: string;
  /** Two 32-byte words in hex. */
  storage?: { slot: string; value: string };
}

export class World {
  readonly journal = new Journal();
  readonly config: WorldConfig;
  readonly chainIDs: { X: string; P: string; C: string };
  readonly accounts: FundedKey[] = [];
  /** What names the world's synthetic parts (`--seed`): stakers of Fuji and Mainnet, funded keys, peers' timing. */
  seed = 'avalanche-mock';
  /** How many funded keys genesis derived, and in how many UTXOs each holds its funds: what a saved state names. */
  funding = { accounts: 10, utxosPerAccount: 1 };
  /**
   * Addresses (40-hex short IDs) whose outputs and subnets a transaction may spend and authorise for without their
   * signatures (`dev.impersonate`), like anvil's impersonated accounts: a setting of the node, not chain state, so
   * snapshots and saved states leave it as it is.
   */
  readonly impersonated = new Set<string>();
  /** Set when the world started from a live node's state (`--fork-url`): what it reads from there (../fork/). */
  fork?: ForkOrigin;

  private readonly owned = { X: new OwnerIndex(), P: new OwnerIndex() };
  /** Shared memory by `${destination}:${source}`, by owner. */
  private readonly atomicOwned = new Map<string, OwnerIndex<AtomicUtxo>>();

  readonly utxos: Record<UtxoChain, Table<string, Utxo>> = {
    X: new Table(this.journal, (_, before, after) => this.owned.X.change(before, after)),
    P: new Table(this.journal, (_, before, after) => this.owned.P.change(before, after)),
  };
  readonly atomic = new Table<string, AtomicUtxo>(this.journal, (_, before, after) => {
    const u = (after ?? before)!;
    const key = `${u.destinationChain}:${u.sourceChain}`;
    let index = this.atomicOwned.get(key);
    if (!index) this.atomicOwned.set(key, (index = new OwnerIndex()));
    index.change(before, after);
  });
  readonly txs = new Table<string, Tx>(this.journal);
  readonly blocks: Record<UtxoChain, Log<Block>> = { X: new Log(this.journal), P: new Log(this.journal) };
  readonly blockIDs = new Table<string, Block>(this.journal);
  readonly assets = new Table<string, Asset>(this.journal);
  /** Asset aliases (`AVAX`) to asset IDs. */
  readonly assetAliases = new Table<string, string>(this.journal);
  readonly subnets = new Table<string, Subnet>(this.journal);
  readonly chains = new Table<string, Blockchain>(this.journal);
  /** Alias (the chain's own ID included) to chain ID, and each chain's aliases in the order they were added. */
  readonly aliases = new Table<string, string>(this.journal);
  readonly aliasesOf = new Table<string, readonly string[]>(this.journal);
  readonly stakers = new Table<string, Staker>(this.journal);
  /** The UTXOs a finished staker's transaction was rewarded with, by its ID (platform.getRewardUTXOs). */
  readonly rewardUtxos = new Table<string, readonly Utxo[]>(this.journal);
  readonly l1Validators = new Table<string, L1Validator>(this.journal);
  /** RegisterL1Validator messages' expiries (`${expiry}:${validationID}` to the expiry), kept until it passes. */
  readonly l1Expiries = new Table<string, bigint>(this.journal);
  /** Every subnet's validator set at the last P-Chain block, and each block's changes to it (./validator-history.ts). */
  readonly validatorSets = new Table<string, SetEntry>(this.journal);
  readonly validatorDiffs = new Log<ValidatorDiff>(this.journal);
  /** The node's indexes, where each container sits in them, and each chain's pre-fork genesis (./indexer.ts). */
  readonly indexes = indexLogs(this.journal);
  readonly indexPositions = new Table<string, number>(this.journal);
  readonly preForkGenesis = new Table<IndexedChain, Genesis>(this.journal);
  /**
   * The C-Chain's EVM state set outside its transactions (atomic txs' balances and nonces, `dev.fund`), each after the
   * block at `height`: with the blocks in the C/block index, what rebuilds the EVM (mock/cchain/replay.ts).
   */
  readonly cChainEdits = new Log<CChainEdit>(this.journal);
  /**
   * The signed EVM transactions sent to the C-Chain and not yet in a block (automine off), by hash, in the order sent:
   * what a replay sends again to rebuild the EVM's pool (mock/cchain/replay.ts). Never saved (../engine/state-file.ts).
   */
  readonly cChainPool = new Table<string, { raw: string; order: number }>(this.journal);
  /** Each node's connection and uptime as this node sees it (./uptime.ts); a node without a record never ran. */
  readonly uptimes = new Table<string, UptimeRecord>(this.journal);
  readonly time: Cell<bigint>;
  readonly feeState: Cell<FeeState>;
  readonly validatorFeeState: Cell<ValidatorFeeState>;
  /** The Primary Network's current supply (nAVAX): genesis supply plus every reward minted or promised. */
  readonly supply: Cell<bigint>;

  readonly network: NetworkIdentity;
  constructor(network: NetworkIdentity) {
    this.network = network;
    this.config = network.config;
    this.chainIDs = { X: network.xChainID, P: network.pChainID, C: network.cChainID };
    this.time = new Cell(this.journal, network.startTime);
    this.feeState = new Cell(this.journal, {
      capacity: this.config.fee.maxCapacity,
      excess: 0n,
      timestamp: network.startTime,
    });
    this.validatorFeeState = new Cell(this.journal, { excess: 0n, timestamp: network.startTime });
    this.supply = new Cell(this.journal, 0n);
  }

  /**
   * Whether the P-Chain's state holds a tx of this ID (state.go:1137 GetTx): the accepted ones and the genesis chains'
   * CreateChainTxs, never one only pooled or dropped (the mempool's, not the state's).
   */
  inPState(id: string): boolean {
    const tx = this.txs.get(id);
    if (tx?.chain === 'P' && (tx.status === 'Committed' || tx.status === 'Aborted')) return true;
    return this.chains.has(id) || this.fork?.holdsPTx?.(id) === true;
  }

  /** The chain's UTXOs owned by an address (40-hex), in the node's order. */
  utxosOf(chain: UtxoChain, owner: string): readonly Utxo[] {
    // The C-Chain keeps no UTXOs of its own (avax.getUTXOs of C from C lists none).
    return this.owned[chain]?.of(owner) ?? [];
  }

  /** UTXOs in shared memory that `sourceChain` exported to `destinationChain`, owned by an address, in order. */
  atomicUtxosOf(destinationChain: string, sourceChain: string, owner: string): readonly AtomicUtxo[] {
    return this.atomicOwned.get(`${destinationChain}:${sourceChain}`)?.of(owner) ?? [];
  }

  /** The chain ID an alias (or ID) names. */
  chainID(alias: string): string | undefined {
    return this.aliases.get(alias);
  }

  addChainAlias(chainID: string, alias: string): void {
    this.aliases.set(alias, chainID);
    this.aliasesOf.set(chainID, [...(this.aliasesOf.get(chainID) ?? []), alias]);
  }

  tip(chain: UtxoChain): Block {
    return this.blocks[chain].last()!;
  }

  /** Appends an accepted block and indexes it; its transactions get the block's ID and the chain's word for it. */
  acceptBlock(block: Block): void {
    const status = block.chain === 'P' ? 'Committed' : 'Accepted';
    const txs = block.txIDs.map((id) => this.txs.get(id)).filter((tx) => tx !== undefined);
    acceptIntoIndexes(this, block.chain, block, txs);
    this.blocks[block.chain].push(block);
    this.blockIDs.set(block.id, block);
    for (const txID of block.txIDs) {
      const tx = this.txs.get(txID);
      if (tx) this.txs.set(txID, { ...tx, status, blockID: block.id });
    }
    // The node writes a proposal block's state (its decision txs' stakers too) with its option, at the option's
    // height (block/executor/acceptor.go optionBlock), so the validator diffs are the option's.
    if (block.chain === 'P' && !isProposalBlock(block)) recordValidatorSets(this, block);
  }

  snapshot(): number {
    return this.journal.snapshot();
  }

  revert(mark: number): void {
    this.journal.revert(mark);
  }
}
