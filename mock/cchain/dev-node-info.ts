/**
 * anvil's `anvil_nodeInfo` and `anvil_metadata` (api.rs; alloy's rpc-types-anvil NodeInfo and Metadata) and Hardhat's
 * `hardhat_metadata` (EDR), read from the C-Chain as it stands: what tools ask to learn what node they talk to.
 */
import {
  type AnvilMetadataResult,
  type AnvilNodeInfoResult,
  type HardhatMetadataResult,
  type HardhatResetParams,
  RpcError,
} from '../../generated/c-chain/server/dist/index.js';
import type { DevControls } from '../engine/dev.ts';
import { forkOf } from '../fork/lazy.ts';
import type { CChain } from './evm.ts';
import { RULES_SINCE, ruleActive } from './rules.ts';
import { callServer } from './rpc.ts';
import { askNode } from './sign-fill.ts';

interface Block {
  number: string;
  hash: string;
  timestamp: string;
  baseFeePerGas?: string;
  gasLimit: string;
}

/** A method's answer as coreth gives it at `/ext/bc/C/rpc` (coreth's block hashes, its gas price and client version). */
const ask = <T>(chain: CChain, method: string, params: unknown[] = []): Promise<T> =>
  askNode(() => callServer(chain), method, params) as Promise<T>;

const latest = (chain: CChain) => ask<Block>(chain, 'eth_getBlockByNumber', ['latest', false]);
const chainIdOf = async (chain: CChain) => Number(await ask<string>(chain, 'eth_chainId'));

/** The newest network upgrade whose rules the C-Chain applies at `time`: anvil's hard fork, in Avalanche's names. */
function upgradeAt(chain: CChain, time: bigint): string {
  const upgrades = Object.keys(RULES_SINCE).filter((upgrade) => ruleActive(chain.world, chain.release, upgrade, time));
  return upgrades.at(-1) ?? 'apricotPhase1';
}

/** The fork's C-Chain: the source's endpoint and the block the engine forked at; undefined on a world of its own. */
async function forkPoint(chain: CChain) {
  const fork = forkOf(chain.world);
  if (!fork) return undefined;
  const height = await fork.cHeight();
  const block = await ask<Block | null>(chain, 'eth_getBlockByNumber', [`0x${height.toString(16)}`, false]);
  return {
    url: `${fork.source.url}/ext/bc/C/rpc`,
    network: { chainId: await chainIdOf(chain), forkBlockNumber: Number(height), forkBlockHash: block?.hash ?? '' },
  };
}

export async function nodeInfo(chain: CChain): Promise<AnvilNodeInfoResult> {
  const block = await latest(chain);
  const fork = await forkPoint(chain);
  return {
    currentBlockNumber: block.number,
    currentBlockTimestamp: Number(block.timestamp),
    currentBlockHash: block.hash,
    hardFork: upgradeAt(chain, BigInt(block.timestamp)),
    // coreth's pool (legacypool) hands the miner the best-paying transactions first.
    transactionOrder: 'fees',
    environment: {
      baseFee: block.baseFeePerGas ?? '0x0',
      chainId: await chainIdOf(chain),
      gasLimit: block.gasLimit,
      gasPrice: await ask<string>(chain, 'eth_gasPrice'),
    },
    forkConfig: {
      forkUrl: fork?.url ?? null,
      forkBlockNumber: fork?.network.forkBlockNumber ?? null,
      forkRetryBackoff: null,
    },
  };
}

async function metadataOf(chain: CChain, dev: DevControls) {
  const block = await latest(chain);
  return {
    clientVersion: await ask<string>(chain, 'web3_clientVersion'),
    chainId: await chainIdOf(chain),
    instanceId: dev.instanceId,
    latestBlockNumber: Number(block.number),
    latestBlockHash: block.hash,
  };
}

/** `taken`: the C-Chain block each snapshot of evm_snapshot was taken at, by ID; those a revert can still use are listed. */
export async function anvilMetadata(
  chain: CChain,
  dev: DevControls,
  taken: ReadonlyMap<string, [number, string]>,
): Promise<AnvilMetadataResult> {
  const snapshots: AnvilMetadataResult['snapshots'] = {};
  for (const id of dev.heldSnapshots()) {
    const at = taken.get(id);
    // alloy's Metadata keys them by U256, which serde writes as 0x-hex.
    if (at) snapshots[`0x${BigInt(id).toString(16)}`] = at;
  }
  return { ...(await metadataOf(chain, dev)), forkedNetwork: (await forkPoint(chain))?.network ?? null, snapshots };
}

export async function hardhatMetadata(chain: CChain, dev: DevControls): Promise<HardhatMetadataResult> {
  const fork = await forkPoint(chain);
  return { ...(await metadataOf(chain, dev)), ...(fork ? { forkedNetwork: fork.network } : {}) };
}

/** The C-Chain block a snapshot is taken at, for anvil_metadata's list. */
export async function snapshotBlock(chain: CChain): Promise<[number, string]> {
  const block = await latest(chain);
  return [Number(block.number), block.hash];
}

const FORKS_AT_START = 'the mock forks only as it starts (--fork-url)';

/**
 * anvil's and Hardhat's `forking` params of a reset, which the mock takes only where they name what it forked as it
 * started: its source (the node's URL, or its `/ext/bc/C/rpc`) and its C-Chain fork block, or no block; a node of its
 * own takes none. Anything else is refused before the reset, so nothing changes.
 */
export async function checkForking(
  chain: CChain,
  forking: NonNullable<HardhatResetParams['options']>['forking'],
): Promise<void> {
  const url = forking?.jsonRpcUrl;
  const block = forking?.blockNumber ?? null;
  if (url === undefined && block === null) return;
  const fork = forkOf(chain.world);
  if (!fork) throw new RpcError(-32602, `${FORKS_AT_START}: reset takes no jsonRpcUrl or blockNumber`);
  const source = fork.source.url;
  if (url !== undefined && url.replace(/\/+$/, '') !== source && url !== `${source}/ext/bc/C/rpc`)
    throw new RpcError(-32602, `${FORKS_AT_START}: reset takes only its source, ${source}, not ${url}`);
  if (block === null) return;
  const height = await fork.cHeight();
  if (BigInt(block) !== height)
    throw new RpcError(-32602, `${FORKS_AT_START}: reset takes only its fork block, ${height}, not ${BigInt(block)}`);
}
