/**
 * The handlers of anvil's and Hardhat's dev methods (openrpc/c-chain/c-chain-dev.json, ./dev-rpc.ts), each on the dev
 * controls of `/ext/dev` (../engine/dev.ts), so the X-, P- and C-Chain move together: a snapshot is the world's, time
 * is the world's clock. `anvil_*` answers as anvil's api.rs does (mostly null), `hardhat_*` and `evm_*` as Hardhat's
 * EDR does (mostly true).
 */
import type { CChainDevHandlers, HardhatResetParams, Quantity } from '../../generated/c-chain/server/dist/index.js';
import { RpcError } from '../../generated/c-chain/server/dist/index.js';
import type { DevControls } from '../engine/dev.ts';
import { LAST_RFC3339_SECOND, rfc3339 } from '../world/reads.ts';
import { anvilMetadata, checkForking, hardhatMetadata, nodeInfo, snapshotBlock } from './dev-node-info.ts';
import { u256 } from './dev-quantity.ts';
import { dropFromEngine } from './engine-pool.ts';
import { loadMerged } from './state-merge.ts';
import type { CChain } from './evm.ts';

const MAX_SNAPSHOT = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_U256 = 2n ** 256n - 1n;

const evmAddress = (address: string): string => address.slice(2).toLowerCase();
const invalid = (message: string) => new RpcError(-32602, message);

/** A control whose anvil name answers null once it is done (api.rs's `Result<()>`), and Hardhat's `true`. */
const anvil =
  <P>(control: (params: P) => unknown) =>
  async (params: P): Promise<null> => {
    await control(params);
    return null;
  };
const hardhat =
  <P>(control: (params: P) => unknown) =>
  async (params: P): Promise<true> => {
    await control(params);
    return true;
  };

/** The world's clock, in seconds past its start: what anvil's and Hardhat's time methods answer as their offset. */
const offsetOf = (chain: CChain): bigint => chain.world.time.get() - chain.world.network.startTime;

export function devHandlers(chain: CChain, dev: DevControls): CChainDevHandlers {
  /** The C-Chain block each snapshot was taken at, by ID, for anvil_metadata. */
  const taken = new Map<string, [number, string]>();
  const snapshot = async () => {
    const block = await snapshotBlock(chain);
    const { snapshotID } = dev.snapshot();
    // Those a revert or reset discarded are never held again (IDs only grow).
    const held = new Set(dev.heldSnapshots());
    for (const id of taken.keys()) if (!held.has(id)) taken.delete(id);
    taken.set(snapshotID, block);
    return `0x${BigInt(snapshotID).toString(16)}`;
  };
  const revert = ({ id }: { id: Quantity }) => {
    const n = u256(id);
    if (n < 1n || n > MAX_SNAPSHOT) return false;
    try {
      // Used up, as anvil's revert_state_snapshot (RevertRemove) and EDR's revert_to_snapshot do.
      dev.revertOnce({ snapshotID: String(n) });
      return true;
    } catch {
      // An unknown snapshot: anvil and Hardhat answer false.
      return false;
    }
  };
  /** The last C-Chain block's time: the clock's when it was built, later only where the clock is behind (a fork). */
  const lastBlockTime = async () =>
    BigInt(((await chain.request('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
  const setTime = async (timestamp: Quantity | bigint) => {
    const time = u256(timestamp);
    const last = await lastBlockTime();
    // Hardhat's refusal (EDR): a block is never before its parent.
    if (time < last) throw invalid(`Timestamp ${time} is lower than the previous block's timestamp ${last}`);
    try {
      dev.setTime({ timestamp: String(time), mine: false });
    } catch (error) {
      throw invalid((error as Error).message);
    }
  };
  /** The next block's time: the clock moves to it, unless it is before the clock, for the next block alone. */
  const setNextTime = async (timestamp: Quantity | bigint) => {
    const time = u256(timestamp);
    if (time < chain.world.time.get() && time >= (await lastBlockTime())) return chain.setNextBlockTime(time);
    return setTime(time);
  };
  /** The clock moves `seconds` past both its own time and the last block's, so the next block is that much later. */
  const increaseTime = async ({ seconds }: { seconds: Quantity }) => {
    const now = chain.world.time.get();
    const last = await lastBlockTime();
    await setTime((last > now ? last : now) + u256(seconds));
    return offsetOf(chain);
  };
  const checkBlocks = (blocks: bigint) => {
    if (blocks > 1000n) throw invalid(`blocks must be at most 1000: the mock builds every block, not ${blocks}`);
  };
  /** Refused before any block is built: a refused call changes nothing. */
  const mine = async (blocks: bigint, interval: bigint, first: boolean) => {
    checkBlocks(blocks);
    // EDR and anvil read the interval as a u64.
    if (interval >= 2n ** 64n) throw invalid(`interval ${interval} is more than 64 bits`);
    const moves = first ? blocks : blocks - 1n;
    if (interval > 0n && moves > 0n) {
      const now = chain.world.time.get();
      const last = await lastBlockTime();
      const end = (last > now ? last : now) + interval * moves;
      if (end > LAST_RFC3339_SECOND)
        throw invalid(`time ${end} is after ${rfc3339(LAST_RFC3339_SECOND)}, the last time the node's JSON can write`);
    }
    if (interval === 0n) {
      if (blocks > 0n) await dev.mine({ chain: 'C', blocks: Number(blocks) });
      return;
    }
    for (let i = 0n; i < blocks; i++) {
      if (i > 0n || first) await increaseTime({ seconds: String(interval) });
      await dev.mine({ chain: 'C', blocks: 1 });
    }
  };
  /** anvil's evm_setTime: the seconds the clock moved; the time is in seconds (api.rs evm_set_time, time().reset). */
  const moveClock = async ({ timestamp }: { timestamp: Quantity }) => {
    const before = chain.world.time.get();
    await setTime(timestamp);
    return Number(chain.world.time.get() - before);
  };
  /** anvil's: every address's eth_sendTransaction goes unsigned while on (the C-Chain's engine; ../cchain/rpc.ts). */
  const autoImpersonate = ({ enabled }: { enabled: boolean }) => {
    chain.autoImpersonate = enabled;
  };
  /** anvil's pool.clear(): every pooled transaction dropped, as `*_dropTransaction` drops one. */
  const dropAll = async () => {
    for (const hash of [...chain.world.cChainPool.keys()]) await drop({ hash });
  };
  const setAutomine = ({ enabled }: { enabled: boolean }) => dev.setAutomine({ enabled });
  const getAutomine = () => chain.request('hardhat_getAutomine') as Promise<boolean>;
  const setBalance = ({ address, balance }: { address: string; balance: Quantity }) =>
    chain.run(async () => chain.setBalance(evmAddress(address), u256(balance)));
  const setNextBaseFee = ({ baseFeePerGas }: { baseFeePerGas: Quantity }) => chain.setNextBaseFee(u256(baseFeePerGas));
  const setCoinbase = ({ address }: { address: string }) => chain.setCoinbase(evmAddress(address));
  const setCode = ({ address, code }: { address: string; code: string }) => dev.setCode({ address, code });
  const setNonce = async ({ address, nonce }: { address: string; nonce: Quantity }) => {
    if (u256(nonce) >= 2n ** 64n) throw invalid(`nonce ${nonce} is more than 64 bits`);
    await dev.setNonce({ address, nonce: String(u256(nonce)) });
  };
  /** EDR's refusal of a lower nonce (SetAccountNonceLowerThanCurrent, data.rs set_account_nonce), in its words. */
  const setNonceAsHardhat = async (params: { address: string; nonce: Quantity }) => {
    // EDR's SetAccountNonceWithPendingTransactions (data.rs set_nonce; error.rs answers it as INTERNAL_ERROR), where
    // anvil sets it.
    if (chain.world.cChainPool.size > 0)
      throw new RpcError(-32603, 'Cannot set account nonce when the transaction pool is not empty');
    const proposed = u256(params.nonce);
    const account = evmAddress(params.address);
    const previous = await chain.run(
      async (provider) => (await chain.accounts(provider, [account])).get(account)!.nonce,
    );
    if (proposed < previous)
      throw new RpcError(-32000, `New nonce (${proposed}) must not be smaller than the existing nonce (${previous})`);
    await setNonce(params);
  };
  const setStorageAt = ({ address, slot, value }: { address: string; slot: Quantity; value: string }) =>
    dev.setStorageAt({ address, slot: `0x${u256(slot).toString(16).padStart(64, '0')}`, value });
  const impersonate = ({ address }: { address: string }) => dev.impersonate({ address });
  const stopImpersonating = async ({ address }: { address: string }) => {
    const was = chain.impersonated.has(evmAddress(address));
    await dev.stopImpersonating({ address });
    return was;
  };
  const reset = async ({ options }: HardhatResetParams) => {
    await checkForking(chain, options?.forking);
    dev.reset();
  };
  const dumpState = () => dev.dumpState().state;
  // anvil's merge (./state-merge.ts), for its alias hardhat_loadState too.
  const loadState = ({ state }: { state: string }) => loadMerged(chain, () => dev.loadState({ state }));
  /** A pooled transaction dropped: true; else false, or (`mined`) EDR's refusal of a mined one as Hardhat's does. */
  const drop = ({ hash }: { hash: string }, mined?: 'refused') =>
    chain.run(async (provider) => {
      const held = chain.world.cChainPool.has(hash.toLowerCase());
      // EDR's InvalidDropTransactionHash (requests/hardhat/transactions.rs handle_drop_transaction).
      if (!held && mined && (await chain.call(provider, 'eth_getTransactionReceipt', [hash])) !== null)
        throw invalid(`Transaction ${hash.toLowerCase()} cannot be dropped because it's already mined`);
      if (!held) return false;
      await dropFromEngine(chain, provider, [hash]);
      chain.world.cChainPool.delete(hash.toLowerCase());
      return true;
    });
  /** The interval in ms, for X, P and C at once; `interval` is the world's dev.setIntervalMining's refusal. */
  const setIntervalMining = (ms: bigint) => {
    try {
      dev.setIntervalMining({ interval: String(ms) });
    } catch (error) {
      throw invalid((error as Error).message);
    }
  };

  return refusingWithMessages({
    evmSnapshot: snapshot,
    anvilSnapshot: snapshot,
    evmRevert: revert,
    anvilRevert: revert,
    evmIncreaseTime: (p) => increaseTime(p).then(String),
    anvilIncreaseTime: (p) => increaseTime(p).then(Number),
    evmSetNextBlockTimestamp: async ({ timestamp }) => {
      // EDR's TimestampEqualsPrevious (data.rs set_next_block_timestamp); a Granite C-Chain block is later too.
      if (u256(timestamp) === (await lastBlockTime()))
        throw new RpcError(
          -32000,
          `Timestamp ${u256(timestamp)} is equal to the previous block's timestamp. Enable the 'allowBlocksWithSameTimestamp' option to allow this`,
        );
      await setNextTime(timestamp);
      return String(u256(timestamp));
    },
    anvilSetNextBlockTimestamp: async ({ timestamp }) => {
      // anvil's TimestampError (backend/time.rs set_next_block_timestamp): only a time before the last block's.
      const [time, last] = [u256(timestamp), await lastBlockTime()];
      if (time < last) throw invalid(`Timestamp error: ${time} is lower than previous block's timestamp`);
      await setNextTime(time);
      return null;
    },
    evmSetTime: moveClock,
    anvilSetTime: moveClock,
    evmMine: async ({ options }) => {
      const { timestamp, blocks = 1 } =
        typeof options === 'object' && options !== null ? options : { timestamp: options ?? undefined };
      checkBlocks(u256(blocks));
      if (timestamp !== undefined) await setNextTime(timestamp);
      await mine(u256(blocks), 0n, false);
      return '0' as const;
    },
    anvilMine: anvil(({ blocks = '0x1', interval = '0x0' }) => mine(u256(blocks), u256(interval), true)),
    hardhatMine: hardhat(({ blocks = '0x1', interval = '0x1' }) => mine(u256(blocks), u256(interval), false)),
    anvilGetAutomine: getAutomine,
    hardhatGetAutomine: getAutomine,
    evmSetAutomine: hardhat(setAutomine),
    anvilSetAutomine: anvil(setAutomine),
    // Hardhat's interval is in ms and leaves automine as it is; anvil's is in seconds and is a mining mode of its own
    // (api.rs anvil_set_interval_mining: FixedBlockTime, or None for 0), so automine is off after it either way.
    // evm_setIntervalMining is served as Hardhat's: anvil's alias of that name takes seconds (viem's anvil mode sends
    // them there), which only anvil_setIntervalMining reads as seconds here.
    evmSetIntervalMining: hardhat(({ interval }) => setIntervalMining(u256(interval))),
    anvilSetIntervalMining: anvil(({ interval }) => {
      setIntervalMining(u256(interval) * 1000n);
      dev.setAutomine({ enabled: false });
    }),
    anvilSetBalance: anvil(setBalance),
    hardhatSetBalance: hardhat(setBalance),
    anvilAddBalance: anvil(({ address, amount }) =>
      chain.run(async (provider) => {
        const account = evmAddress(address);
        // anvil_add_balance's saturating_add.
        const sum = (await chain.balance(provider, account)) + u256(amount);
        chain.setBalance(account, sum < MAX_U256 ? sum : MAX_U256);
      }),
    ),
    anvilSetNextBlockBaseFeePerGas: anvil(setNextBaseFee),
    hardhatSetNextBlockBaseFeePerGas: hardhat(setNextBaseFee),
    anvilSetCoinbase: anvil(setCoinbase),
    hardhatSetCoinbase: hardhat(setCoinbase),
    anvilSetCode: anvil(setCode),
    hardhatSetCode: hardhat(setCode),
    anvilSetNonce: anvil(setNonce),
    hardhatSetNonce: hardhat(setNonceAsHardhat),
    anvilSetStorageAt: hardhat(setStorageAt),
    hardhatSetStorageAt: hardhat(setStorageAt),
    anvilImpersonateAccount: anvil(impersonate),
    hardhatImpersonateAccount: hardhat(impersonate),
    anvilStopImpersonatingAccount: anvil(stopImpersonating),
    hardhatStopImpersonatingAccount: stopImpersonating,
    anvilAutoImpersonateAccount: anvil(autoImpersonate),
    hardhatAutoImpersonateAccount: anvil(autoImpersonate),
    anvilDropAllTransactions: anvil(dropAll),
    anvilNodeInfo: () => nodeInfo(chain),
    anvilMetadata: () => anvilMetadata(chain, dev, taken),
    hardhatMetadata: () => hardhatMetadata(chain, dev),
    anvilDropTransaction: (p) => drop(p).then((dropped) => (dropped ? p.hash : null)),
    hardhatDropTransaction: (p) => drop(p, 'refused'),
    anvilReset: anvil(reset),
    hardhatReset: hardhat(reset),
    anvilDumpState: dumpState,
    hardhatDumpState: dumpState,
    anvilLoadState: hardhat(loadState),
    hardhatLoadState: hardhat(loadState),
  });
}

/**
 * The handlers with a dev control's refusal (an Error: a bad state, odd code bytes, a nonce below the account's) as
 * -32000 and its message, as Hardhat answers a refusal, where the server would hide it behind -32603.
 */
function refusingWithMessages(handlers: CChainDevHandlers): CChainDevHandlers {
  const refusal = (error: unknown) => {
    throw error instanceof RpcError ? error : new RpcError(-32000, (error as Error).message);
  };
  const wrapped = Object.entries(handlers).map(([name, handler]: [string, (...args: unknown[]) => unknown]) => [
    name,
    (...args: unknown[]) => {
      try {
        return Promise.resolve(handler(...args)).catch(refusal);
      } catch (error) {
        return refusal(error);
      }
    },
  ]);
  return Object.fromEntries(wrapped) as unknown as CChainDevHandlers;
}
