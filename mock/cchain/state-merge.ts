/**
 * anvil's `anvil_loadState` merges a state into the node's (foundry crates/anvil/src/eth/backend/mem/mod.rs
 * load_state: the state's blocks are added and its best block becomes the node's; db.load_state sets each account the
 * state holds, and leaves every other account as it was), where the world's `dev.loadState` replaces it. The merge is
 * made on the replaced world: each C-Chain account the node held that the loaded state does not is put back as it
 * was (balance, nonce, code, storage), journaled as a dev edit so that snapshots and saved states keep it. The engine
 * (Hardhat's EDR) lists no accounts, so a state's accounts are worked out as anvil's db would hold them: the genesis's,
 * those the dev edits and atomic txs set, and those each transaction touched (the engine's prestateTracer in diff
 * mode, with the slots it wrote).
 */
import type { Provider } from '@nomicfoundation/edr';
import { forkOf } from '../fork/lazy.ts';
import type { CChain } from './evm.ts';

interface Account {
  balance: bigint;
  nonce: bigint;
  code: string;
  storage: Array<[string, string]>;
}

type Diff = Record<string, { storage?: Record<string, string> }>;

const hex = (n: bigint) => `0x${n.toString(16)}`;
const ZERO_WORD = /^0x0*$/;

/** Each account (40-hex) of the chain's state, with the storage slots (0x-words) its history wrote. */
async function stateKeys(chain: CChain, provider: Provider): Promise<Map<string, Set<string>>> {
  const keys = new Map<string, Set<string>>();
  const add = (address: string, slots: Iterable<string> = []) => {
    const set = keys.get(address) ?? new Set<string>();
    for (const slot of slots) set.add(slot);
    keys.set(address, set);
  };
  const fork = forkOf(chain.world);
  if (!fork) for (const { address } of chain.genesis.alloc) add(address.toLowerCase());
  const edits = chain.world.cChainEdits;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits.at(i)!;
    add(edit.address, edit.storage ? [edit.storage.slot] : []);
  }
  // A fork's blocks up to its fork block are its source's, whose accounts the engine reads from there.
  const first = fork ? Number(await fork.cHeight()) + 1 : 1;
  for (let height = first; height <= chain.height; height++) {
    const block = (await chain.call(provider, 'eth_getBlockByNumber', [hex(BigInt(height)), false])) as {
      transactions: string[];
    };
    for (const hash of block.transactions) {
      const { pre, post } = (await chain.call(provider, 'debug_traceTransaction', [
        hash,
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
      ])) as { pre: Diff; post: Diff };
      for (const diff of [pre, post])
        for (const [address, account] of Object.entries(diff))
          add(address.slice(2).toLowerCase(), Object.keys(account.storage ?? {}));
    }
  }
  return keys;
}

/** The chain's accounts as they stand, but the empty ones (no balance, nonce, code or storage). */
async function accountsOf(chain: CChain, provider: Provider): Promise<Map<string, Account>> {
  const accounts = new Map<string, Account>();
  for (const [address, slots] of await stateKeys(chain, provider)) {
    const at = `0x${address}`;
    const [balance, nonce, code, ...words] = (await chain.calls(
      provider,
      [
        ['eth_getBalance', [at, 'latest']],
        ['eth_getTransactionCount', [at, 'latest']],
        ['eth_getCode', [at, 'latest']],
        ...[...slots].map((slot): [string, unknown[]] => ['eth_getStorageAt', [at, slot, 'latest']]),
      ],
      true,
    )) as string[];
    const storage = [...slots]
      .map((slot, i): [string, string] => [slot, words[i]!])
      .filter(([, value]) => !ZERO_WORD.test(value));
    const account = { balance: BigInt(balance!), nonce: BigInt(nonce!), code: code!, storage };
    if (account.balance > 0n || account.nonce > 0n || code !== '0x' || storage.length > 0)
      accounts.set(address, account);
  }
  return accounts;
}

/**
 * Loads `load`'s world (which refuses a bad state before it changes anything), then puts back each C-Chain account
 * the node held that the loaded state lacks. Its nonce in the loaded state is 0, which the engine raises.
 */
export async function loadMerged(chain: CChain, load: () => void): Promise<void> {
  const held = await chain.run((provider) => accountsOf(chain, provider));
  load();
  await chain.run(async (provider) => {
    const loaded = await stateKeys(chain, provider);
    const missing = [...held].filter(([address]) => !loaded.has(address));
    // A loaded state holds no pool (dev.dumpState), so the engine takes every nonce edit.
    for (const [address, { balance, nonce, code, storage }] of missing) {
      await chain.editNow(provider, {
        address,
        balance,
        ...(nonce > 0n ? { nonce } : {}),
        ...(code !== '0x' ? { code } : {}),
      });
      for (const [slot, value] of storage) await chain.editNow(provider, { address, storage: { slot, value } });
    }
  });
}
