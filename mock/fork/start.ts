/**
 * A world from a live node's state at a P-Chain height (its tip by default), read with the project's generated
 * clients: network and chains, both chains' tips and times, fee states and configs, validators with their uptimes
 * and delegators, subnets, L1 validators, the staking asset and supply. UTXOs, shared memory and staked outputs come
 * later (./lazy.ts). Start-up reads are cached under the fork point (./fetch.ts), so a second run at the same height
 * sends only the tip checks.
 */
import { deriveKeys } from '../world/genesis.ts';
import { idOf } from '../world/codec.ts';
import { EMPTY_ID, NETWORKS, type NetworkIdentity } from '../world/networks.ts';
import { recordValidatorSets } from '../world/validator-history.ts';
import { World } from '../world/world.ts';
import type { WorldOptions } from '../world/genesis.ts';
import { type Clients, clientsOf } from './clients.ts';
import { blockOf, blockTime, fundAccounts, placeTip } from './tips.ts';
import { heightOf, hexBytes, ownerFrom, seconds, stakerFrom } from './convert.ts';
import { fromSource, sourceError } from './walk.ts';
import { applySubnet, subnetDetails } from './subnets.ts';
import { delegatorsOf } from './stakers.ts';
import { ForkSource } from './fetch.ts';
import { LaterBlocks } from './later.ts';
import { Fork } from './lazy.ts';
import { readSourceIndexes } from './indexes.ts';
import type { ResolvedFork } from './options.ts';

type Json = Record<string, unknown>;

/**
 * More subnets than this are read at start with their owners only (Fuji has thousands), the rest of each (its L1,
 * its validators) on the first call that names it (./lazy.ts).
 */
const MAX_SUBNET_DETAILS = 64;

export async function forkWorld(
  options: ResolvedFork,
  worldOptions: WorldOptions,
  retryDelayMs?: number,
): Promise<World> {
  try {
    return await startFork(options, worldOptions, retryDelayMs);
  } catch (error) {
    throw sourceError(options.url, error);
  }
}

async function startFork(options: ResolvedFork, worldOptions: WorldOptions, retryDelayMs?: number): Promise<World> {
  const source = new ForkSource(options.url, options.cacheDir, retryDelayMs);
  const live = clientsOf(source.url, source.live);
  const [network, pTip, xTip] = await Promise.all([live.info.getNetworkID(), live.p.getHeight(), live.x.getHeight()]);
  const networkID = Number(network.networkID);
  const known = Object.values(NETWORKS).find((n) => n.networkID === networkID);
  if (!known)
    throw new Error(
      `${source.url} serves network ${networkID}; the mock forks ${Object.values(NETWORKS)
        .map((n) => `${n.name} (${n.networkID})`)
        .join(', ')}`,
    );
  const pTipHeight = fromSource('platform.getHeight', () => heightOf(pTip.height));
  const height = options.height ?? pTipHeight;
  if (height > pTipHeight)
    throw new Error(`the fork height ${height} is above ${source.url}'s P-Chain tip (${pTipHeight})`);
  const pBlock = await live.p.getBlockByHeight({ height: String(height), encoding: 'hex' } as never);
  const pBytes = fromSource(`platform.getBlockByHeight ${height}`, () => hexBytes((pBlock as Json).block));
  const xHeight = fromSource('avm.getHeight', () => heightOf(xTip.height));
  source.scope = `${networkID}/${height}-${idOf(pBytes)}-${xHeight}`;
  const c = clientsOf(source.url, source.cached);
  const atTip = height === pTipHeight;
  const heights = { P: height, X: xHeight };
  const later = new LaterBlocks(c, live, heights);

  // Every read of the start state at once: a round trip to a distant node is most of a fork's start-up.
  const config = configOf(c, known.config);
  const state = readState(c, later.ids('P'));
  // Awaited below; a failure before then must not surface as an unhandled rejection.
  for (const pending of [config, state]) pending.catch(() => undefined);
  const [networkName, xChainID, cChainID, avax, xBlock, xBlockJson, pBlockJson, timestamp] = await Promise.all([
    c.info.getNetworkName(),
    c.info.getBlockchainID({ alias: 'X' }),
    c.info.getBlockchainID({ alias: 'C' }),
    c.x.getAssetDescription({ assetID: 'AVAX' }),
    c.x.getBlockByHeight({ height: String(xHeight), encoding: 'hex' } as never),
    c.x.getBlockByHeight({ height: String(xHeight), encoding: 'json' } as never),
    c.p.getBlockByHeight({ height: String(height), encoding: 'json' } as never),
    atTip ? c.p.getTimestamp() : undefined,
  ]);
  const pTime = timestamp ? seconds(timestamp.timestamp) : blockTime(pBlockJson as Json);
  const identity: NetworkIdentity = {
    ...known,
    networkName: String(networkName.networkName),
    xChainID: String(xChainID.blockchainID),
    cChainID: String(cChainID.blockchainID),
    avaxAssetID: String(avax.assetID),
    startTime: pTime,
    config: await config,
  };
  const world = new World(identity);
  world.seed = worldOptions.seed ?? 'avalanche-mock';
  world.journal.recording = false;
  world.accounts.push(...deriveKeys(world.seed, worldOptions.accounts ?? 10));
  world.funding = { accounts: world.accounts.length, utxosPerAccount: 1 };
  const detailed = fillState(world, await state);
  placeTip(world, 'P', blockOf('P', pBytes, height, pTime, pBlockJson as Json));
  const xTime = blockTime(xBlockJson as Json);
  const xBytes = fromSource(`avm.getBlockByHeight ${xHeight}`, () => hexBytes((xBlock as Json).block));
  placeTip(world, 'X', blockOf('X', xBytes, xHeight, xTime, xBlockJson as Json));
  for (const chain of ['P', 'X'] as const) {
    const tip = world.tip(chain);
    // A chain with no block after genesis: its first block builds on the genesis, the pre-fork parent.
    if (tip.height === 0) world.preForkGenesis.set(chain, { id: tip.id, timestamp: tip.timestamp });
  }
  recordValidatorSets(world, world.tip('P'));
  fundAccounts(world, source.url);
  world.journal.recording = true;
  const fork = new Fork(world, source, c, later, heights, detailed);
  Object.assign(fork, await readSourceIndexes(source, world, xBlockJson as Json, later));
  world.fork = fork;
  return world;
}

async function configOf(c: Clients, base: NetworkIdentity['config']): Promise<NetworkIdentity['config']> {
  const [fee, validatorFee, txFee, minStake] = await Promise.all([
    c.p.getFeeConfig(),
    c.p.getValidatorFeeConfig(),
    c.x.getTxFee(),
    c.p.getMinStake({}),
  ]);
  const n = (v: unknown) => BigInt(String(v));
  const w = fee.weights as unknown as number[];
  return {
    ...base,
    txFee: n(txFee.txFee),
    createAssetTxFee: n(txFee.createAssetTxFee),
    fee: {
      weights: [w[0]!, w[1]!, w[2]!, w[3]!],
      maxCapacity: n(fee.maxCapacity),
      maxPerSecond: n(fee.maxPerSecond),
      targetPerSecond: n(fee.targetPerSecond),
      minPrice: n(fee.minPrice),
      excessConversionConstant: n(fee.excessConversionConstant),
    },
    validatorFee: {
      capacity: n(validatorFee.capacity),
      target: n(validatorFee.target),
      minPrice: n(validatorFee.minPrice),
      excessConversionConstant: n(validatorFee.excessConversionConstant),
    },
    staking: {
      ...base.staking,
      minValidatorStake: n(minStake.minValidatorStake),
      minDelegatorStake: n(minStake.minDelegatorStake),
    },
  };
}

type State = Awaited<ReturnType<typeof readState>>;

/**
 * The P-Chain's state as the source serves it now, less what its blocks above the fork point created (`later`: their
 * blocks' and transactions' IDs; a chain's, subnet's or staker's ID is that of the transaction that made it).
 */
async function readState(c: Clients, later: Promise<Set<string>>) {
  const [chains, feeState, validatorFeeState, supply, validators, subnets, created] = await Promise.all([
    c.p.getBlockchains(),
    c.p.getFeeState(),
    c.p.getValidatorFeeState(),
    c.p.getCurrentSupply({}),
    c.p.getCurrentValidators({}),
    // Deprecated, and not served by every release: then the chains name the subnets, loaded in full below.
    c.p.getSubnets({}).catch(() => undefined),
    later,
  ]);
  const kept = <T extends Json>(items: T[], key: string) => items.filter((item) => !created.has(String(item[key])));
  const blockchains = kept(chains.blockchains as unknown as Json[], 'id');
  const named = [...new Set(blockchains.map((chain) => String(chain.subnetID)))].map((id) => ({ id }) as Json);
  const listed = kept((subnets?.subnets as Json[] | undefined) ?? named, 'id').filter((s) => String(s.id) !== EMPTY_ID);
  const primary = kept(validators.validators as unknown as Json[], 'txID');
  const [details, delegators] = await Promise.all([
    listed.length <= MAX_SUBNET_DETAILS ? Promise.all(listed.map((s) => subnetDetails(c, String(s.id), created))) : [],
    delegatorsOf(c, primary, EMPTY_ID, created),
  ]);
  return { blockchains, feeState, validatorFeeState, supply, validators: primary, delegators, listed, details };
}

/** Chains, the AVAX asset, fee states, supply, validators and their uptimes, subnets and L1 validators. */
function fillState(world: World, state: State): Set<string> {
  const { chainIDs, network } = world;
  const { blockchains, feeState, validatorFeeState, supply, validators, delegators, listed, details } = state;
  for (const chain of blockchains) {
    const id = String(chain.id);
    world.chains.set(id, {
      id,
      name: String(chain.name),
      subnetID: String(chain.subnetID),
      vmID: String(chain.vmID),
    });
  }
  for (const [id, aliases] of [
    [chainIDs.P, ['P', 'platform']],
    [chainIDs.X, ['X', 'avm']],
    [chainIDs.C, ['C', 'evm']],
  ] as const)
    for (const alias of [...aliases, id]) world.addChainAlias(id, alias);
  world.assets.set(network.avaxAssetID, {
    id: network.avaxAssetID,
    name: 'Avalanche',
    symbol: 'AVAX',
    denomination: 9,
  });
  world.assetAliases.set('AVAX', network.avaxAssetID);
  world.time.set(network.startTime);
  world.feeState.set({
    capacity: BigInt(String(feeState.capacity)),
    excess: BigInt(String(feeState.excess)),
    timestamp: seconds(feeState.timestamp),
  });
  world.validatorFeeState.set({
    excess: BigInt(String(validatorFeeState.excess)),
    timestamp: seconds(validatorFeeState.timestamp),
  });
  world.supply.set(BigInt(String(supply.supply)));
  const now = network.startTime;
  for (const v of validators) {
    const staker = stakerFrom(v, EMPTY_ID);
    world.stakers.set(staker.txID, staker);
    // The source's view of its peers: connected or not, and up for its share of the time since the start.
    const share = Number(v.uptime ?? 100) / 100;
    const upSeconds = BigInt(Math.floor(Number(now - staker.startTime) * share));
    world.uptimes.set(staker.nodeID, { connected: v.connected !== false, upSeconds, since: now });
  }
  for (const delegator of delegators) world.stakers.set(delegator.txID, delegator);
  for (const subnet of listed) {
    if (!subnet.controlKeys) continue;
    const id = String(subnet.id);
    const owner = ownerFrom({ addresses: subnet.controlKeys, threshold: subnet.threshold, locktime: 0 });
    world.subnets.set(id, { id, owner: owner ?? { locktime: 0n, threshold: 0, addresses: [] } });
  }
  for (const detail of details) applySubnet(world, detail);
  return new Set(details.map((d) => d.id));
}
