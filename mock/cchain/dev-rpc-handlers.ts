/**
 * The handlers of anvil's and Hardhat's dev methods (openrpc/c-chain/c-chain-dev.json, ./dev-rpc.ts), each on the dev
 * controls of `/ext/dev` (../engine/dev.ts), so the X-, P- and C-Chain move together: a snapshot is the world's, time
 * is the world's clock. `anvil_*` answers as anvil's api.rs does (mostly null), `hardhat_*` and `evm_*` as Hardhat's
 * EDR does (mostly true).
 */
import type { CChainDevHandlers, HardhatResetParams, Quantity } from '../../generated/c-chain/server/dist/index.js';
import { RpcError } from '../../generated/c-chain/server/dist/index.js';
import type { DevControls } from '../engine/dev.ts';
import type { CChain } from './evm.ts';

const MAX_SNAPSHOT = BigInt(Number.MAX_SAFE_INTEGER);

const bigintOf = (value: Quantity | bigint): bigint => BigInt(value);
const evmAddress = (address: string): string => address.slice(2).toLowerCase();
const invalid = (message: string) => new RpcError(-32602, message);

/** The world's clock, in seconds past its start: what anvil's and Hardhat's time methods answer as their offset. */
const offsetOf = (chain: CChain): bigint => chain.world.time.get() - chain.world.network.startTime;

export function devHandlers(chain: CChain, dev: DevControls): CChainDevHandlers {
  const snapshot = () => `0x${BigInt(dev.snapshot().snapshotID).toString(16)}`;
  const revert = ({ id }: { id: Quantity }) => {
    const n = bigintOf(id);
    if (n < 1n || n > MAX_SNAPSHOT) return false;
    try {
      dev.revert({ snapshotID: String(n) });
      return true;
    } catch {
      // An unknown snapshot: anvil and Hardhat answer false.
      return false;
    }
  };
  /** The last C-Chain block's time: each block is at least a second after its parent, so it may pass the clock. */
  const lastBlockTime = async () =>
    BigInt(((await chain.request('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
  const setTime = async (timestamp: Quantity | bigint) => {
    const time = bigintOf(timestamp);
    const last = await lastBlockTime();
    // Hardhat's refusal (EDR): a block is never before its parent.
    if (time < last) throw invalid(`Timestamp ${time} is lower than the previous block's timestamp ${last}`);
    try {
      dev.setTime({ timestamp: String(time), mine: false });
    } catch (error) {
      throw invalid((error as Error).message);
    }
  };
  /** The clock moves `seconds` past both its own time and the last block's, so the next block is that much later. */
  const increaseTime = async ({ seconds }: { seconds: Quantity }) => {
    const now = chain.world.time.get();
    const last = await lastBlockTime();
    await setTime((last > now ? last : now) + bigintOf(seconds));
    return offsetOf(chain);
  };
  const mine = async (blocks: bigint, interval: bigint, first: boolean) => {
    if (blocks > 1000n) throw invalid(`blocks must be at most 1000: the mock builds every block, not ${blocks}`);
    if (interval === 0n) {
      if (blocks > 0n) await dev.mine({ chain: 'C', blocks: Number(blocks) });
      return;
    }
    for (let i = 0n; i < blocks; i++) {
      if (i > 0n || first) await increaseTime({ seconds: String(interval) });
      await dev.mine({ chain: 'C', blocks: 1 });
    }
  };
  /** anvil's evm_setTime: the seconds the clock moved. */
  const moveClock = async ({ timestamp }: { timestamp: Quantity }) => {
    const before = chain.world.time.get();
    await setTime(timestamp);
    return Number(chain.world.time.get() - before);
  };
  const anvilMine = ({ blocks = '0x1', interval = '0x0' }: { blocks?: Quantity; interval?: Quantity }) =>
    mine(bigintOf(blocks), bigintOf(interval), true).then(() => null);
  const setAutomine = ({ enabled }: { enabled: boolean }) => dev.setAutomine({ enabled });
  const getAutomine = () => chain.request('hardhat_getAutomine') as Promise<boolean>;
  const setBalance = ({ address, balance }: { address: string; balance: Quantity }) =>
    chain.run(async () => chain.setBalance(evmAddress(address), bigintOf(balance)));
  const setCode = ({ address, code }: { address: string; code: string }) => dev.setCode({ address, code });
  const setNonce = async ({ address, nonce }: { address: string; nonce: Quantity }) => {
    if (bigintOf(nonce) >= 2n ** 64n) throw invalid(`nonce ${nonce} is more than 64 bits`);
    await dev.setNonce({ address, nonce: String(bigintOf(nonce)) }).catch((error: Error) => {
      throw new RpcError(-32000, error.message);
    });
  };
  const setStorageAt = async ({ address, slot, value }: { address: string; slot: Quantity; value: string }) => {
    await dev.setStorageAt({ address, slot: `0x${bigintOf(slot).toString(16).padStart(64, '0')}`, value });
    return true as const;
  };
  const impersonate = ({ address }: { address: string }) => dev.impersonate({ address });
  const stopImpersonating = async ({ address }: { address: string }) => {
    const was = chain.impersonated.has(evmAddress(address));
    await dev.stopImpersonating({ address });
    return was;
  };
  const reset = ({ options }: HardhatResetParams) => {
    const forking = options?.forking;
    if (forking?.jsonRpcUrl !== undefined || (forking?.blockNumber ?? null) !== null)
      throw invalid('the mock forks only as it starts (--fork-url): reset takes no jsonRpcUrl or blockNumber');
    dev.reset();
  };
  const dumpState = () => dev.dumpState().state;
  const loadState = ({ state }: { state: string }) => {
    dev.loadState({ state });
    return true as const;
  };
  const drop = ({ hash }: { hash: string }) =>
    chain.run(async (provider) => {
      const held = chain.world.cChainPool.has(hash.toLowerCase());
      if (!held) return false;
      await chain.call(provider, 'hardhat_dropTransaction', [hash]);
      chain.world.cChainPool.delete(hash.toLowerCase());
      return true;
    });
  const setIntervalMining = ({ interval }: { interval: Quantity }) => {
    if (bigintOf(interval) !== 0n)
      throw invalid('the C-Chain builds blocks on automine or evm_mine, never on an interval: only 0 (off) is taken');
    dev.setIntervalMining({ interval: 0 });
  };

  return {
    evmSnapshot: snapshot,
    anvilSnapshot: snapshot,
    evmRevert: revert,
    anvilRevert: revert,
    evmIncreaseTime: (p) => increaseTime(p).then(String),
    anvilIncreaseTime: (p) => increaseTime(p).then(Number),
    evmSetNextBlockTimestamp: ({ timestamp }) => setTime(timestamp).then(() => String(bigintOf(timestamp))),
    anvilSetNextBlockTimestamp: ({ timestamp }) => setTime(timestamp).then(() => null),
    evmSetTime: moveClock,
    anvilSetTime: moveClock,
    evmMine: async ({ options }) => {
      const { timestamp, blocks = 1 } =
        typeof options === 'object' && options !== null ? options : { timestamp: options ?? undefined };
      if (timestamp !== undefined) await setTime(timestamp);
      await mine(bigintOf(blocks), 0n, false);
      return '0' as const;
    },
    anvilMine,
    hardhatMine: ({ blocks = '0x1', interval = '0x1' }) =>
      mine(bigintOf(blocks), bigintOf(interval), false).then(() => true as const),
    anvilGetAutomine: getAutomine,
    hardhatGetAutomine: getAutomine,
    evmSetAutomine: (p) => {
      setAutomine(p);
      return true as const;
    },
    anvilSetAutomine: (p) => {
      setAutomine(p);
      return null;
    },
    evmSetIntervalMining: (p) => {
      setIntervalMining(p);
      return true as const;
    },
    anvilSetIntervalMining: (p) => {
      setIntervalMining(p);
      return null;
    },
    anvilSetBalance: (p) => setBalance(p).then(() => null),
    hardhatSetBalance: (p) => setBalance(p).then(() => true as const),
    anvilAddBalance: ({ address, amount }) =>
      chain
        .run(async (provider) => {
          const account = evmAddress(address);
          chain.setBalance(account, (await chain.balance(provider, account)) + bigintOf(amount));
        })
        .then(() => null),
    anvilSetCode: (p) => setCode(p).then(() => null),
    hardhatSetCode: (p) => setCode(p).then(() => true as const),
    anvilSetNonce: (p) => setNonce(p).then(() => null),
    hardhatSetNonce: (p) => setNonce(p).then(() => true as const),
    anvilSetStorageAt: setStorageAt,
    hardhatSetStorageAt: setStorageAt,
    anvilImpersonateAccount: (p) => Promise.resolve(impersonate(p)).then(() => null),
    hardhatImpersonateAccount: (p) => Promise.resolve(impersonate(p)).then(() => true as const),
    anvilStopImpersonatingAccount: (p) => stopImpersonating(p).then(() => null),
    hardhatStopImpersonatingAccount: stopImpersonating,
    anvilDropTransaction: (p) => drop(p).then((dropped) => (dropped ? p.hash : null)),
    hardhatDropTransaction: drop,
    anvilReset: (p) => {
      reset(p);
      return null;
    },
    hardhatReset: (p) => {
      reset(p);
      return true as const;
    },
    anvilDumpState: dumpState,
    hardhatDumpState: dumpState,
    anvilLoadState: loadState,
    hardhatLoadState: loadState,
  };
}
